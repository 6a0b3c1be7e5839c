export { startFakeOllama, type FakeOllama, type FakeOllamaOptions } from "./server.js";
export { catalogModel } from "./catalog.js";
