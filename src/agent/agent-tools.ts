import type { JsonValue, ToolDeclaration } from "../models/index.js";
import type { Principal } from "../shared/index.js";
import type { HomeIndex } from "../indexer/index.js";
import { planAction, toolJsonSchema, type ActuationCeiling, type SessionActuation, type ToolRegistry, type ToolSpec } from "../tools/index.js";
import type { AgentTool } from "./agent-tool.js";

/** The registry tools the agent may use, by base name. Session tools are for MCP callers only. */
export const AGENT_READ_TOOLS = ["index_search", "state_query", "diagnose_entity", "analyze_errors", "render_context", "history", "statistics", "energy"] as const;
/**
 * Tools the agent gets only from a persona that names them: a template reads
 * any entity in Home Assistant, past what the user exposed to Assist, so it
 * is offered where drafting needs it and nowhere else.
 */
export const PERSONA_ONLY_TOOLS = ["render_template"] as const;
export const ACTION_TOOL = "call_service";

const declarations = new WeakMap<ToolSpec, ToolDeclaration>();

/** A tool's declaration for the model, computed once per spec: its base name and input JSON Schema. */
export function declarationOf(spec: ToolSpec): ToolDeclaration {
  let d = declarations.get(spec);
  if (!d) {
    d = { name: spec.name, description: spec.description, parameters: toolJsonSchema(spec.input, "input") as Record<string, JsonValue> };
    declarations.set(spec, d);
  }
  return d;
}

export interface AgentToolsOptions {
  registry: ToolRegistry;
  principal: Principal;
  /** Offer call_service: the add-on options allow actuation, and the session allows some or asks for approvals. */
  actuation: SessionActuation | undefined;
  /** What call_service is checked against before it runs, to know which calls wait for a person. */
  actions?: { index: HomeIndex; ceiling: ActuationCeiling };
  /** Results longer than this (JSON characters) are kept whole in an artifact; the model gets a preview. */
  maxResultChars: number;
  saveLarge(content: string, name: string): Promise<{ id: string }>;
  extra?: AgentTool[];
  /** A persona's tool subset, by base name: the others are not offered (the extra ones always are). */
  only?: readonly string[];
}

/**
 * The agent's tools: the same registry entries MCP clients call, so a fix
 * to a tool fixes it for both. call_service is offered only when actuation
 * is allowed, and then under the session's own limits.
 */
export function agentTools(options: AgentToolsOptions): AgentTool[] {
  let names: string[] = [...AGENT_READ_TOOLS];
  const actuation = options.actuation;
  if (actuation?.allowActuation || actuation?.approval === "ask") names.push(ACTION_TOOL);
  // A persona narrows the tools; it never adds one the session may not use.
  if (options.only) names = [...names, ...PERSONA_ONLY_TOOLS].filter((n) => options.only!.includes(n));
  const tools: AgentTool[] = [];
  for (const name of names) {
    const spec = options.registry.get(name);
    if (!spec) continue;
    const actions = name === ACTION_TOOL ? options.actions : undefined;
    tools.push({
      declaration: declarationOf(spec),
      action: name === ACTION_TOOL,
      ...(actions && actuation ? { plan: (args: Record<string, JsonValue>) => planAction(actions, args, actuation) } : {}),
      async run(args, signal, approved) {
        const outcome = await options.registry.call(name, args, {
          principal: options.principal,
          signal,
          progress: async () => {},
          // A person's yes covers this one run of this exact call.
          ...(actuation ? { actuation: approved ? { ...actuation, approved } : actuation } : {}),
        });
        if (!outcome.ok) return outcome;
        return { ok: true, value: await fit(outcome.value as JsonValue, name, options) };
      },
    });
  }
  return [...tools, ...(options.extra ?? [])];
}

/** Too big for the context: the whole result goes to an artifact, the model reads a preview and its id. */
async function fit(value: JsonValue, name: string, options: AgentToolsOptions): Promise<JsonValue> {
  const text = JSON.stringify(value);
  if (text.length <= options.maxResultChars) return value;
  const artifact = await options.saveLarge(text, `${name}.json`);
  return {
    truncated: true,
    artifact_id: artifact.id,
    note: `The full result (${text.length} characters) is kept as artifact ${artifact.id}. Ask a narrower question to see more.`,
    preview: text.slice(0, Math.max(200, options.maxResultChars - 300)),
  };
}

/** How much of a tool result the model sees, by its context window: a 1M-token model reads more. */
export function maxResultCharsFor(contextWindow: number): number {
  if (contextWindow >= 1_000_000) return 60_000;
  if (contextWindow >= 128_000) return 16_000;
  return 6_000;
}
