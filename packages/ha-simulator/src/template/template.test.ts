import { describe, expect, it } from "vitest";
import type { HassState } from "../common/index.js";
import { renderTemplate, TemplateError } from "./index.js";

const states: Record<string, Partial<HassState>> = {
  "sensor.t": { state: "21.5", attributes: { unit_of_measurement: "°C" } },
  "light.k": { state: "on", attributes: { brightness: 128 } },
  "sensor.gone": { state: "unavailable", attributes: {} },
};
const lookup = (id: string) => states[id] as HassState | undefined;
const r = (t: string, vars?: Record<string, unknown>) => renderTemplate(t, lookup, vars).result;

describe("renderTemplate", () => {
  it("reads states and attributes and tracks the entities it read", () => {
    expect(renderTemplate("{{ states('sensor.t') }}", lookup)).toMatchObject({ result: 21.5, entities: ["sensor.t"], all: false, time: false });
    expect(r("{{ state_attr('light.k', 'brightness') / 255 * 100 | round(0) }}")).toBeCloseTo(50.2, 0);
    expect(r("{{ is_state('light.k', 'on') and not is_state('sensor.t', 'on') }}")).toBe(true);
    expect(r("{{ is_state_attr('light.k', 'brightness', 128) }}")).toBe(true);
    expect(r("{{ has_value('sensor.gone') }}")).toBe(false);
    expect(r("{{ states.light.k.state }}")).toBe("on");
    expect(r("{{ states('sensor.none') }}")).toBe("unknown");
  });

  it("does arithmetic, comparisons, filters, variables and text", () => {
    expect(r("{{ (states('sensor.t') | float - 1.5) * 2 }}")).toBe(40);
    expect(r("{{ states('sensor.t') | float > 20 }}")).toBe(true);
    expect(r("{{ 'x' | upper }}")).toBe("X");
    expect(r("{{ states('sensor.gone') | float(0) }}")).toBe(0);
    expect(r("{{ who }} is home", { who: "Alex" })).toBe("Alex is home");
    expect(r("Plain text")).toBe("Plain text");
    expect(r("It is {{ states('sensor.t') }} °C")).toBe("It is 21.5 °C");
  });

  it("explains what it cannot render", () => {
    expect(() => r("{% macro x() %}{% endmacro %}")).toThrow(/unknown tag 'macro'/);
    expect(() => r("{{ states('sensor.gone') | float }}")).toThrow(/float got invalid input 'unavailable'/);
    expect(() => renderTemplate("{{ nope }}", lookup, {}, { strict: true })).toThrow(TemplateError);
    expect(() => renderTemplate("{{ constructor }}", lookup, {}, { strict: true })).toThrow(/'constructor' is undefined/);
    expect(r("{{ state_attr('light.k', 'toString') }}")).toBe(null);
    expect(() => r("{{ 1 / 0 }}")).toThrow(/division by zero/);
    expect(() => r("{{ 1 + }}")).toThrow(/unexpected end/);
  });
});
