import { describe, expect, it } from "vitest";
import { configYaml, normalizeConfig, readConfig, sameConfig } from "./normalize.js";

describe("a draft automation, as Home Assistant would take it", () => {
  it("renames the singular keys and platform to the plural keys and trigger, and says so", () => {
    const { normalized, notes, problems } = normalizeConfig({ mode: "single", action: [{ action: "light.turn_on" }], trigger: [{ platform: "sun", event: "sunset" }], alias: "A" });
    expect(normalized).toEqual({ alias: "A", triggers: [{ trigger: "sun", event: "sunset" }], actions: [{ action: "light.turn_on" }], mode: "single" });
    expect(Object.keys(normalized)).toEqual(["alias", "triggers", "actions", "mode"]);
    expect(notes).toHaveLength(3);
    expect(problems).toEqual([]);
  });

  it("refuses a key given in both forms, in cv.renamed's words", () => {
    const { problems } = normalizeConfig({ trigger: [], triggers: [], actions: [{ action: "x.y" }] });
    expect(problems).toEqual([{ path: "trigger", message: "Cannot specify both 'trigger' and 'triggers'. Please use 'triggers' only." }]);
  });

  it("reads YAML text or a list of one, and says why it cannot read the rest", () => {
    expect(readConfig("- alias: A\n  triggers: []\n")).toEqual({ ok: true, config: { alias: "A", triggers: [] } });
    expect(readConfig("alias: [")).toMatchObject({ ok: false, message: expect.stringContaining("could not be read") });
    expect(readConfig("- a: 1\n- b: 2\n")).toMatchObject({ ok: false, message: expect.stringContaining("one automation") });
  });

  it("writes YAML that Home Assistant reads back the same: on and off stay text", () => {
    expect(configYaml({ triggers: [{ trigger: "state", to: "on" }] })).toContain('to: "on"');
  });

  it("compares configs whatever the order of their keys", () => {
    expect(sameConfig({ a: 1, b: [{ c: 2, d: 3 }] }, { b: [{ d: 3, c: 2 }], a: 1 })).toBe(true);
    expect(sameConfig({ a: 1 }, { a: 1, b: 2 })).toBe(false);
  });
});
