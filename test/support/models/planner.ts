import type { JsonValue } from "../../../src/models/index.js";
import type { FakeChatRequest, FakeReply } from "@ha-agent/model-fakes";

type Json = { [key: string]: JsonValue };

/**
 * What the planner asks for first: every light and every sensor, as a model
 * looking around a home would; the two results make the prompt longer than
 * Ollama's default window of 4,096 tokens.
 */
export const LOOK_AROUND = [
  { name: "state_query", args: { domain: "light", limit: 200 } },
  { name: "state_query", args: { domain: "sensor", limit: 200 } },
];

/**
 * A fake model's mind for whole turns against the fake servers, reading
 * only what the model gets to see (`request.seen`), as a real model would:
 * without HA Agent's instructions or its tools, or without the question, it
 * cannot do its job and says so. Otherwise it asks for the home's lights,
 * then answers with the ids of the kitchen lights that are on. The same
 * mind reads OpenAI's messages and Ollama's own.
 */
export function lightsPlanner(request: FakeChatRequest): FakeReply {
  const { seen } = request;
  const question = seen.messages.filter((m) => m.role === "user").map((m) => String(m.content)).join("\n");
  if (!seen.system?.includes("You are HA Agent") || !seen.tools.includes("state_query") || !/kitchen/i.test(question)) {
    return { text: "I do not know what you are asking or which tools I have." };
  }
  const results = resultsAfterLastUser(seen.messages);
  if (results.length === 0) return { toolCalls: LOOK_AROUND };
  const entities = results.flatMap((r) => ((r as { entities?: { entity_id: string; state: string }[] }).entities ?? []));
  const on = entities.filter((e) => e.entity_id.startsWith("light.kitchen") && e.state === "on").map((e) => e.entity_id);
  return { text: `On in the kitchen: ${on.join(", ")}.` };
}

/** The tool results the model has been given since the user last spoke, parsed. */
function resultsAfterLastUser(messages: Json[]): unknown[] {
  const lastUser = messages.map((m) => m.role).lastIndexOf("user");
  return messages
    .slice(lastUser + 1)
    .filter((m) => m.role === "tool")
    .map((m) => {
      try {
        return JSON.parse(String(m.content)) as unknown;
      } catch {
        return {};
      }
    });
}
