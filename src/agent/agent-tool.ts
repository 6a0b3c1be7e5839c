import type { JsonValue, ToolDeclaration } from "../models/index.js";

export type AgentToolOutcome = { ok: true; value: JsonValue } | { ok: false; error: { code: string; message: string } };

/** A tool as the loop runs it: what the model is told, and how to call it. */
export interface AgentTool {
  declaration: ToolDeclaration;
  /** Changes the home. Actions run one at a time, each behind a durable intent, and are never repeated by a resume. */
  action: boolean;
  /** Never throws for the tool's own failure: that is an outcome the model reads. */
  run(args: Record<string, JsonValue>, signal: AbortSignal): Promise<AgentToolOutcome>;
}
