import { describe, expect, it } from "vitest";
import { decideActuation } from "./actuation-policy.js";

describe("decideActuation", () => {
  it("refuses everything while the add-on option is off, naming the option", () => {
    const d = decideActuation({ domain: "light", service: "turn_on", ceiling: { allow: false, allowlist: [] }, session: { allowActuation: true, allowlistedServices: [] } });
    expect(d).toMatchObject({ allowed: false, code: "actuation_disabled" });
    expect(!d.allowed && d.code !== "ask" && d.message).toContain("allow_actuation");
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

  it("under approval ask: waits for a person inside the ceiling, never outside it", () => {
    const ceiling = { allow: true, allowlist: ["light.*", "lock.*"], approvalRequired: ["lock.*"] };
    const asks = { allowActuation: false, allowlistedServices: [], approval: "ask" as const };
    expect(decideActuation({ domain: "light", service: "turn_on", ceiling, session: asks })).toEqual({ allowed: false, code: "ask", why: "not_preapproved" });
    // Outside the add-on's allowlist: refused, and no one is asked.
    expect(decideActuation({ domain: "switch", service: "turn_on", ceiling, session: asks })).toMatchObject({ allowed: false, code: "service_not_allowed" });
    expect(decideActuation({ domain: "light", service: "turn_on", ceiling: { ...ceiling, allow: false }, session: asks })).toMatchObject({ code: "actuation_disabled" });
    // Pre-approved by the session: runs without asking.
    expect(decideActuation({ domain: "light", service: "turn_on", ceiling, session: { ...asks, allowActuation: true, allowlistedServices: ["light.*"] } })).toEqual({ allowed: true });
  });

  it("always asks for approval_required services, even pre-approved, and refuses them where no one is asked", () => {
    const ceiling = { allow: true, allowlist: [], approvalRequired: ["lock.*", "alarm_control_panel.*"] };
    const preapproved = { allowActuation: true, allowlistedServices: ["lock.*"] };
    expect(decideActuation({ domain: "lock", service: "unlock", ceiling, session: { ...preapproved, approval: "ask" } })).toEqual({ allowed: false, code: "ask", why: "approval_required" });
    const refused = decideActuation({ domain: "lock", service: "unlock", ceiling, session: preapproved });
    expect(refused).toMatchObject({ allowed: false, code: "approval_required" });
    expect(!refused.allowed && refused.code !== "ask" && refused.message).toContain('policy.approval "ask"');
    // A client calling call_service directly has no session to wait in.
    expect(decideActuation({ domain: "alarm_control_panel", service: "alarm_disarm", ceiling })).toMatchObject({ allowed: false, code: "approval_required" });
    expect(decideActuation({ domain: "light", service: "turn_on", ceiling })).toEqual({ allowed: true });
  });
});
