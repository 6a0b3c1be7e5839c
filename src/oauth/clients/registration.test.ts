import { describe, expect, it } from "vitest";
import { manualClock } from "../../shared/index.js";
import { OAuthError } from "../errors.js";
import { createClientDirectory } from "./directory.js";
import { registerClient } from "./registration.js";

const key = new Uint8Array(32).fill(7);
const otherKey = new Uint8Array(32).fill(9);
const now = Date.UTC(2026, 10, 25, 12, 0, 0);

function refusal(body: unknown): OAuthError {
  try {
    registerClient({ body, key, now });
  } catch (err) {
    if (err instanceof OAuthError) return err;
    throw err;
  }
  throw new Error("the registration was accepted");
}

function refusedResolve(clientId: string, withKey = key): Promise<OAuthError> {
  const directory = createClientDirectory({ key: withKey, allowLocal: false, clock: manualClock(now), get: () => Promise.reject(new Error("no fetch")) });
  return directory.resolve(clientId).then(
    () => {
      throw new Error(`${clientId} was accepted`);
    },
    (err: unknown) => {
      if (err instanceof OAuthError) return err;
      throw err;
    },
  );
}

describe("dynamic client registration", () => {
  it("registers a web client and answers with the RFC 7591 fields", () => {
    const answer = registerClient({ body: { redirect_uris: ["https://app.example/callback"], client_name: "Example App" }, key, now });
    expect(answer).toEqual({
      client_id: expect.stringMatching(/^hac_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/),
      client_id_issued_at: now / 1000,
      redirect_uris: ["https://app.example/callback"],
      client_name: "Example App",
      application_type: "web",
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    });
  });

  it("registers a native client with loopback http redirects, ignoring unknown and null members", () => {
    const answer = registerClient({
      body: {
        redirect_uris: ["http://localhost/callback", "http://127.0.0.1:3118/callback", "http://[::1]/cb"],
        application_type: "native",
        token_endpoint_auth_method: "none",
        grant_types: ["authorization_code"],
        response_types: ["code"],
        scope: "mcp",
        logo_uri: "https://app.example/logo.png",
        client_uri: null,
      },
      key,
      now,
    });
    expect(answer.application_type).toBe("native");
    expect(answer.redirect_uris).toHaveLength(3);
    expect(answer.grant_types).toEqual(["authorization_code"]);
    expect(answer).not.toHaveProperty("client_name");
  });

  it.each(["http://homeassistant.local:8123/auth/external/callback", "http://192.168.1.50:8123/auth/external/callback", "http://homeassistant:8123/auth/external/callback", "http://ha.home.arpa/auth/external/callback", "http://[fd00::5]:8123/auth/external/callback"])(
    "registers Home Assistant's own callback on the home network over plain http (%s), as HA's mcp integration does without the my integration",
    (uri) => {
      const answer = registerClient({ body: { redirect_uris: [uri], token_endpoint_auth_method: "none", application_type: "web", client_name: "Home Assistant" }, key, now });
      expect(answer.redirect_uris).toEqual([uri]);
    },
  );

  it("registers HA's callback over plain http on a name Home Assistant gives itself, and only that name", () => {
    const body = { redirect_uris: ["http://ha.example.com:8123/auth/external/callback"], application_type: "web" };
    expect(registerClient({ body, key, now, homeHosts: new Set(["ha.example.com"]) }).redirect_uris).toEqual(body.redirect_uris);
    expect(() => registerClient({ body, key, now, homeHosts: new Set(["other.example.com"]) })).toThrow(/use https/);
    expect(() => registerClient({ body: { redirect_uris: ["http://ha.example.com:8123/callback"] }, key, now, homeHosts: new Set(["ha.example.com"]) })).toThrow(/use https/);
  });

  it("keeps client ids short: no more than 160 characters for one redirect and a name", () => {
    const answer = registerClient({ body: { redirect_uris: ["http://localhost/callback"], client_name: "Claude Code", application_type: "native" }, key, now });
    expect(answer.client_id.length).toBeLessThanOrEqual(160);
  });

  it.each([
    ["no redirect_uris", {}, /redirect_uris is required/],
    ["an empty list", { redirect_uris: [] }, /at least one/],
    ["eleven redirects", { redirect_uris: Array.from({ length: 11 }, (_, i) => `https://app.example/${i}`) }, /at most 10/],
    ["a relative redirect", { redirect_uris: ["/callback"] }, /not an absolute URL/],
    ["plain http on a public host", { redirect_uris: ["http://app.example/callback"] }, /use https/],
    ["plain http to HA's callback path on a public host", { redirect_uris: ["http://app.example/auth/external/callback"] }, /use https/],
    ["plain http to HA's callback path on a public address", { redirect_uris: ["http://8.8.8.8:8123/auth/external/callback"] }, /use https/],
    ["plain http to another path on a home host", { redirect_uris: ["http://homeassistant.local:8123/other"] }, /use https/],
    ["plain http to HA's callback path with a query", { redirect_uris: ["http://homeassistant.local:8123/auth/external/callback?x=1"] }, /use https/],
    ["a fragment", { redirect_uris: ["https://app.example/callback#x"] }, /fragment/],
    ["an empty fragment", { redirect_uris: ["https://app.example/callback#"] }, /fragment/],
    ["a custom scheme", { redirect_uris: ["com.example.app:/callback"] }, /only https/],
    ["a user name in the redirect", { redirect_uris: ["https://me@app.example/callback"] }, /user name/],
    ["a redirect that is not a string", { redirect_uris: [42] }, /must be a string/],
    ["a second bad redirect", { redirect_uris: ["https://app.example/ok", "ftp://app.example/x"] }, /redirect_uris\[1\]/],
  ])("refuses %s as invalid_redirect_uri", (_name, body, message) => {
    const err = refusal(body);
    expect(err.code).toBe("invalid_redirect_uri");
    expect(err.message).toMatch(message);
  });

  const good = { redirect_uris: ["https://app.example/callback"] };
  it.each([
    ["a name over 200 characters", { ...good, client_name: "x".repeat(201) }, /client_name: .*200/],
    ["a name with control characters", { ...good, client_name: "App\u0000" }, /control characters/],
    ["an unknown application type", { ...good, application_type: "browser" }, /application_type: .*"web" or "native"/],
    ["a confidential client", { ...good, token_endpoint_auth_method: "client_secret_basic" }, /only public clients are supported/],
    ["a grant it does not offer", { ...good, grant_types: ["client_credentials"] }, /grant_types\[0\]/],
    ["grants without authorization_code", { ...good, grant_types: ["refresh_token"] }, /must include "authorization_code"/],
    ["an implicit response type", { ...good, response_types: ["token"] }, /response_types/],
    ["a scope that is not a string", { ...good, scope: ["mcp"] }, /scope/],
    ["a body that is a list", [good], /must be a JSON object/],
    ["a body that is text", "redirect_uris=https://app.example/callback", /must be a JSON object/],
    ["a null body", null, /must be a JSON object/],
  ])("refuses %s as invalid_client_metadata", (_name, body, message) => {
    const err = refusal(body);
    expect(err.code).toBe("invalid_client_metadata");
    expect(err.message).toMatch(message);
  });

  it.each(["\u202E", "\u202A", "\u2066", "\u2069", "\u200B", "\u200D", "\u200F", "\uFEFF", "\u00AD", "\u2028"])(
    "refuses a name with the invisible character %j, which could make the consent page show another name",
    (c) => {
      const err = refusal({ ...good, client_name: `Claude${c} Code` });
      expect(err.code).toBe("invalid_client_metadata");
      expect(err.message).toMatch(/client_name: .*invisible formatting characters/);
    },
  );

  it("refuses a signing key shorter than 32 bytes", () => {
    expect(() => registerClient({ body: good, key: new Uint8Array(16), now })).toThrow(/at least 32/);
  });
});

describe("registered client ids", () => {
  it("survive a restart: a new directory with the same key knows the client", async () => {
    const before = createClientDirectory({ key, allowLocal: false, clock: manualClock(now) });
    const { client_id } = before.register({ redirect_uris: ["http://localhost/callback"], client_name: "Claude Code", application_type: "native" });
    const after = createClientDirectory({ key: new Uint8Array(key), allowLocal: false, clock: manualClock(now + 86_400_000) });
    expect(await after.resolve(client_id)).toEqual({
      clientId: client_id,
      name: "Claude Code",
      redirectUris: ["http://localhost/callback"],
      applicationType: "native",
      kind: "registered",
    });
  });

  it("name a client without client_name after its first redirect's host", async () => {
    const directory = createClientDirectory({ key, allowLocal: false, clock: manualClock(now) });
    const { client_id } = directory.register({ redirect_uris: ["https://ha.example:8123/auth/external/callback"] });
    expect((await directory.resolve(client_id)).name).toBe("ha.example:8123");
  });

  const { client_id: issued } = registerClient({ body: { redirect_uris: ["https://app.example/callback"], client_name: "Example" }, key, now });
  const [unsigned, sig] = issued.split(".") as [string, string];
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  // Toggles the lowest bit the character encodes: the smallest change there is.
  const flip = (text: string, at: number): string => text.slice(0, at) + alphabet[alphabet.indexOf(text[at]!) ^ 1]! + text.slice(at + 1);

  it.each([
    ["a character of the payload changed", `${flip(unsigned, 10)}.${sig}`],
    ["the payload's last character changed", `${flip(unsigned, unsigned.length - 1)}.${sig}`],
    ["a character of the signature changed", `${unsigned}.${flip(sig, 5)}`],
    // The last base64url character holds spare bits: decoding bytes alone would accept this one.
    ["the signature's last character changed", `${unsigned}.${flip(sig, sig.length - 1)}`],
    ["the signature cut short", `${unsigned}.${sig.slice(0, 20)}`],
    ["no signature", unsigned],
    ["a made-up id", "hac_eyJ4IjoxfQ.abc"],
    ["an id the server never used", "my-client"],
    ["a URL without a path", "https://app.example"],
  ])("refuse %s with invalid_client", async (_name, clientId) => {
    expect((await refusedResolve(clientId)).code).toBe("invalid_client");
  });

  it("refuse an id signed with another key", async () => {
    const err = await refusedResolve(issued, otherKey);
    expect(err.code).toBe("invalid_client");
    expect(err.message).toMatch(/register the client again/);
  });

  it("resolve when untouched (the refusals above are the tampering, not the setup)", async () => {
    const directory = createClientDirectory({ key, allowLocal: false, clock: manualClock(now) });
    expect((await directory.resolve(issued)).redirectUris).toEqual(["https://app.example/callback"]);
  });
});
