import { describeError } from "../shared/index.js";
import { ModelError } from "./errors.js";
import type { ModelClient } from "./types.js";
import type { ModelUsage as Usage } from "./schemas.js";

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
    if (err instanceof ModelError) return { ok: false, code: err.code, message: err.message };
    return { ok: false, code: "unexpected", message: describeError(err) };
  }
}

