import { HaAgentError } from "../shared/index.js";

/**
 * No model name is set and the server's own list does not settle it (it
 * serves several models, or none). A setting to fix: the program refuses to
 * start with this one-line message.
 */
export class ModelChoiceError extends HaAgentError {
  constructor(message: string) {
    super("model_not_chosen", message);
  }
}
