import type { ModelClient } from "../models/index.js";
import type { FairGate } from "./fair-gate.js";

/** The same client, but every call first takes a slot from the program-wide gate, fairly per session. */
export function gatedModel(model: ModelClient, gate: FairGate, sessionId: string): ModelClient {
  return {
    get provider() {
      return model.provider;
    },
    model: model.model,
    get label() {
      return model.label;
    },
    // Read through: a client that could not ask its server at start learns its window later.
    get facts() {
      return model.facts;
    },
    async generate(request, options = {}) {
      const release = await gate.acquire(sessionId, options.signal);
      try {
        return await model.generate(request, options);
      } finally {
        release();
      }
    },
    countTokens: (request, options) => model.countTokens(request, options),
    close: () => model.close(),
  };
}
