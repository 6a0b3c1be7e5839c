import { mayRead } from "../ha/index.js";
import type { JsonValue } from "../models/index.js";
import type { Principal } from "../shared/index.js";
import { ACTION_TOOL, AGENT_READ_TOOLS, PERSONA_ONLY_TOOLS, SAVE_TOOL, type SessionActuation, type ToolCallContext, type ToolRegistry, type ToolSpec } from "../tools/index.js";
import type { AgentTool, AgentToolOutcome } from "./agent-tool.js";
import { declarationOf } from "./declaration.js";

export interface AgentToolsOptions {
  registry: ToolRegistry;
  /** The session's owner, as Home Assistant knows them: a tool whose reads HA would refuse them is not offered. */
  principal: Principal;
  /** Offer call_service: the add-on options allow actuation, and the session allows some or asks for approvals. */
  actuation: SessionActuation | undefined;
  /** Whether the session asks a person before acting (`policy.approval: "ask"`); saving an automation needs it. */
  asks?: boolean;
  /** The add-on's allow_automation_edits: without it the agent has no save tool. */
  automationEdits?: boolean;
  /** Results longer than this (JSON characters) are kept whole in an artifact; the model gets a preview. */
  maxResultChars: number;
  saveLarge(content: string, name: string): Promise<{ id: string }>;
  extra?: AgentTool[];
  /** A persona's tool subset, by base name: the others are not offered (the extra ones always are). */
  only?: readonly string[];
}

/**
 * The agent's tools: the same registry entries MCP clients call, so a fix
 * to a tool fixes it for both. A tool the turn cannot use is not offered:
 * call_service only when actuation is allowed, the save only where a person
 * is asked and the add-on allows edits, and no tool whose Home Assistant
 * reads the owner may not make. Such a tool is still answered if the model
 * calls it anyway, with the reason, so it is never run.
 */
export function agentTools(options: AgentToolsOptions): AgentTool[] {
  let names: string[] = [...AGENT_READ_TOOLS];
  const { actuation } = options;
  if (actuation?.allowActuation || actuation?.approval === "ask") names.push(ACTION_TOOL);
  names.push(SAVE_TOOL);
  // A persona narrows the tools; it never adds one the session may not use.
  if (options.only) names = [...names, ...PERSONA_ONLY_TOOLS].filter((n) => options.only!.includes(n));
  // Every call the agent makes carries the session's limits; the tools that change things check them.
  const session: SessionActuation = actuation ?? { allowActuation: false, allowlistedServices: [], approval: options.asks ? "ask" : "refuse" };
  const tools: AgentTool[] = [];
  for (const name of names) {
    const spec = options.registry.get(name);
    if (!spec) continue;
    const context = (signal: AbortSignal, approved?: SessionActuation["approved"]): ToolCallContext => ({
      principal: options.principal,
      signal,
      progress: async () => {},
      // A person's yes covers this one run of this exact call.
      actuation: approved ? { ...session, approved } : session,
    });
    const withheld = withheldBecause(spec, options);
    if (withheld) {
      tools.push({ declaration: declarationOf(spec), action: false, withheld: true, run: async () => ({ ok: false, error: withheld }) });
      continue;
    }
    const action = spec.action;
    tools.push({
      declaration: declarationOf(spec),
      action: action !== undefined,
      ...(action ? { plan: (args: Record<string, JsonValue>, signal: AbortSignal) => action.plan(args, context(signal)) } : {}),
      ...(action?.settle ? { settle: async (args: Record<string, JsonValue>, signal: AbortSignal, approved?: SessionActuation["approved"]) => fitted(await action.settle!(args, context(signal, approved)), name, options) } : {}),
      run: async (args, signal, approved) => fitted(await options.registry.call(name, args, context(signal, approved)), name, options),
    });
  }
  return [...tools, ...(options.extra ?? [])];
}

/** Why a turn may not use a tool, as the answer to a call of it; undefined when it may. */
function withheldBecause(spec: ToolSpec, options: AgentToolsOptions): { code: string; message: string } | undefined {
  const refused = spec.needs?.find((request) => !mayRead(options.principal, request));
  if (refused) {
    return { code: "admin_only", message: `${spec.name} reads what Home Assistant shows to administrators only, and this session's owner is not one; it is not available here.` };
  }
  if (spec.name !== SAVE_TOOL) return undefined;
  if (!options.automationEdits) {
    return { code: "automation_edits_off", message: "Saving automations is turned off. The add-on owner can allow it with the option allow_automation_edits (ALLOW_AUTOMATION_EDITS=true outside the add-on)." };
  }
  if (!options.asks) {
    return { code: "approval_required", message: 'Saving an automation always needs a person\'s yes, and this session does not ask. Start a session with policy.approval "ask" to save after a yes; automation_check shows the draft and its changes meanwhile.' };
  }
  return undefined;
}

async function fitted(outcome: { ok: true; value: unknown } | { ok: false; error: { code: string; message: string } }, name: string, options: AgentToolsOptions): Promise<AgentToolOutcome> {
  if (!outcome.ok) return outcome;
  return { ok: true, value: await fit(outcome.value as JsonValue, name, options) };
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
