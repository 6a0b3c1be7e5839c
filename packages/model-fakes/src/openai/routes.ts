import type { JsonValue } from "../json.js";
import type { ServerSetup } from "./checks.js";
import type { Flavour } from "./flavours.js";

/**
 * The GET routes a server has besides its model list, which HA Agent reads
 * to learn the window: llama-server's `/props` and LM Studio's
 * `/api/v0/models`. Undefined for a path the server does not serve.
 */
export function extraRoute(flavour: Flavour, path: string, models: string[], setup: ServerSetup): JsonValue | undefined {
  const window = setup.contextSize ?? 16_384;
  // llama.cpp tools/server/README.md, GET /props: the slot's running window is default_generation_settings.n_ctx.
  if (flavour.name === "llama-server" && path === "/props") {
    return {
      default_generation_settings: { n_ctx: window, params: { temperature: 0.8, top_k: 40, top_p: 0.95, n_predict: -1 } },
      total_slots: 1,
      model_alias: models[0] ?? "",
      model_path: `/models/${models[0] ?? "model.gguf"}`,
      modalities: { vision: false, audio: false },
      chat_template: setup.chatTemplate === "mistral" ? "{# mistral #}" : "{# chatml #}",
      build_info: "b6500-fake",
    };
  }
  // lmstudio.ai/docs/developer/rest/endpoints, GET /api/v0/models: state and context lengths of each model.
  if (flavour.name === "lmstudio" && path === "/api/v0/models") {
    return {
      object: "list",
      data: models.map((id) => ({ id, object: "model", type: "llm", publisher: id.split("/")[0] ?? "", arch: "qwen3", compatibility_type: "gguf", quantization: "Q4_K_M", state: "loaded", max_context_length: 40_960, loaded_context_length: window })),
    };
  }
  return undefined;
}
