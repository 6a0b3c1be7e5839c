import type { ModelClient } from "../models/index.js";
import type { FairGate } from "./fair-gate.js";

/** The same client, but every call first takes a slot from the program-wide gate, fairly per session. */
export function gatedModel(model: ModelClient, gate: FairGate, sessionId: string): ModelClient {
  return {
    provider: model.provider,
    model: model.model,
    label: model.label,
    facts: model.facts,
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
