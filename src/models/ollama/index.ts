export { ollamaProvider } from "./provider.js";
export { createOllamaClient, ollamaTags } from "./connect.js";
export type { OllamaClient } from "./client.js";
export { OllamaOptionsSchema, type OllamaOptions, type OllamaOptionsInput } from "./options.js";
export { DEFAULT_NUM_CTX } from "./window.js";
