import { HaAgentError } from "../shared/index.js";

/** A request the agent cannot take, with a message that says what to do instead. */
export class AgentError extends HaAgentError {
  constructor(
    code: "busy" | "no_model" | "model_fixed" | "not_resumable" | "shutting_down" | "no_pending_approval" | "approval_expired",
    message: string,
  ) {
    super(code, message);
  }
}
