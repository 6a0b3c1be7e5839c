import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HouseSchema, startSimulator, type Simulator } from "./index.js";
import { RawClient } from "../test/support/raw-client.js";

/** Every name a plain object inherits, plus `__proto__`. */
const NAMES = [...new Set([...Object.getOwnPropertyNames(Object.prototype), "__proto__"])];
const objectId = (name: string) => name.toLowerCase().replace(/^_+|_+$/g, "").replace(/_+/g, "_");
/** An object whose only own key is `name` (computed keys make even `__proto__` an own key, as JSON.parse does). */
const keyed = (name: string, value: unknown) => ({ [name]: value });

let sim: Simulator;
let c: RawClient;
let nextId = 1;

beforeAll(async () => {
  sim = await startSimulator({
    house: HouseSchema.parse({
      areas: NAMES.map((n) => ({ area_id: n, name: n })),
      devices: NAMES.map((n) => ({ id: n, name: n, area_id: n })),
      entities: [
        ...NAMES.map((n) => ({
          entity_id: `switch.${objectId(n)}`,
          state: "on",
          attributes: { friendly_name: n, ...keyed(n, n) },
          registry: { platform: "demo", device_id: n },
        })),
        { entity_id: "light.kitchen", state: "off", attributes: { friendly_name: "Kitchen" } },
        { entity_id: "sensor.odd_unit", state: "5", attributes: { unit_of_measurement: "constructor", state_class: "measurement" } },
        { entity_id: "script.constructor", state: "off", sequence: [{ action: "light.turn_on", target: { entity_id: "light.kitchen" } }] },
      ],
    }),
  });
  c = await RawClient.authed(sim.wsUrl, sim.users.tokenFor());
});

afterAll(async () => {
  c.close();
  await sim.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const cmd = (type: string, extra: Record<string, unknown> = {}): Promise<any> => c.command({ id: nextId++, type, ...extra });

describe("names of Object.prototype members sent to the simulator", () => {
  it("never make a WebSocket command fail with unknown_error", async () => {
    const day = { start_time: new Date(Date.now() - 86_400_000).toISOString() };
    const failures: string[] = [];
    for (const n of NAMES) {
      const replies: [string, Promise<{ success: boolean; error?: { code: string; message: string } }>][] = [
        ["call_service domain/service", cmd("call_service", { domain: n, service: n })],
        ["call_service light.<name>", cmd("call_service", { domain: "light", service: n, target: { entity_id: "light.kitchen" } })],
        ["call_service homeassistant.<name>", cmd("call_service", { domain: "homeassistant", service: n })],
        ["call_service script.<name>", cmd("call_service", { domain: "script", service: n })],
        ["call_service data", cmd("call_service", { domain: "light", service: "turn_on", target: { entity_id: "light.kitchen" }, service_data: keyed(n, 1) })],
        ["call_service target", cmd("call_service", { domain: "light", service: "turn_on", target: { area_id: n, device_id: n, label_id: n, floor_id: n } })],
        ["subscribe_events", cmd("subscribe_events", { event_type: n })],
        ["get_entries", cmd("config/entity_registry/get_entries", { entity_ids: [n, `switch.${objectId(n)}`] })],
        ["entity_registry/get", cmd("config/entity_registry/get", { entity_id: `switch.${objectId(n)}` })],
        ["config_entries/get", cmd("config_entries/get", { domain: n })],
        ["history", cmd("history/history_during_period", { ...day, entity_ids: [n, `switch.${objectId(n)}`] })],
        ["logbook", cmd("logbook/get_events", { ...day, entity_ids: [n], device_ids: [n] })],
        ["statistics", cmd("recorder/statistics_during_period", { ...day, period: "hour", statistic_ids: [n, "sensor.odd_unit"], units: keyed(n, n) })],
        ["render_template states", cmd("render_template", { template: `{{ states('${n}') }} {{ state_attr('switch.${objectId(n)}', '${n}') }}` })],
        ["subscribe_entities", cmd("subscribe_entities", { entity_ids: [`switch.${objectId(n)}`], include: { domains: [n], entity_globs: [n] } })],
      ];
      for (const [what, reply] of replies) {
        const r = await reply;
        if (!r.success && r.error?.code === "unknown_error") failures.push(`${what} with ${n}: ${r.error.message}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("keeps such names as ordinary keys of event data, template variables and results", async () => {
    for (const n of NAMES) {
      const sub = await cmd("subscribe_events", { event_type: "probe" });
      expect(sub.success).toBe(true);
      expect((await cmd("fire_event", { event_type: "probe", event_data: keyed(n, "v") })).success).toBe(true);
      const ev = await c.until((m) => m.type === "event" && m.id === sub.id);
      expect(Object.hasOwn(ev.event.data, n), n).toBe(true);
      await cmd("unsubscribe_events", { subscription: sub.id });

      const t = await cmd("render_template", { template: `{{ ${n} + 1 }}`, variables: keyed(n, 41) });
      expect(t.success, `${n}: ${JSON.stringify(t.error)}`).toBe(true);
      expect((await c.until((m) => m.type === "event" && m.id === t.id)).event.result, n).toBe(42);

      const entity = `switch.${objectId(n)}`;
      const states = (await cmd("get_states")).result as { entity_id: string; attributes: Record<string, unknown> }[];
      expect(Object.hasOwn(states.find((s) => s.entity_id === entity)!.attributes, n), `${entity} keeps its "${n}" attribute`).toBe(true);
    }
    const services = (await cmd("get_services")).result;
    expect(Object.keys(services.script)).toContain("constructor");
    expect(Object.keys(services.light)).not.toContain("constructor");
  });

  it("never make a REST route answer 500", async () => {
    const auth = { Authorization: `Bearer ${sim.users.tokenFor()}`, "Content-Type": "application/json" };
    const statuses: string[] = [];
    for (const n of NAMES) {
      const e = encodeURIComponent(n);
      const answers = [
        await fetch(`${sim.apiUrl}/states/${e}`, { headers: auth }),
        await fetch(`${sim.apiUrl}/services/${e}/${e}`, { method: "POST", headers: auth, body: "{}" }),
        await fetch(`${sim.apiUrl}/services/light/${e}`, { method: "POST", headers: auth, body: JSON.stringify({ entity_id: "light.kitchen" }) }),
        await fetch(`${sim.apiUrl}/template`, { method: "POST", headers: auth, body: JSON.stringify({ template: `{{ ${n} }}`, variables: keyed(n, 1) }) }),
      ];
      for (const a of answers) if (a.status >= 500) statuses.push(`${a.url} → ${a.status}`);
      expect(await answers[3]!.text(), n).toBe("1");
    }
    expect(statuses).toEqual([]);
  });
});
