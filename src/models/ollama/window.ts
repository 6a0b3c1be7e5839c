import type { Show } from "./wire.js";

/**
 * The `num_ctx` HA Agent asks for when `model_context_tokens` is not set.
 * Ollama's own default is 4,096 on most machines (docs/context-length.mdx),
 * which HA Agent's instructions and tools nearly fill; a model's full window
 * (40,960 to 262,144) can take more memory than a home server has. Home
 * Assistant's own Ollama integration asks for 8,192.
 */
export const DEFAULT_NUM_CTX = 16_384;

/** What `/api/show` says about the model. */
export interface ShownModel {
  /** `<arch>.context_length` from `model_info`. */
  contextLength?: number;
  /** The key it came from, e.g. `qwen3.context_length`. */
  contextKey?: string;
  capabilities?: string[];
}

export function shownModel(show: Show): ShownModel {
  const info = show.model_info ?? {};
  const arch = info["general.architecture"];
  const key = typeof arch === "string" ? `${arch}.context_length` : Object.keys(info).find((k) => k.endsWith(".context_length"));
  const length = key ? info[key] : undefined;
  return {
    ...(typeof length === "number" && length > 0 ? { contextLength: length, contextKey: key } : {}),
    ...(show.capabilities ? { capabilities: show.capabilities } : {}),
  };
}

/**
 * The `num_ctx` to send and why: what the model supports (from `/api/show`,
 * else the model table), capped by `model_context_tokens`, or by the
 * default when that option is not set. The same value goes with every call,
 * because Ollama reloads the model when `num_ctx` changes; the agent fits
 * each request under it, so the prompt always fits and nothing is cut.
 */
export function chooseNumCtx(args: { shown: ShownModel | undefined; tableWindow: number; option: number | undefined }): { numCtx: number; source: string } {
  const fmt = (n: number) => n.toLocaleString("en-US");
  const max = args.shown?.contextLength ?? args.tableWindow;
  const maxSays = args.shown?.contextLength ? `${args.shown.contextKey} ${fmt(max)} from /api/show` : `${fmt(max)} in HA Agent's model table`;
  const cap = args.option ?? DEFAULT_NUM_CTX;
  if (max <= cap) return { numCtx: max, source: `num_ctx ${fmt(max)}, the model's own maximum (${maxSays})` };
  if (args.option !== undefined) return { numCtx: cap, source: `num_ctx ${fmt(cap)} from model_context_tokens (the model supports ${maxSays})` };
  return { numCtx: cap, source: `num_ctx ${fmt(cap)}, HA Agent's default (the model supports ${maxSays}; model_context_tokens raises it)` };
}
