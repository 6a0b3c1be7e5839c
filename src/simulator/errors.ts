import { HaAgentError } from "../shared/index.js";

/** A misuse of the simulator's API (bad house file, unknown entity, bad CLI argument). */
export class SimulatorError extends HaAgentError {}
