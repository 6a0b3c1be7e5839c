import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HouseSchema, startSimulator, type HouseInput, type Simulator } from "@ha-agent/ha-simulator";
import { callTool } from "../support/mcp.js";
import { startStack, type Stack } from "../support/stack.js";

/** Every name a plain object inherits, plus `__proto__`: words a lookup in `{}` must not mistake for data. */
const NAMES = [...new Set([...Object.getOwnPropertyNames(Object.prototype), "__proto__"])];

/** `__defineGetter__` → `definegetter`: HA's entity ids allow no leading, trailing or doubled underscores. */
const objectId = (name: string) => name.toLowerCase().replace(/^_+|_+$/g, "").replace(/_+/g, "_");

/**
 * A home whose areas, floor, labels, devices, config entries, platforms,
 * entity ids, names, aliases and attribute keys are those names. Computed keys
 * make `__proto__` an own property, as JSON.parse would.
 */
function hostileHouse(): HouseInput {
  return {
    floors: [{ floor_id: "__proto__", name: "__proto__", aliases: ["constructor"] }],
    areas: NAMES.map((n) => ({ area_id: n, name: n, floor_id: "__proto__", aliases: [n], labels: [n] })),
    labels: NAMES.map((n) => ({ label_id: n, name: n })),
    config_entries: NAMES.map((n) => ({ entry_id: n, domain: "constructor", title: n })),
    devices: NAMES.map((n) => ({ id: n, name: n, manufacturer: n, model: n, area_id: n, config_entries: [n], labels: [n] })),
    entities: [
      ...NAMES.map((n) => ({
        entity_id: `switch.${objectId(n)}`,
        state: "on",
        attributes: { friendly_name: n, [n]: n, device_class: n },
        registry: { platform: "constructor", device_id: n, area_id: n, config_entry_id: n, labels: [n], aliases: [n], original_device_class: n },
      })),
      { entity_id: "sensor.constructor", state: "12", attributes: { unit_of_measurement: "toString", state_class: "measurement", friendly_name: "constructor" } },
      { entity_id: "light.kitchen", state: "off", attributes: { friendly_name: "Kitchen" } },
    ],
  };
}

/** The string-valued places of a JSON Schema object, as paths with whether each is a list of strings. */
function stringFields(schema: Record<string, unknown>, path: string[] = []): { path: string[]; list: boolean }[] {
  const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  return Object.entries(props).flatMap(([key, prop]) => {
    const at = [...path, key];
    if (prop.type === "string") return [{ path: at, list: false }];
    if (prop.type === "array" && (prop.items as { type?: string } | undefined)?.type === "string") return [{ path: at, list: true }];
    if (prop.type === "object") return stringFields(prop, at);
    return [];
  });
}

function withValue(args: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
  const [head, ...rest] = path as [string, ...string[]];
  const copy = { ...args };
  // defineProperty, so a field named like a prototype member is still a plain own field.
  Object.defineProperty(copy, head, {
    value: rest.length === 0 ? value : withValue((args[head] as Record<string, unknown>) ?? {}, rest, value),
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return copy;
}

describe("names of Object.prototype members, as user input and as Home Assistant data", () => {
  let sim: Simulator;
  let stack: Stack;
  beforeAll(async () => {
    sim = await startSimulator({ house: HouseSchema.parse(hostileHouse()) });
    stack = await startStack({ sim });
    await stack.client.listTools();
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
    await sim?.close();
  });

  it("every tool answers every such name in every string field without an internal failure", async () => {
    const { tools } = await stack.client.listTools();
    expect(tools.length).toBeGreaterThan(5);
    const internal: string[] = [];
    let calls = 0;
    for (const tool of tools) {
      const schema = tool.inputSchema as Record<string, unknown>;
      const required = ((schema.required ?? []) as string[]).filter((k) => (schema.properties as Record<string, { type?: string }>)[k]?.type === "string");
      for (const field of stringFields(schema)) {
        for (const name of NAMES) {
          let args: Record<string, unknown> = {};
          for (const r of required) args = withValue(args, [r], name);
          args = withValue(args, field.path, field.list ? [name] : name);
          const reply = await callTool(stack.client, tool.name, args);
          calls++;
          if (reply.isError && reply.text.endsWith("(internal)")) internal.push(`${tool.name} ${field.path.join(".")}=${name}: ${reply.text}`);
        }
      }
    }
    expect(calls).toBeGreaterThan(100);
    expect(internal).toEqual([]);
  }, 120_000);

  it("finds, diagnoses and renders entities, areas and devices named like prototype members", async () => {
    const search = await callTool(stack.client, "ha_agent_index_search", { query: "constructor" });
    expect(search.isError, search.text).toBe(false);
    expect((search.value.results as { entity_id: string }[]).map((r) => r.entity_id)).toContain("switch.constructor");

    const diagnosis = await callTool(stack.client, "ha_agent_diagnose_entity", { entity_id: "switch.constructor" });
    expect(diagnosis.isError, diagnosis.text).toBe(false);
    expect(diagnosis.value).toMatchObject({ entity_id: "switch.constructor", area: "constructor", device: { device_id: "constructor" } });

    const attributes = await callTool(stack.client, "ha_agent_state_query", { entity_ids: ["switch.constructor", "light.kitchen"], attributes: NAMES });
    expect(attributes.isError, attributes.text).toBe(false);
    const byId = Object.fromEntries((attributes.value.entities as { entity_id: string; attributes: unknown }[]).map((e) => [e.entity_id, e.attributes]));
    // Only attributes the entity really has; zod drops an own "__proto__" key from any object it parses.
    expect(byId).toEqual({ "switch.constructor": { constructor: "constructor" }, "light.kitchen": {} });

    for (const name of NAMES) {
      const rendered = await callTool(stack.client, "ha_agent_render_context", { area: name });
      expect(rendered.isError, `${name}: ${rendered.text}`).toBe(false);
      expect(rendered.value.text).toContain(`switch.${objectId(name)}`);
      const listed = await callTool(stack.client, "ha_agent_state_query", { label: name });
      expect(listed.isError, `${name}: ${listed.text}`).toBe(false);
      expect((listed.value.entities as { entity_id: string }[]).map((e) => e.entity_id)).toEqual([`switch.${objectId(name)}`]);
    }
  });
});
