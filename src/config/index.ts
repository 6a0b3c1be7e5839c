export { loadConfig, endpointsFor, ADDON_OPTIONS_PATH, type AppConfig, type ConfigSources, type HaEndpoint, type Mode } from "./load.js";
export { ConfigError, type ConfigProblem } from "./errors.js";
export { OPTION_SCHEMAS, OPTION_ENV, OptionsSchema, SECRET_OPTIONS, ENV_SCHEMAS, type OptionName, type Options } from "./options.js";
