export { PersonaRegistry, BUILT_IN, type PersonaResolution } from "./registry.js";
export { PersonaError } from "./errors.js";
export { builtInPersonas } from "./built-ins/index.js";
export {
  argumentsOf,
  definePersona,
  ARGUMENT_KINDS,
  DEFAULT_MAX_TOKENS,
  type ArgumentKind,
  type PersonaArgument,
  type PersonaContext,
  type PersonaSources,
  type PersonaSpec,
  type ResolvedPersona,
} from "./persona.js";
export { fitPriming, type PrimingSection } from "./priming.js";
export { completeArgument } from "./complete.js";
export { watchPersonaDir, type PersonaDir } from "./persona-dir.js";
export { parsePersonaFile, describeProblem, type PersonaFileProblem } from "./user-file.js";
export { UserPersonaFileSchema, type UserPersonaFile } from "./user-schema.js";
