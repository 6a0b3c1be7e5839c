import { afterEach, describe, expect, it } from "vitest";
import { createHomeIndex } from "../../indexer/index.js";
import { createFakeHa } from "../../../test/support/indexer/fake-ha.js";
import { smallHome } from "../../../test/support/indexer/small-home.js";
import { manualClock, silentLogger } from "../../shared/index.js";
import { ToolRegistry } from "../registry.js";
import type { ToolCallContext } from "../tool.js";
import { createAssistTools } from "../assist/index.js";
import { createIndexSearchTool } from "./index-search.js";

const ctx: ToolCallContext = { principal: { id: "u1", name: "Test", kind: "user", isAdmin: true }, signal: new AbortController().signal, progress: async () => undefined };
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const s of stops.splice(0)) await s();
});

async function setup(): Promise<ToolRegistry> {
  const { registries, states } = smallHome({
    areas: [
      ["living_room", "Living Room"],
      ["kitchen", "Kitchen"],
    ],
    entities: [
      { id: "media_player.living_room", name: "Living Room Speaker", area: "living_room", state: "playing", attrs: { device_class: "speaker" } },
      { id: "media_player.kitchen", name: "Kitchen Speaker", area: "kitchen", state: "idle", attrs: { device_class: "speaker" } },
      { id: "light.living_room", name: "Ceiling", area: "living_room", state: "on" },
      { id: "light.kitchen", name: "Pendant", area: "kitchen", state: "on" },
      { id: "binary_sensor.living_room_window", name: "Living Room Window", area: "living_room", state: "off", attrs: { device_class: "window" } },
      { id: "binary_sensor.kitchen_window", name: "Kitchen Window", area: "kitchen", state: "off", attrs: { device_class: "window" } },
      { id: "binary_sensor.back_door", name: "Back Door", area: "kitchen", state: "off", attrs: { device_class: "door" } },
    ],
  });
  const ha = createFakeHa(registries);
  const index = createHomeIndex({ ha, logger: silentLogger, clock: manualClock(0) });
  stops.push(() => index.stop());
  const registry = new ToolRegistry();
  const tool = createIndexSearchTool({ index, ha });
  registry.register(tool);
  const starting = index.start();
  await new Promise((r) => setImmediate(r));
  ha.pushEntities({ a: states }, true);
  await starting;
  return registry;
}

async function search(registry: ToolRegistry, args: Record<string, unknown>) {
  const out = await registry.call("index_search", args, ctx);
  if (!out.ok) throw new Error(`${out.error.code}: ${out.error.message}`);
  // What the tool answers must pass its own output schema, as MCP clients check it.
  registry.get("index_search")!.output.parse(out.value);
  return out.value as { note?: string; results: { entity_id: string; why: string }[] };
}

describe("index_search", () => {
  it("prefers the area given as near_area, and says so in why", async () => {
    const registry = await setup();
    const out = await search(registry, { query: "turn off the light", near_area: "Kitchen" });
    expect(out.results[0]!.entity_id).toBe("light.kitchen");
    expect(out.results[0]!.why).toContain('in "Kitchen", where the request was made');
  });

  it("notes when nothing names a device, listing the kind the request points at, playing first for pause", async () => {
    const registry = await setup();
    const out = await search(registry, { query: "pause" });
    expect(out.results.map((r) => r.entity_id).slice(0, 2)).toEqual(["media_player.living_room", "media_player.kitchen"]);
    expect(out.note).toMatch(/^No device is named: these are the media players/);
  });

  it("says plainly when several entities fit a singular reference equally", async () => {
    const registry = await setup();
    const out = await search(registry, { query: "turn off the light" });
    expect(out.note).toMatch(/Ambiguous: 2 fit equally well \(Pendant \(Kitchen\), Ceiling \(Living Room\)\); ask which one is meant/);
  });

  it("presents the set, with no ambiguity, when the question is about any, all, which or a plural", async () => {
    const registry = await setup();
    for (const query of ["is any window open?", "which windows are open?", "are all windows closed?", "how many windows are open?"]) {
      const out = await search(registry, { query });
      expect(out.note, query).toBe("2 windows match; the question is about all of them.");
      expect(out.results.slice(0, 2).map((r) => r.entity_id).sort(), query).toEqual(["binary_sensor.kitchen_window", "binary_sensor.living_room_window"]);
    }
    const lights = (await search(registry, { query: "turn off the lights" })).note;
    expect(lights).toMatch(/ 2 lights match; the request is about all of them\.$/);
    expect(lights).not.toContain("Ambiguous");
  });

  it("answers the same through the Assist tool set, which shares the search", async () => {
    const assist = new ToolRegistry();
    for (const tool of createAssistTools(await setup())) assist.register(tool);
    const out = await assist.call("index_search", { query: "Is any window open?" }, ctx);
    expect(out).toMatchObject({ ok: true, value: { note: "2 windows match; the question is about all of them." } });
  });

  it("gives no note when a device is named plainly", async () => {
    const registry = await setup();
    const out = await search(registry, { query: "kitchen speaker" });
    expect(out.results[0]!.entity_id).toBe("media_player.kitchen");
    expect(out.note).toBeUndefined();
  });

  it("leaves out a near_area that names no area, and says so", async () => {
    const registry = await setup();
    const out = await search(registry, { query: "kitchen speaker", near_area: "attic" });
    expect(out.results[0]!.entity_id).toBe("media_player.kitchen");
    expect(out.note).toBe('near_area "attic" names no area of this home, so it was not used.');
  });

  it("still refuses an area filter that names no area", async () => {
    const registry = await setup();
    const out = await registry.call("index_search", { query: "light", area: "attic", near_area: "kitchen" }, ctx);
    expect(out).toMatchObject({ ok: false, error: { code: "unknown_area" } });
  });
});
