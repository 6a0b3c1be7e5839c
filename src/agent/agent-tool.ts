import type { JsonValue, ToolDeclaration } from "../models/index.js";
import type { ApprovalCall } from "../store/index.js";
import type { ActionPlan } from "../tools/index.js";

export type AgentToolOutcome = { ok: true; value: JsonValue } | { ok: false; error: { code: string; message: string } };

/** A tool as the loop runs it: what the model is told, and how to call it. */
export interface AgentTool {
  declaration: ToolDeclaration;
  /** Changes the home. Actions run one at a time, each behind a durable intent, and are never repeated by a resume. */
  action: boolean;
  /** For an action: whether this call runs as it is, or waits for a person's yes first. */
  plan?(args: Record<string, JsonValue>): ActionPlan;
  /**
   * Never throws for the tool's own failure: that is an outcome the model
   * reads. `approved` is the exact call a person approved, for this run only.
   */
  run(args: Record<string, JsonValue>, signal: AbortSignal, approved?: ApprovalCall): Promise<AgentToolOutcome>;
}
