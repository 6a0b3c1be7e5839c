/**
 * A misuse of the simulator's API (bad house file, unknown entity, bad CLI
 * argument). `code` is stable and machine-readable; `message` says what to do.
 */
export class SimulatorError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}
