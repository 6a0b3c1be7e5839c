export { echoResponder } from "./echo.js";
export { startFakeOpenAiServer, fakeState, logEntry, readBody, type FakeOpenAiOptions, type FakeOpenAiServer } from "./server.js";
export { openAiHandler, type FakeState, type ReplyQueue } from "./handler.js";
export type { ServerSetup } from "./checks.js";
export {
  FAKE_FLAVOURS,
  type FakeFlavour,
  type FakeReply,
  type FakeAnswer,
  type FakeFault,
  type FakeToolCall,
  type FakeResponder,
  type FakeChatRequest,
  type FakeLogEntry,
} from "./types.js";
