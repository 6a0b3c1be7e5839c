import { describe, expect, it } from "vitest";
import { openConsent, sealConsent, type ConsentRequest } from "./consent-request.js";

const key = new Uint8Array(32).fill(7);
const request: ConsentRequest = {
  clientId: "hac_x",
  clientName: "Client",
  redirectUri: "http://127.0.0.1:9/cb",
  state: "s",
  codeChallenge: "c".repeat(43),
  resource: "http://a:8808/mcp",
  scope: "mcp",
  origin: "http://a:8808",
  nonce: "n",
  expiresAt: 2_000,
};

describe("the sealed consent request", () => {
  it("opens to exactly what was sealed", () => {
    expect(openConsent(sealConsent(request, key), key, 1_000)).toEqual(request);
  });

  it("refuses an altered request, another key's seal, and an expired page", () => {
    const sealed = sealConsent(request, key);
    const [payload, sig] = sealed.split(".");
    const altered = Buffer.from(JSON.stringify({ ...request, redirectUri: "https://evil.example/cb" })).toString("base64url");
    expect(openConsent(`${altered}.${sig}`, key, 1_000)).toBeUndefined();
    expect(openConsent(`${payload}.${sig}x`, key, 1_000)).toBeUndefined();
    expect(openConsent(sealed, new Uint8Array(32).fill(8), 1_000)).toBeUndefined();
    expect(openConsent(sealed, key, 2_000)).toBeUndefined();
    expect(openConsent("garbage", key, 1_000)).toBeUndefined();
  });
});
