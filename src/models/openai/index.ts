export { openaiProvider } from "./provider.js";
export { OpenAiClient } from "./client.js";
export { OpenAiOptionsSchema, type OpenAiOptions, type OpenAiOptionsInput } from "./options.js";
export { apiRoot } from "./endpoint.js";
export { servedModels, type ServedModel, type ServedModels } from "./served-models.js";
export { connectOpenAiCompatible } from "./connect.js";
export { probeServer, serverRoot, type ProbedServer } from "./probe.js";
