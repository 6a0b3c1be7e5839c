import type { JsonValue, ToolDeclaration } from "../models/index.js";
import type { ApprovalCall } from "../store/index.js";
import type { ActionPlan } from "../tools/index.js";

export type AgentToolOutcome = { ok: true; value: JsonValue } | { ok: false; error: { code: string; message: string } };

/** A tool as the loop runs it: what the model is told, and how to call it. */
export interface AgentTool {
  declaration: ToolDeclaration;
  /** Changes the home or its configuration. Actions run one at a time, each behind a durable intent, and are never repeated blindly by a resume. */
  action: boolean;
  /**
   * Not offered to the model: this turn may not use it (its owner may not
   * make its reads, or the session cannot approve it). A call of it is
   * answered with why, and nothing runs.
   */
  withheld?: boolean;
  /** For an action: whether this call runs as it is, or waits for a person's yes first, and about exactly what. */
  plan?(args: Record<string, JsonValue>, signal: AbortSignal): ActionPlan | Promise<ActionPlan>;
  /**
   * For an action whose intent was journaled but whose result was not: what
   * happened, found out without doing it twice (and finished where that is
   * safe). Without it the model is told the outcome is unknown.
   */
  settle?(args: Record<string, JsonValue>, signal: AbortSignal, approved?: ApprovalCall): Promise<AgentToolOutcome>;
  /**
   * Never throws for the tool's own failure: that is an outcome the model
   * reads. `approved` is the exact call a person approved, for this run only.
   */
  run(args: Record<string, JsonValue>, signal: AbortSignal, approved?: ApprovalCall): Promise<AgentToolOutcome>;
}
