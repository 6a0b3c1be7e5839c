import { z } from "zod";
import type { ServerKind } from "../types.js";
import { apiRoot } from "./endpoint.js";
import { WireModelListSchema, type WireModelList } from "./wire.js";

/** What the probe learnt about the server behind an OpenAI-compatible URL. */
export interface ProbedServer {
  /** False when nothing answered at all: the server is down or the URL is wrong. */
  reached: boolean;
  kind: ServerKind;
  /** How a person names it: `llama-server b6500`, `Ollama 0.13.5`, `vLLM`. */
  name: string;
  /** For Ollama: its root, where its own API is (`http://host:11434`). */
  ollamaRoot?: string;
  /** Whether Ollama's own API answered there; behind a proxy only `/v1` may. */
  ollamaNative?: boolean;
  /** The window a request gets, and where the figure came from. */
  window?: { tokens: number; source: string };
}

/** Hosts whose kind is known from the name: nothing is probed there. */
const KNOWN_HOSTS: Record<string, { kind: ServerKind; name: string }> = {
  "api.openai.com": { kind: "openai", name: "OpenAI" },
  "generativelanguage.googleapis.com": { kind: "gemini", name: "Google's OpenAI-compatible Gemini endpoint" },
  "openrouter.ai": { kind: "unknown", name: "OpenRouter" },
};

// llama.cpp tools/server/README.md, `GET /props`: the running window of a slot is default_generation_settings.n_ctx.
const PropsSchema = z.object({ default_generation_settings: z.object({ n_ctx: z.number().int().positive() }), build_info: z.string().nullish() });
// ollama server/routes.go: GET /api/version answers {"version": "…"}.
const VersionSchema = z.object({ version: z.string() });
// LM Studio's REST API (lmstudio.ai/docs/developer/rest/endpoints): GET /api/v0/models lists state and context lengths.
const LmStudioSchema = z.object({
  data: z.array(z.object({ id: z.string(), max_context_length: z.number().int().positive().nullish(), loaded_context_length: z.number().int().positive().nullish() })),
});

/** The server's root: the API root without its version segment (`http://host:11434/v1` → `http://host:11434`). */
export function serverRoot(baseUrl: string): string {
  const url = new URL(apiRoot(baseUrl));
  url.pathname = url.pathname.replace(/\/v\d+[a-z0-9]*$/i, "") || "/";
  return url.toString().replace(/\/+$/, "");
}

/**
 * Asks an OpenAI-compatible URL what is behind it, so the client can meet
 * the server as it is: llama-server's `/props`, Ollama's `/api/version`,
 * vLLM's `max_model_len` and LM Studio's `/api/v0/models`. Never throws;
 * each question has its own short timeout, and all go out at once.
 */
export async function probeServer(args: { baseUrl: string; apiKey?: string; model: string; fetch?: typeof fetch; timeoutMs?: number }): Promise<ProbedServer> {
  const host = new URL(args.baseUrl).hostname;
  const known = KNOWN_HOSTS[host];
  if (known) return { reached: true, ...known };
  const root = serverRoot(args.baseUrl);
  const get = (url: string) => getJson(url, { apiKey: args.apiKey, fetch: args.fetch ?? fetch, timeoutMs: args.timeoutMs ?? 3_000 });
  const [props, version, models, lmstudio] = await Promise.all([get(`${root}/props`), get(`${root}/api/version`), get(`${apiRoot(args.baseUrl)}/models`), get(`${root}/api/v0/models`)]);
  const reached = [props, version, models, lmstudio].some((a) => a.answered);

  const llama = PropsSchema.safeParse(props.json);
  if (llama.success) {
    const build = llama.data.build_info ? ` ${llama.data.build_info}` : "";
    return { reached, kind: "llama-server", name: `llama-server${build}`, window: { tokens: llama.data.default_generation_settings.n_ctx, source: "llama-server's /props (n_ctx of a slot)" } };
  }
  const ollama = VersionSchema.safeParse(version.json);
  if (ollama.success) return { reached, kind: "ollama", name: `Ollama ${ollama.data.version}`, ollamaRoot: root, ollamaNative: true };
  const list = WireModelListSchema.safeParse(models.json);
  if (list.success) {
    const served = pick(list.data, args.model);
    if (served?.max_model_len) return { reached, kind: "vllm", name: "vLLM", window: { tokens: served.max_model_len, source: "vLLM's max_model_len (/v1/models)" } };
  }
  const lm = LmStudioSchema.safeParse(lmstudio.json);
  if (lm.success) {
    const loaded = lm.data.data.find((m) => m.id === args.model)?.loaded_context_length;
    return { reached, kind: "lmstudio", name: "LM Studio", ...(loaded ? { window: { tokens: loaded, source: "LM Studio's loaded_context_length (/api/v0/models)" } } : {}) };
  }
  // Ollama names its library models' owner "library" (openai/openai.go, ToListCompletion); its own API did not answer here.
  if (list.success && list.data.data.some((m) => m.owned_by === "library")) return { reached, kind: "ollama", name: "Ollama", ollamaRoot: root, ollamaNative: false };
  return { reached, kind: "unknown", name: "An OpenAI-compatible server" };
}

function pick(list: WireModelList, model: string) {
  return list.data.find((m) => m.id === model) ?? (list.data.length === 1 ? list.data[0] : undefined);
}

async function getJson(url: string, args: { apiKey: string | undefined; fetch: typeof fetch; timeoutMs: number }): Promise<{ answered: boolean; json?: unknown }> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (args.apiKey) headers.authorization = `Bearer ${args.apiKey}`;
  try {
    const response = await args.fetch(url, { headers, signal: AbortSignal.timeout(args.timeoutMs) });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      return { answered: true };
    }
    return { answered: true, json: await response.json().catch(() => undefined) };
  } catch {
    return { answered: false };
  }
}
