export { DEFAULT_GEMINI_MODELS, startFakeGemini, type FakeGemini, type FakeGeminiOptions } from "./server.js";
export type { GeminiReply, GeminiResponder, GeminiRequestBody, GeminiRequestLog } from "./types.js";
export { SignatureBook } from "./signatures.js";
export { geminiEcho } from "./echo.js";
