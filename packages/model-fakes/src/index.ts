export * from "./gemini/index.js";
export * from "./openai/index.js";
export { fullView, ollamaView, countTokens, type SeenPrompt } from "./prompt-view.js";
export * from "./ollama/index.js";
export { streamFixture } from "./fixtures.js";
export type { JsonValue } from "./json.js";
