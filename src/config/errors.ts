import { HaAgentError } from "../shared/index.js";

export interface ConfigProblem {
  /** The option as the user knows it, e.g. `session_idle_days (SESSION_IDLE_DAYS)`. */
  setting: string;
  problem: string;
}

/** Raised when options or environment are invalid; lists every problem, not just the first. */
export class ConfigError extends HaAgentError {
  readonly problems: ConfigProblem[];

  constructor(problems: ConfigProblem[], source: string) {
    const lines = problems.map((p) => `  - ${p.setting}: ${p.problem}`);
    super("invalid_config", `Invalid configuration in ${source}:\n${lines.join("\n")}\nFix the value${problems.length > 1 ? "s" : ""} above and start again.`);
    this.problems = problems;
  }
}
