import { describe, expect, it } from "vitest";
import { decideActuation } from "./actuation-policy.js";

describe("decideActuation", () => {
  it("refuses everything while the add-on option is off, naming the option", () => {
    const d = decideActuation({ domain: "light", service: "turn_on", ceiling: { allow: false, allowlist: [] }, session: { allowActuation: true, allowlistedServices: [] } });
    expect(d).toMatchObject({ allowed: false, code: "actuation_disabled" });
    expect(!d.allowed && d.message).toContain("allow_actuation");
  });

  it("applies the add-on allowlist with wildcards", () => {
    const ceiling = { allow: true, allowlist: ["light.*", "switch.turn_off"] };
    expect(decideActuation({ domain: "light", service: "turn_on", ceiling }).allowed).toBe(true);
    expect(decideActuation({ domain: "switch", service: "turn_off", ceiling }).allowed).toBe(true);
    expect(decideActuation({ domain: "switch", service: "turn_on", ceiling })).toMatchObject({ allowed: false, code: "service_not_allowed" });
    expect(decideActuation({ domain: "lock", service: "unlock", ceiling: { allow: true, allowlist: ["*.turn_off"] } }).allowed).toBe(false);
  });

  it("lets a session narrow the ceiling but never widen it", () => {
    const ceiling = { allow: true, allowlist: ["light.*"] };
    expect(decideActuation({ domain: "light", service: "turn_on", ceiling, session: { allowActuation: false, allowlistedServices: [] } }).allowed).toBe(false);
    expect(decideActuation({ domain: "light", service: "turn_on", ceiling, session: { allowActuation: true, allowlistedServices: ["light.turn_off"] } }).allowed).toBe(false);
    expect(decideActuation({ domain: "switch", service: "turn_on", ceiling, session: { allowActuation: true, allowlistedServices: ["switch.*"] } }).allowed).toBe(false);
    expect(decideActuation({ domain: "light", service: "turn_off", ceiling, session: { allowActuation: true, allowlistedServices: ["light.turn_off"] } }).allowed).toBe(true);
  });
});
