export { loadConfig, type AppConfig, type ConfigSources, type HaEndpoint, type Mode } from "./load.js";
export { ConfigError, type ConfigProblem } from "./errors.js";
export { OPTION_SCHEMAS, SECRET_OPTIONS, type OptionName, type Options } from "./options.js";
export { SERVICE_PATTERN_GRAMMAR, matchesService, parseServicePattern, servicePatternSchema, type ServicePattern } from "./service-pattern.js";
