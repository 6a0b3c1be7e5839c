import { describeError } from "../shared/index.js";
import { ModelError } from "./errors.js";
import type { ModelUsage as Usage } from "./schemas.js";
import type { GenerateResult, ModelClient, ToolDeclaration } from "./types.js";

export type ModelCheck = { ok: true; latencyMs: number; usage: Usage; text: string } | { ok: false; code: string; message: string };

/**
 * One tiny call that proves the settings work: the key, the model name and
 * the server. Never throws; the answer says what is wrong in one sentence.
 */
export async function checkModel(client: ModelClient, timeoutMs = 30_000): Promise<ModelCheck> {
  const started = performance.now();
  try {
    const result = await client.generate(
      { system: "You are a connectivity check. Answer with the single word OK.", conversation: [{ type: "user", text: "Are you there?" }], maxOutputTokens: 16 },
      { signal: AbortSignal.timeout(timeoutMs) },
    );
    return { ok: true, latencyMs: Math.round(performance.now() - started), usage: result.usage, text: result.text };
  } catch (err) {
    return failed(err);
  }
}

/** The tool of the tool check: one word in, nothing done. */
export const CHECK_TOOL: ToolDeclaration = {
  name: "check_echo",
  description: "Repeats a word. Used only to check that tool calls work.",
  parameters: { type: "object", properties: { word: { type: "string", description: "The word to repeat." } }, required: ["word"] },
};

/** How one tool call went: the call whole, something else, or a refusal. */
export type ToolCallCheck = { outcome: "called"; args: string } | { outcome: "not_called"; said: string } | { outcome: "failed"; code: string; message: string };

/** One tiny real tool call, streamed or not: does `check_echo` come back with `{"word": "pong"}`? */
export async function checkToolCall(client: ModelClient, stream: boolean, timeoutMs = 60_000): Promise<ToolCallCheck> {
  let result: GenerateResult;
  try {
    result = await client.generate(
      {
        system: "You are a tool-calling check. Call the tool you are asked to call, with exactly the arguments given, and write nothing else.",
        conversation: [{ type: "user", text: 'Call the tool check_echo with {"word": "pong"}.' }],
        tools: [CHECK_TOOL],
        maxOutputTokens: 512,
      },
      { signal: AbortSignal.timeout(timeoutMs), stream },
    );
  } catch (err) {
    const { code, message } = failed(err);
    return { outcome: "failed", code, message };
  }
  const call = result.toolCalls.find((c) => c.name === CHECK_TOOL.name);
  if (call && call.args.word === "pong") return { outcome: "called", args: JSON.stringify(call.args) };
  const said = call ? `called ${call.name} with ${JSON.stringify(call.args)}` : result.toolCalls.length ? `called ${result.toolCalls.map((c) => c.name).join(", ")}` : `answered in text: "${result.text.trim().slice(0, 80)}"`;
  return { outcome: "not_called", said };
}

function failed(err: unknown): { ok: false; code: string; message: string } {
  if (err instanceof ModelError) return { ok: false, code: err.code, message: err.message };
  return { ok: false, code: "unexpected", message: describeError(err) };
}
