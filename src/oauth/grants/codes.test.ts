import { describe, expect, it } from "vitest";
import { manualClock } from "../../shared/index.js";
import { OAuthError } from "../errors.js";
import { createCodes, type CodePayload } from "./codes.js";

const payload: CodePayload = {
  clientId: "client-1",
  clientName: "Claude",
  redirectUri: "http://127.0.0.1:33418/callback",
  codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
  resource: "http://ha.local:8099/mcp",
  scope: "mcp",
  principal: { id: "user-1", name: "Ada", isAdmin: false },
  haRefreshToken: "ha-secret",
  haClientId: "http://ha.local:8808/",
};

describe("authorization codes", () => {
  it("redeem a code once; a second redeem reports reuse with the grant the first produced", () => {
    const codes = createCodes({ clock: manualClock() });
    const code = codes.issue(payload);
    expect(codes.redeem(code)).toEqual({ ok: true, payload });
    expect(codes.redeem(code)).toEqual({ ok: false, reason: "reused" });
    codes.markRedeemed(code, "GRANT1");
    expect(codes.redeem(code)).toEqual({ ok: false, reason: "reused", grantId: "GRANT1" });
    expect(codes.redeem("hao_code_never-issued")).toEqual({ ok: false, reason: "unknown" });
  });

  it("expire after 60 seconds", () => {
    const clock = manualClock();
    const codes = createCodes({ clock });
    const late = codes.issue(payload);
    const inTime = codes.issue(payload);
    clock.advance(59_999);
    expect(codes.redeem(inTime).ok).toBe(true);
    clock.advance(1);
    expect(codes.redeem(late)).toEqual({ ok: false, reason: "expired" });
    expect(codes.size).toBe(0);
  });

  it("refuse new codes past the cap until expired ones are swept", () => {
    const clock = manualClock();
    const codes = createCodes({ clock, maxOutstanding: 3 });
    for (let i = 0; i < 3; i += 1) codes.issue(payload);
    expect(() => codes.issue(payload)).toThrow(OAuthError);
    try {
      codes.issue(payload);
    } catch (err) {
      expect(err).toMatchObject({ code: "temporarily_unavailable", status: 503 });
    }
    clock.advance(60_000);
    expect(() => codes.issue(payload)).not.toThrow();
    expect(codes.size).toBe(1);
  });

  it("count a redeemed code out of the cap", () => {
    const codes = createCodes({ clock: manualClock(), maxOutstanding: 1 });
    codes.redeem(codes.issue(payload));
    expect(() => codes.issue(payload)).not.toThrow();
  });
});
