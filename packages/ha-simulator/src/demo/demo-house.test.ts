import { describe, expect, it } from "vitest";
import { demoHouse } from "./index.js";

const house = demoHouse({ nowMs: Date.UTC(2026, 10, 21, 12) });
const ids = new Set(house.entities.map((e) => e.entity_id));
const domainOf = (id: string) => id.slice(0, id.indexOf("."));

describe("the demo house", () => {
  it("is big and varied enough to feel like a real home", () => {
    expect(house.entities.length).toBeGreaterThanOrEqual(300);
    expect(new Set(house.entities.map((e) => domainOf(e.entity_id))).size).toBeGreaterThanOrEqual(15);
    expect(house.areas.length).toBeGreaterThanOrEqual(12);
    expect(house.devices.length).toBeGreaterThanOrEqual(50);
    expect(new Set(house.devices.map((d) => d.manufacturer)).size).toBeGreaterThanOrEqual(15);
    expect(house.labels.map((l) => l.label_id)).toEqual(expect.arrayContaining(["security", "energy"]));
    expect(house.floors.find((f) => f.floor_id === "first_floor")?.aliases).toContain("upstairs");
    expect(house.areas.find((a) => a.area_id === "living_room")?.aliases).toContain("lounge");
    expect(house.areas.filter((a) => a.aliases.length > 0).length).toBeGreaterThanOrEqual(6);
  });

  it("has a kitchen with lights, temperature and humidity sensors and switches", () => {
    const kitchenDevices = new Set(house.devices.filter((d) => d.area_id === "kitchen").map((d) => d.id));
    const inKitchen = house.entities.filter((e) => e.registry?.device_id && kitchenDevices.has(e.registry.device_id));
    const has = (domain: string, deviceClass?: string) =>
      inKitchen.some((e) => domainOf(e.entity_id) === domain && (!deviceClass || e.attributes.device_class === deviceClass));
    expect(has("light") && has("switch") && has("sensor", "temperature") && has("sensor", "humidity")).toBe(true);
    expect(house.areas.find((a) => a.area_id === "kitchen")?.temperature_entity_id).toBe("sensor.kitchen_temperature");
  });

  it("has disabled, hidden, diagnostic and config entities, and has_entity_name devices", () => {
    const reg = house.entities.flatMap((e) => (e.registry ? [e.registry] : []));
    expect(reg.some((r) => r.disabled_by)).toBe(true);
    expect(reg.some((r) => r.hidden_by)).toBe(true);
    expect(reg.some((r) => r.entity_category === "diagnostic")).toBe(true);
    expect(reg.some((r) => r.entity_category === "config")).toBe(true);
    expect(reg.filter((r) => r.has_entity_name).length).toBeGreaterThan(200);
    expect(house.entities.some((e) => !e.registry)).toBe(true);
  });

  it("ties the flapping entity to a zha device and to matching system log errors", () => {
    const flapping = house.history!.flapping[0]!;
    const entity = house.entities.find((e) => e.entity_id === flapping)!;
    expect(entity.registry?.platform).toBe("zha");
    const zha = house.system_log!.filter((e) => e.name.includes("zha"));
    expect(zha.some((e) => e.message.join(" ").includes(flapping))).toBe(true);
    expect(zha.some((e) => e.level === "ERROR" && e.message.join(" ").includes("Garden Fountain Pump"))).toBe(true);
    expect(house.system_log!.every((e) => e.first_occurred <= e.timestamp && e.count >= 1)).toBe(true);
    expect(ids.has(house.history!.outages[0]!.entity_id)).toBe(true);
  });

  it("only refers to entities that exist from scenes, scripts and areas", () => {
    for (const e of house.entities) {
      for (const member of Object.keys(e.scene ?? {})) expect(ids, `${e.entity_id} → ${member}`).toContain(member);
      for (const step of e.sequence ?? []) {
        for (const id of [step.target?.entity_id ?? []].flat()) if (id !== "all") expect(ids, `${e.entity_id} → ${id}`).toContain(id);
      }
    }
    for (const a of house.areas) for (const id of [a.temperature_entity_id, a.humidity_entity_id]) if (id) expect(ids).toContain(id);
  });

  it("has automations whose configs, runs and energy meters only name entities it has", () => {
    const referenced = (v: unknown): string[] =>
      typeof v === "string" ? (/^[a-z_]+\.[a-z0-9_]+$/.test(v) ? [v] : []) : Array.isArray(v) ? v.flatMap(referenced) : typeof v === "object" && v !== null ? Object.entries(v).flatMap(([k, x]) => (k === "action" || k === "id" ? [] : referenced(x))) : [];
    for (const config of house.automations) for (const id of referenced(config)) expect(ids, `${String(config.alias)} → ${id}`).toContain(id);
    const configIds = new Set(house.automations.map((a) => a.id ?? a.alias));
    for (const run of house.automation_runs) expect(configIds).toContain(run.automation);
    expect(house.automations.filter((a) => a.id === undefined)).toHaveLength(1);
    for (const m of house.energy!.meters) expect(ids, m.statistic_id).toContain(m.statistic_id);
    const prefs = house.energy!.prefs as { energy_sources: Record<string, unknown>[] };
    const metered = new Set(house.energy!.meters.map((m) => m.statistic_id));
    for (const s of prefs.energy_sources) for (const k of ["stat_energy_from", "stat_energy_to"]) if (typeof s[k] === "string") expect(metered).toContain(s[k]);
  });

  it("is a fresh copy each call", () => {
    const a = demoHouse();
    a.entities[0]!.state = "changed";
    expect(demoHouse().entities[0]!.state).not.toBe("changed");
  });
});
