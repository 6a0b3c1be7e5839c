import { z } from "zod";
import { createGeminiClient, GeminiOptionsSchema } from "../gemini/index.js";
import type { ModelProvider } from "../types.js";
import { loadFakeGemini } from "./gemini-port.js";
import { demoPlan } from "./planner.js";

export const DEMO_MODEL = "demo-planner-1";
export const DEMO_LABEL = "Demo model (scripted rules, not an AI)";
const DEMO_KEY = "demo-key-not-a-secret";

/**
 * The demo model: the fake Gemini server, in-process on loopback, with a
 * rule-based planner as its mind, reached through the real @google/genai
 * client. Demo mode therefore runs every part of the real model path, and
 * nobody needs a key.
 */
export const demoProvider: ModelProvider<z.ZodObject<{ model: z.ZodDefault<z.ZodString> }>> = {
  name: "demo",
  title: "Demo model",
  selectable: false,
  defaultModel: DEMO_MODEL,
  optionsFrom: ({ model }) => ({ options: { model } }),
  description: "A deterministic, rule-based stand-in for a model, for demo mode. It needs no key and no network.",
  options: z.object({ model: z.string().default(DEMO_MODEL) }),
  async create(_options, deps) {
    // The fake server loads with the demo model only: a process that runs a real model never holds it.
    const { startFakeGemini } = await loadFakeGemini();
    const server = await startFakeGemini({ apiKey: DEMO_KEY, models: [DEMO_MODEL], responder: (body) => demoPlan(body) });
    const client = await createGeminiClient(GeminiOptionsSchema.parse({ apiKey: DEMO_KEY, baseUrl: server.url, model: DEMO_MODEL, label: DEMO_LABEL, providerName: "demo", contextWindow: 1_048_576, maxOutputTokens: 8_192 }), deps);
    return Object.assign(client, { close: () => server.close() });
  },
};
