import { HaAgentError, describeError } from "../shared/index.js";
import { fail, type ToolCallContext, type ToolOutcome, type ToolSpec } from "./tool.js";
import { formatZodError } from "./zod-errors.js";

export const TOOL_PREFIX = "ha_agent";
export type ToolNameSeparator = "_" | ".";
const WIRE_NAME = /^[a-zA-Z0-9_.-]{1,64}$/;

export class ToolRegistryError extends HaAgentError {}

/** The single list of tools; MCP and the agent both read from it. */
export class ToolRegistry {
  readonly #tools = new Map<string, ToolSpec>();

  constructor(readonly separator: ToolNameSeparator = "_") {}

  register(spec: ToolSpec): void {
    if (this.#tools.has(spec.name)) {
      throw new ToolRegistryError("duplicate_tool", `A tool named "${spec.name}" is already registered; give the new one another name.`);
    }
    const wire = this.wireName(spec.name);
    if (!WIRE_NAME.test(wire)) {
      throw new ToolRegistryError(
        "bad_tool_name",
        `Tool wire name "${wire}" must be 1-64 characters of letters, digits, "_", "-" or "."; shorten or rename it.`,
      );
    }
    this.#tools.set(spec.name, spec);
  }

  /** `state_query` → `ha_agent_state_query` (or `ha_agent.state_query`). */
  wireName(name: string): string {
    return `${TOOL_PREFIX}${this.separator}${name}`;
  }

  /** The base name for a wire name, or undefined when it is not one of ours. */
  baseName(wire: string): string | undefined {
    const prefix = `${TOOL_PREFIX}${this.separator}`;
    return wire.startsWith(prefix) ? wire.slice(prefix.length) : undefined;
  }

  get(name: string): ToolSpec | undefined {
    return this.#tools.get(name);
  }

  list(): ToolSpec[] {
    return [...this.#tools.values()];
  }

  /**
   * Validates the arguments, runs the tool and checks its result against the
   * output schema. Never throws for a tool's own failure: that is a value.
   */
  async call(name: string, rawArgs: unknown, ctx: ToolCallContext): Promise<ToolOutcome<Record<string, unknown>>> {
    const spec = this.#tools.get(name);
    if (!spec) return fail("unknown_tool", `There is no tool "${name}". Call tools/list for the tools this server offers.`);
    const parsed = spec.input.safeParse(rawArgs ?? {});
    if (!parsed.success) return fail("invalid_argument", formatZodError(parsed.error));
    let outcome: ToolOutcome<Record<string, unknown>>;
    try {
      outcome = await spec.invoke(parsed.data, ctx);
    } catch (err) {
      if (ctx.signal.aborted) return fail("cancelled", "The call was cancelled before it finished.");
      return fail("internal", `${spec.name} failed unexpectedly: ${describeError(err)}`);
    }
    if (!outcome.ok) return outcome;
    const checked = spec.output.safeParse(outcome.value);
    if (!checked.success) {
      return fail("internal", `${spec.name} produced a result that does not match its schema: ${formatZodError(checked.error)}`);
    }
    return { ok: true, value: checked.data };
  }
}
