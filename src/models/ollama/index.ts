export { ollamaProvider } from "./provider.js";
export { createOllamaClient, ollamaTags } from "./connect.js";
export { OllamaClient } from "./client.js";
export { OllamaOptionsSchema, type OllamaOptions, type OllamaOptionsInput } from "./options.js";
export { DEFAULT_NUM_CTX } from "./window.js";
