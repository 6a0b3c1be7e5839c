/**
 * What the fake knows of the models it can have pulled: what `/api/show`
 * reports (server/routes.go, ShowHandler: `model_info` with
 * `general.architecture` and `<arch>.context_length`, `capabilities`, the
 * Modelfile's `parameters`), from the models' pages on ollama.com/library.
 */
export interface CatalogModel {
  arch: string;
  contextLength: number;
  capabilities: string[];
  /** The Modelfile's temperature, when it sets one. */
  temperature?: number;
  parameterSize: string;
}

const FAMILIES: Record<string, CatalogModel> = {
  qwen3: { arch: "qwen3", contextLength: 40_960, capabilities: ["completion", "tools", "thinking"], temperature: 0.6, parameterSize: "8.2B" },
  "llama3.1": { arch: "llama", contextLength: 131_072, capabilities: ["completion", "tools"], parameterSize: "8.0B" },
  "llama3.2": { arch: "llama", contextLength: 131_072, capabilities: ["completion", "tools"], parameterSize: "3.2B" },
  gemma3: { arch: "gemma3", contextLength: 131_072, capabilities: ["completion", "vision"], parameterSize: "4.3B" },
  "gpt-oss": { arch: "gptoss", contextLength: 131_072, capabilities: ["completion", "tools", "thinking"], temperature: 1, parameterSize: "20.9B" },
  "mistral-small3.2": { arch: "mistral3", contextLength: 131_072, capabilities: ["completion", "tools", "vision"], temperature: 0.15, parameterSize: "24.0B" },
};

/** A model by its name (`qwen3:8b`); an unknown family gets modest, tool-capable figures. */
export function catalogModel(name: string): CatalogModel {
  const family = name.replace(/:.*$/, "").replace(/^.*\//, "");
  return FAMILIES[family] ?? { arch: "llama", contextLength: 8_192, capabilities: ["completion", "tools"], parameterSize: "7B" };
}

/** Ollama's full name for a library model, as its errors print it. */
export function fullName(name: string): string {
  const tagged = name.includes(":") ? name : `${name}:latest`;
  return tagged.includes("/") ? `registry.ollama.ai/${tagged}` : `registry.ollama.ai/library/${tagged}`;
}
