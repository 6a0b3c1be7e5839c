import { describe, expect, it } from "vitest";
import type { HassState } from "../common/index.js";
import { renderTemplate, TemplateTimeout } from "./index.js";

const state = (entity_id: string, s: string, attributes: Record<string, unknown> = {}): HassState => ({
  entity_id, state: s, attributes, last_changed: "2026-11-21T10:00:00+00:00", last_updated: "2026-11-21T10:00:00+00:00", last_reported: "2026-11-21T10:00:00+00:00",
  context: { id: "c", parent_id: null, user_id: null },
});
const all = [
  state("light.kitchen", "on", { friendly_name: "Kitchen", brightness: 200 }),
  state("light.hall", "off", { friendly_name: "Hall" }),
  state("light.porch", "on", { friendly_name: "Porch" }),
  state("sensor.power", "1250", { unit_of_measurement: "W" }),
];
const lookup = (id: string) => all.find((s) => s.entity_id === id);
// 2026-11-21 14:05:30 in Amsterdam (UTC+1).
const NOW = Date.UTC(2026, 10, 21, 13, 5, 30);
const render = (t: string, vars: Record<string, unknown> = {}) => renderTemplate(t, lookup, vars, { nowMs: NOW, timeZone: "Europe/Amsterdam", allStates: () => all });
const r = (t: string, vars: Record<string, unknown> = {}) => render(t, vars).result;

describe("templates as HA renders them", () => {
  it("runs if/elif/else, for loops with filters and loop variables, set and namespaces", () => {
    expect(r("{% if states('sensor.power') | float > 1000 %}high{% elif true %}low{% endif %}")).toBe("high");
    expect(r("{% for s in states.light if s.state == 'on' %}{{ s.name }}{% if not loop.last %}, {% endif %}{% endfor %}")).toBe("Kitchen, Porch");
    expect(r("{% set ns = namespace(n=0) %}{% for s in states.light %}{% set ns.n = ns.n + 1 %}{% endfor %}{{ ns.n }}")).toBe(3);
    expect(r("{{ 'a' if false else 'b' }}")).toBe("b");
    expect(r("{%- if true -%}  x  {%- endif -%}")).toBe("x");
  });

  it("counts and lists states the way dashboards do, and reports which domains it read", () => {
    const out = render("{{ states.light | selectattr('state', 'eq', 'on') | list | count }}");
    expect(out.result).toBe(2);
    expect(out.domains).toEqual(["light"]);
    expect(r("{{ states.light | map(attribute='entity_id') | join(', ') }}")).toBe("light.hall, light.kitchen, light.porch");
    expect(r("{{ expand('light.kitchen', 'light.hall') | map(attribute='name') | list }}")).toEqual(["Hall", "Kitchen"]);
  });

  it("knows the time in HA's time zone and says it reads the clock", () => {
    const out = render("{{ now().hour }}:{{ now().minute }}");
    expect(out.result).toBe("14:5");
    expect(out.time).toBe(true);
    expect(r("{{ now().isoformat() }}")).toBe("2026-11-21T14:05:30+01:00");
    expect(r("{{ as_timestamp('2026-11-21T13:05:30+00:00') }}")).toBe(NOW / 1000);
    expect(r("{{ (now() - today_at('14:00')).total_seconds() }}")).toBe(330);
    expect(r("{{ now().strftime('%A %d %B') }}")).toBe("Saturday 21 November");
  });

  it("keeps Python's number types: a float prints with .0, ints stay ints", () => {
    expect(r("{{ 4 / 2 }} kW")).toBe("2.0 kW");
    expect(r("{{ 7 // 2 }}")).toBe(3);
    expect(r("{{ states('sensor.power') | int + 1 }}")).toBe(1251);
    expect(r("{{ (states('sensor.power') | float / 1000) | round(1) }} kW")).toBe("1.3 kW");
  });

  it("reads its output as a Python literal like HA: lists, None and True, but '007' stays text", () => {
    expect(r("{{ [1, 2] }}")).toEqual([1, 2]);
    expect(r("{{ none }}")).toBe(null);
    expect(r("{{ 1 == 1 }}")).toBe(true);
    expect(r("007")).toBe("007");
    expect(r("  padded  ")).toBe("padded");
  });

  it("renders an undefined name as nothing with HA's warning, and fails in strict mode", () => {
    const warnings: string[] = [];
    const out = renderTemplate("x{{ missing }}y", lookup, {}, { onWarning: (w) => warnings.push(w) });
    expect(out.result).toBe("xy");
    expect(warnings).toEqual(["Template variable warning: 'missing' is undefined when rendering 'x{{ missing }}y'"]);
    expect(() => renderTemplate("{{ missing }}", lookup, {}, { strict: true })).toThrow("UndefinedError: 'missing' is undefined");
    expect(r("{{ missing | default('fallback') }}")).toBe("fallback");
  });

  it("gives up on a rendering that takes longer than its timeout", () => {
    expect(() => renderTemplate("{% for i in range(100000) %}{% for j in range(50) %}{{ i }}{% endfor %}{% endfor %}", lookup, {}, { timeoutMs: 5 })).toThrow(TemplateTimeout);
  });
});
