import type { Clock } from "../shared/index.js";
import { describeError } from "../shared/index.js";
import type { ToolCall, ToolResult } from "../models/index.js";
import type { ApprovalCall, PendingApproval, Usage } from "../store/index.js";
import type { AgentTool, AgentToolOutcome } from "./agent-tool.js";
import type { ApprovalGate } from "./approval-gate.js";
import { passApproval } from "./approval-step.js";
import { callKey, type ToolCallDetail, type ToolResultDetail } from "./records.js";
import type { OpenCall } from "./replay.js";
import type { TurnJournal } from "./journal.js";

/** Whether a call may change the home: journaled with its intent, so a resume never asks today's tools. */
const isAction = (open: OpenCall, tools: ReadonlyMap<string, AgentTool>): boolean => open.intent?.action ?? tools.get(open.call.name)?.action === true;

export interface RunToolsOptions {
  continuationId: string;
  step: number;
  calls: OpenCall[];
  tools: ReadonlyMap<string, AgentTool>;
  journal: TurnJournal;
  signal: AbortSignal;
  clock: Clock;
  /**
   * For an action whose intent was journaled but whose result was not: it
   * may or may not have happened. Says what the targets look like now.
   */
  describeUnknownOutcome(call: ToolCall): Promise<string>;
  /** Called as each result is journaled. */
  onResult?(result: ToolResult, index: number): void;
  /** Where actions wait for a person's yes; without one, the tools refuse what needs it. */
  approvals?: ApprovalGate;
  /** Ends a wait for a person: the turn's stop, or a shutdown. Defaults to `signal`. */
  waitSignal?: AbortSignal;
  /** A wait for a person ended by a shutdown, not a cancel: the turn keeps waiting after the restart. */
  onParked?(): void;
  /** Time spent waiting for people, which the turn's time budget does not count. */
  onWaited?(ms: number): void;
  /** An approval no one answered in time: the turn ends, and no further action runs. */
  onExpired?(request: PendingApproval): void;
  /** What the turn has spent so far, calls of this step included; written while an action waits for a person. */
  spent?(): Partial<Usage>;
}

/**
 * Runs the calls of one model turn. Read-only calls run in parallel;
 * actions run one at a time after them, each behind an fsynced intent.
 * Every outcome, failures included, becomes a journaled result the model
 * will read. An action that may already have run is never run again. Calls
 * cut short by a cancel or a shutdown get no result.
 */
export async function runToolCalls(options: RunToolsOptions): Promise<Map<number, ToolResult>> {
  const results = new Map<number, ToolResult>();
  const reads = options.calls.filter((c) => !isAction(c, options.tools));
  const actions = options.calls.filter((c) => isAction(c, options.tools));

  const keep = (index: number, r: ToolResult | undefined) => r && results.set(index, r);
  await Promise.all(reads.map((c) => runOne(options, c).then((r) => keep(c.index, r))));
  // After an approval expired, or a shutdown ended a wait, no further action of the step starts.
  let halted = false;
  const watched: RunToolsOptions = {
    ...options,
    onExpired: (request) => ((halted = true), options.onExpired?.(request)),
    onParked: () => ((halted = true), options.onParked?.()),
  };
  for (const c of actions) {
    if (options.signal.aborted || halted) break;
    keep(c.index, await runOne(watched, c));
  }
  return results;
}

/** Undefined when the turn was stopped during the call: no result is journaled, so a resume deals with it. */
async function runOne(options: RunToolsOptions, open: OpenCall): Promise<ToolResult | undefined> {
  const { call, index } = open;
  const tool = options.tools.get(call.name);
  const action = isAction(open, options.tools);
  const key = callKey(options.continuationId, options.step, index);

  let started = options.clock.now();

  let outcome: AgentToolOutcome;
  if (action && open.intent) {
    // The intent is durable and the result is not: the call may have reached Home Assistant.
    outcome = await settleUnknown(options, open, tool);
    if (options.signal.aborted) return undefined;
  } else {
    let approved: ApprovalCall | undefined;
    if (action) {
      const passage = await passApproval({
        open,
        tool,
        step: options.step,
        key,
        journal: options.journal,
        gate: options.approvals,
        clock: options.clock,
        signal: options.waitSignal ?? options.signal,
        ...(options.spent ? { spent: options.spent } : {}),
      });
      const waited = options.clock.now() - started;
      if (waited > 0) options.onWaited?.(waited);
      started = options.clock.now();
      if (passage.kind === "stopped") {
        if (!options.signal.aborted) options.onParked?.();
        return undefined;
      }
      if (passage.kind === "expired") {
        options.onExpired?.(passage.request);
        return undefined;
      }
      if (passage.kind === "denied") return journalResult(options, { open, key, started, outcome: passage.outcome });
      approved = passage.approved;
    }
    if (!open.intent) {
      const detail: ToolCallDetail = { step: options.step, index, call, action };
      await options.journal.append({ type: "tool_call", key, detail }, { durable: action });
    }
    outcome = tool ? await invoke(tool, call, options.signal, approved) : unknownTool(call.name, options.tools);
    // Stopped mid-call: an action keeps its intent without a result, so it is never repeated blindly.
    if (options.signal.aborted) return undefined;
  }
  return journalResult(options, { open, key, started, outcome });
}

/** Journals a call's outcome as the result the model will read. */
async function journalResult(options: RunToolsOptions, args: { open: OpenCall; key: string; started: number; outcome: AgentToolOutcome }): Promise<ToolResult> {
  const { open, key, started, outcome } = args;
  const { call, index } = open;

  const result: ToolResult = { callId: call.id, name: call.name, output: outcome.ok ? outcome.value : { error: outcome.error }, isError: !outcome.ok };
  const detail: ToolResultDetail = { step: options.step, index, result, durationMs: Math.max(0, options.clock.now() - started) };
  await options.journal.append({ type: "tool_result", key, detail });
  options.onResult?.(result, index);
  return result;
}

async function invoke(tool: AgentTool, call: ToolCall, signal: AbortSignal, approved: ApprovalCall | undefined): Promise<AgentToolOutcome> {
  try {
    return await tool.run(call.args, signal, approved);
  } catch (err) {
    if (signal.aborted) return { ok: false, error: { code: "cancelled", message: "The turn was cancelled before this call finished." } };
    return { ok: false, error: { code: "internal", message: `${call.name} failed unexpectedly: ${describeError(err)}` } };
  }
}

/**
 * An action that may have run before a restart: its tool finds out what
 * happened (and finishes what is safe to finish, with the approval the
 * journal holds), or the model is told the outcome is unknown and what the
 * targets look like now. Either way it is never simply run again.
 */
async function settleUnknown(options: RunToolsOptions, open: OpenCall, tool: AgentTool | undefined): Promise<AgentToolOutcome> {
  const { call } = open;
  if (tool?.settle) {
    const approval = open.approval;
    const approved = approval?.decision?.decision === "approve" ? approval.request.call : undefined;
    try {
      return await tool.settle(call.args, options.signal, approved);
    } catch (err) {
      if (options.signal.aborted) return { ok: false, error: { code: "cancelled", message: "The turn was cancelled before this call finished." } };
      return { ok: false, error: { code: "outcome_unknown", message: `Outcome unknown after a restart, and it could not be checked (${describeError(err)}); this action was not repeated. Ask the user before trying again.` } };
    }
  }
  return { ok: false, error: { code: "outcome_unknown", message: `Outcome unknown after a restart: this action was not repeated. ${await options.describeUnknownOutcome(call)}` } };
}

function unknownTool(name: string, tools: ReadonlyMap<string, AgentTool>): AgentToolOutcome {
  const valid = [...tools].filter(([, t]) => !t.withheld).map(([n]) => n).join(", ") || "none in this turn";
  return { ok: false, error: { code: "unknown_tool", message: `There is no tool "${name}". The tools you can call are: ${valid}.` } };
}

