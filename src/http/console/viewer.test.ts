import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { isTrustedAddress, viewerOf, type UserDirectory } from "./viewer.js";

const users: UserDirectory = { lookup: async (id) => (id === "admin1" ? { name: "Alex", isAdmin: true } : id === "kid1" ? { name: "Noah", isAdmin: false } : undefined) };
const request = (address: string, headers: Record<string, string>) => ({ socket: { remoteAddress: address }, headers }) as unknown as IncomingMessage;

describe("who is using the console", () => {
  it("believes the ingress user headers only from a trusted proxy", async () => {
    const headers = { "x-remote-user-id": "admin1", "x-remote-user-display-name": "Alex H." };
    const trusted = ["172.30.32.2"];
    expect(await viewerOf(request("172.30.32.2", headers), { trustedProxies: trusted, users })).toEqual({ id: "admin1", name: "Alex H.", isAdmin: true, via: "ingress" });
    expect(await viewerOf(request("::ffff:172.30.32.2", headers), { trustedProxies: trusted, users })).toMatchObject({ id: "admin1" });
    expect(await viewerOf(request("10.0.0.9", headers), { trustedProxies: trusted, users })).toBeUndefined();
    expect(await viewerOf(request("127.0.0.1", headers), { trustedProxies: trusted, users })).toBeUndefined();
  });

  it("takes admin rights from Home Assistant, never from a header", async () => {
    const viewer = await viewerOf(request("127.0.0.1", { "x-remote-user-id": "kid1", "x-remote-user-name": "admin" }), { trustedProxies: ["127.0.0.1"], users });
    expect(viewer).toEqual({ id: "kid1", name: "admin", isAdmin: false, via: "ingress" });
    expect((await viewerOf(request("127.0.0.1", { "x-remote-user-id": "unknown" }), { trustedProxies: ["127.0.0.1"], users }))?.isAdmin).toBe(false);
  });

  it("makes a request that names nobody the demo user in demo mode, and nobody otherwise", async () => {
    const demoUser = { id: "admin1", name: "Demo Admin" };
    expect(await viewerOf(request("10.0.0.9", { "x-remote-user-id": "kid1" }), { trustedProxies: ["127.0.0.1"], users, demoUser })).toEqual({ id: "admin1", name: "Alex", isAdmin: true, via: "demo" });
    expect(await viewerOf(request("127.0.0.1", {}), { trustedProxies: ["127.0.0.1"], users })).toBeUndefined();
    expect(isTrustedAddress(undefined, ["127.0.0.1"])).toBe(false);
  });
});
