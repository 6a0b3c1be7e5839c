import { HaAgentError } from "../shared/index.js";

/**
 * A persona that cannot be resolved as asked: an unknown name, a bad
 * argument, a target the home does not have. `code` is `unknown_persona`,
 * `invalid_argument` or `not_found`; the message says what to do.
 */
export class PersonaError extends HaAgentError {}
