export * from "./gemini/index.js";
export * from "./openai/index.js";
