import { afterEach, describe, expect, it } from "vitest";
import { alice, runCleanups, stack } from "../support/agent-stack.js";
import { scriptedModel } from "../support/scripted-model.js";

afterEach(runCleanups);

/** The index matches a turn was primed with, as the model saw them. */
function primed(model: ReturnType<typeof scriptedModel>): string[] {
  const text = JSON.stringify(model.requests[0]!);
  const start = text.indexOf("Index matches for the next message");
  expect(start, "the turn was primed with index matches").toBeGreaterThanOrEqual(0);
  return [...text.slice(start).matchAll(/- ([a-z_]+\.[a-z0-9_]+) \(/g)].map((m) => m[1]!);
}

describe("a turn's priming", () => {
  it("prefers the area a pin says the person is in, when the message names none", async () => {
    const s = await stack();
    const model = scriptedModel([{ text: "ok" }]);
    const runtime = s.runtime(model);
    const session = await s.store.sessions.create({ owner: alice.id, pins: ["I am in the kitchen."] });
    await runtime.wait(alice, (await runtime.send(alice, { sessionId: session.id, message: "turn off the light" })).continuation.id, 5_000);
    // The kitchen's light that is on comes first: that is the one to turn off.
    expect(primed(model)[0]).toBe("light.kitchen_worktop_lights");
  });

  it("goes without the preference when a pin names a place the home has no area for", async () => {
    const s = await stack();
    const model = scriptedModel([{ text: "ok" }]);
    const runtime = s.runtime(model);
    const session = await s.store.sessions.create({ owner: alice.id, pins: ["I am in the attic."] });
    await runtime.wait(alice, (await runtime.send(alice, { sessionId: session.id, message: "pause the music" })).continuation.id, 5_000);
    expect(primed(model)[0]).toMatch(/^media_player\./);
  });
});
