import { HaAgentError } from "../shared/index.js";

/** The Supervisor could not be reached, or refused a request; the message says which, in plain words. */
export class SupervisorRequestError extends HaAgentError {
  /** The HTTP status the Supervisor answered, or undefined when it was not reached. */
  readonly status: number | undefined;

  constructor(message: string, options: { status?: number; cause?: unknown } = {}) {
    super("supervisor_request_failed", message, options);
    this.status = options.status;
  }
}
