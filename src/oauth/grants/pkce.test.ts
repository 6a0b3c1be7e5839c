import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { verifyPkceS256 } from "./pkce.js";

// RFC 7636 appendix B.
const VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
const CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

describe("PKCE S256", () => {
  it("accepts the RFC 7636 example pair", () => {
    expect(verifyPkceS256(VERIFIER, CHALLENGE)).toBe(true);
  });

  it("refuses a verifier that does not hash to the challenge", () => {
    expect(verifyPkceS256(`${VERIFIER.slice(0, -1)}l`, CHALLENGE)).toBe(false);
    expect(verifyPkceS256(VERIFIER, `${CHALLENGE.slice(0, -1)}N`)).toBe(false);
    expect(verifyPkceS256(VERIFIER, CHALLENGE.slice(1))).toBe(false);
    expect(verifyPkceS256(VERIFIER, "")).toBe(false);
  });

  it("refuses verifiers outside 43 to 128 unreserved characters, even when they hash right", () => {
    // The challenge a client would send for v, so only the verifier rule can refuse it.
    const hashOf = (v: string) => createHash("sha256").update(v).digest("base64url");
    for (const verifier of ["a".repeat(42), "a".repeat(129), `${"a".repeat(42)}+`, `${"a".repeat(42)} `, `${"a".repeat(42)}é`]) {
      expect(verifyPkceS256(verifier, hashOf(verifier))).toBe(false);
    }
    for (const verifier of ["a".repeat(43), "A-._~".repeat(25) + "0aZ"]) {
      expect(verifyPkceS256(verifier, hashOf(verifier))).toBe(true);
    }
  });
});
