import { demoProvider } from "./demo/index.js";
import { geminiProvider } from "./gemini/index.js";
import { ollamaProvider } from "./ollama/index.js";
import { openaiProvider } from "./openai/index.js";
import { ModelProviderRegistry } from "./registry.js";

/** The built-in model providers, registered the way user-defined ones will be. */
export function builtInModelProviders(): ModelProviderRegistry {
  const registry = new ModelProviderRegistry();
  registry.register(geminiProvider);
  registry.register(openaiProvider);
  registry.register(ollamaProvider);
  registry.register(demoProvider);
  return registry;
}
