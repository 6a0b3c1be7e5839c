import { silentLogger, systemClock } from "../../../src/shared/index.js";
import { streamFixture, type FakeOpenAiServer } from "@ha-agent/model-fakes";
import type { GenerateRequest, ModelProviderDeps, ToolDeclaration } from "../../../src/models/types.js";
import { OpenAiClient } from "../../../src/models/openai/client.js";
import { OpenAiOptionsSchema, type OpenAiOptionsInput } from "../../../src/models/openai/options.js";

/** A stream fixture's bytes (see packages/model-fakes/fixtures/openai/README.md). */
export const fixture = streamFixture;

/** A body that delivers `text` in the given byte pieces, as reads off a socket would. */
export function streamOf(pieces: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(typeof piece === "string" ? encoder.encode(piece) : piece);
      controller.close();
    },
  });
}

/** Sleeps that do not wait, and remember what they were asked. */
export function recordingSleep(): { sleep: (ms: number, signal?: AbortSignal) => Promise<void>; waits: number[] } {
  const waits: number[] = [];
  return {
    waits,
    sleep: async (ms) => {
      waits.push(ms);
    },
  };
}

/** The real client, configured for a fake server. */
export function clientFor(fake: FakeOpenAiServer, options: Partial<OpenAiOptionsInput> = {}, deps: Partial<ModelProviderDeps> = {}): OpenAiClient {
  const parsed = OpenAiOptionsSchema.parse({ baseUrl: fake.baseUrl, apiKey: fake.apiKey, model: fake.models[0], ...options });
  return new OpenAiClient(parsed, { clock: systemClock, logger: silentLogger, sleep: recordingSleep().sleep, random: () => 0.5, ...deps });
}

export const TOOLS: ToolDeclaration[] = [
  {
    name: "state_query",
    description: "Current states of entities.",
    parameters: { type: "object", properties: { entity_ids: { type: "array", items: { type: "string" } } }, required: ["entity_ids"] },
  },
  {
    name: "diagnose_entity",
    description: "Why an entity misbehaves.",
    parameters: { type: "object", properties: { entity_id: { type: "string" } }, required: ["entity_id"] },
  },
];

export function ask(text: string, extra: Partial<GenerateRequest> = {}): GenerateRequest {
  return { system: "You help with a Home Assistant home.", conversation: [{ type: "user", text }], tools: TOOLS, ...extra };
}
