import { describe, expect, it } from "vitest";
import { checkRedirect, clientIdProblem } from "./indieauth.js";
import { redirectWithCode } from "./routes.js";

describe("HA's client id rule", () => {
  it.each(["http://homeassistant.local:8099/", "https://addon.example.com", "http://192.168.1.20:8099/", "http://127.0.0.1/", "http://[::1]/", "http://10.0.0.5"])(
    "accepts %s",
    (id) => expect(clientIdProblem(id)).toBeUndefined(),
  );

  it.each([
    ["ftp://example.com/", "http or https"],
    ["https://example.com/a/../b", "dot"],
    ["https://example.com/#frag", "fragment"],
    ["https://user:pw@example.com/", "username"],
    ["https://example.com:99999/", "port"],
    ["https://example.com:abc/", "port"],
    ["http://8.8.8.8/", "local IP"],
  ])("refuses %s, saying why", (id, why) => expect(clientIdProblem(id)).toContain(why));

  it("reads a netloc with a port as a host name, as HA does, so a public address with a port passes", () => {
    expect(clientIdProblem("http://8.8.8.8:80/")).toBeUndefined();
  });
});

describe("HA's redirect rule", () => {
  it("accepts a redirect on the client id's scheme, host and port, whatever the path and query", () => {
    expect(checkRedirect({ clientId: "http://Addon.Local:8099", redirectUri: "http://addon.local:8099/oauth/callback?x=1" })).toEqual({ ok: true });
  });

  it.each([
    ["another port", "http://addon.local:8100/cb"],
    ["another scheme", "https://addon.local:8099/cb"],
    ["another host", "http://evil.example:8099/cb"],
    ["the default port written out", "http://addon.local:80/cb"],
  ])("refuses %s and says that the simulator fetches no client page", (_, redirectUri) => {
    const check = checkRedirect({ clientId: redirectUri.includes(":80/") ? "http://addon.local/" : "http://addon.local:8099/", redirectUri });
    expect(check.ok).toBe(false);
    expect(!check.ok && check.reason).toContain('<link rel="redirect_uri">');
  });

  it("accepts the companion apps' own callbacks", () => {
    expect(checkRedirect({ clientId: "https://home-assistant.io/iOS", redirectUri: "homeassistant://auth-callback" })).toEqual({ ok: true });
  });
});

describe("the redirect with the code", () => {
  it("keeps the redirect's own query, then adds code and state, and leaves out an empty state", () => {
    expect(redirectWithCode({ redirectUri: "http://a.local/cb?x=1", code: "c1", state: "s 1" })).toBe("http://a.local/cb?x=1&code=c1&state=s%201");
    expect(redirectWithCode({ redirectUri: "http://a.local/cb", code: "c1", state: "" })).toBe("http://a.local/cb?code=c1");
  });
});
