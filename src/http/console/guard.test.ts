import { describe, expect, it } from "vitest";
import { consoleCookieValue, isSameOrigin, remoteAccess } from "./guard.js";

describe("the console's guards", () => {
  it("asks another host for the console's token, then keeps it in a same-site cookie", () => {
    const opts = { remoteToken: "a-long-random-console-token" };
    const res = { writeHead: (status: number, headers: Record<string, string>) => Object.assign(res, { status, headers }), end: () => undefined } as unknown as Parameters<typeof remoteAccess>[1] & { status?: number; headers?: Record<string, string> };
    const req = (url: string, cookie?: string) => ({ url, headers: cookie ? { cookie } : {} }) as Parameters<typeof remoteAccess>[0];
    expect(remoteAccess(req("/"), res, { token: opts.remoteToken, isLocal: false })).toBe("refused");
    expect(remoteAccess(req("/?token=wrong"), res, { token: opts.remoteToken, isLocal: false })).toBe("refused");
    expect(remoteAccess(req("/?token=a-long-random-console-token"), res, { token: opts.remoteToken, isLocal: false })).toBe("redirected");
    expect(res.headers?.["set-cookie"]).toMatch(/HttpOnly; SameSite=Strict/);
    expect(res.headers?.location).toBe("/");
    const cookie = res.headers?.["set-cookie"]?.split(";")[0] ?? "";
    expect(remoteAccess(req("/", cookie), res, { token: opts.remoteToken, isLocal: false })).toBe("ok");
    expect(remoteAccess(req("/"), res, { token: undefined, isLocal: true })).toBe("ok");
  });

  it("keeps a value derived from the token in the cookie, never the token, and refuses the raw token or a garbled cookie without throwing", () => {
    const token = "a-long-random-console-token";
    const res = { writeHead: (status: number, headers: Record<string, string>) => Object.assign(res, { status, headers }), end: () => undefined } as unknown as Parameters<typeof remoteAccess>[1] & { headers?: Record<string, string> };
    const req = (url: string, cookie?: string) => ({ url, headers: cookie ? { cookie } : {} }) as Parameters<typeof remoteAccess>[0];
    expect(remoteAccess(req(`/?token=${token}`), res, { token, isLocal: false })).toBe("redirected");
    expect(res.headers?.["set-cookie"]).not.toContain(token);
    expect(res.headers?.["set-cookie"]).toContain(`ha_agent_console=${consoleCookieValue(token)};`);
    for (const cookie of [`ha_agent_console=${token}`, "ha_agent_console=%E0%A4%A", "ha_agent_console=%", "ha_agent_console"]) {
      expect(remoteAccess(req("/", cookie), res, { token, isLocal: false }), cookie).toBe("refused");
    }
    // Another token, another cookie: changing STATUS_TOKEN ends the old ones.
    expect(remoteAccess(req("/", `ha_agent_console=${consoleCookieValue(token)}`), res, { token: "another-long-random-console-token", isLocal: false })).toBe("refused");
  });

  it("lets a write through only from the page's own origin", () => {
    const req = (headers: Record<string, string>) => ({ headers: { host: "ha.local:8099", ...headers } }) as unknown as Parameters<typeof isSameOrigin>[0];
    expect(isSameOrigin(req({ "sec-fetch-site": "same-origin" }))).toBe(true);
    expect(isSameOrigin(req({ "sec-fetch-site": "cross-site" }))).toBe(false);
    expect(isSameOrigin(req({ "sec-fetch-site": "same-site" }))).toBe(false);
    expect(isSameOrigin(req({ origin: "http://ha.local:8099" }))).toBe(true);
    expect(isSameOrigin(req({ origin: "http://evil.example" }))).toBe(false);
    expect(isSameOrigin(req({ origin: "null" }))).toBe(false);
  });
});
