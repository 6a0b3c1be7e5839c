export { echoResponder } from "./echo.js";
export { startFakeOpenAiServer, type FakeOpenAiOptions, type FakeOpenAiServer } from "./server.js";
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
