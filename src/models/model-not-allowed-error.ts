import { HaAgentError } from "../shared/index.js";

/**
 * A caller named a model the owner does not let it use: one missing from
 * `allowed_models` (`model_not_allowed`), or, for someone who is not a Home
 * Assistant administrator, any model but the configured one
 * (`model_admin_only`). Refused before any request reaches the model server.
 */
export class ModelNotAllowedError extends HaAgentError {
  constructor(code: "model_not_allowed" | "model_admin_only", message: string) {
    super(code, message);
  }
}
