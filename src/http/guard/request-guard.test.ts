import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { manualClock } from "../../shared/index.js";
import { createOwnNames, fixedOwnNames, namesFromHaConfig } from "./own-names.js";
import { createRequestGuard } from "./request-guard.js";

const request = (headers: Record<string, string>, from = "192.168.1.20") => ({ headers, socket: { remoteAddress: from } }) as unknown as IncomingMessage;

function guard(o: { ingressProxies?: string[]; discover?: () => Promise<string[]> } = {}) {
  const names = createOwnNames({
    fixed: fixedOwnNames({ addon: true, publicUrl: "https://agent.example.com", allowedHosts: ["proxy.lan"], machine: "local-ha-agent.lan" }),
    clock: manualClock(),
    ...(o.discover ? { discover: o.discover } : {}),
  });
  return createRequestGuard({ names, publicUrl: "https://agent.example.com", settingName: "the allowed_hosts option", ...(o.ingressProxies ? { ingressProxies: o.ingressProxies } : {}) });
}

describe("the request guard", () => {
  it("serves HA Agent's own names, Home Assistant's, allowed_hosts and any IP address, whatever the port", async () => {
    const g = guard();
    for (const host of ["localhost:8808", "LOCALHOST.", "local-ha-agent", "local-ha-agent.lan:8808", "homeassistant:8808", "homeassistant.local:8808", "agent.example.com", "proxy.lan:443", "192.168.1.5:8808", "[::1]:8808", "[fe80::1]"]) {
      expect(await g.check(request({ host })), host).toBeUndefined();
    }
  });

  it("refuses a DNS name that is not its own with 421 and says which setting adds it", async () => {
    const refusal = await guard().check(request({ host: "rebind.attacker.example:8808" }));
    expect(refusal?.status).toBe(421);
    expect(refusal?.body.message).toMatch(/does not answer to the name rebind\.attacker\.example\. If that is how you reach it, add it to the allowed_hosts option/);
  });

  it("refuses a Host that is not a host with 400, and never repeats it", async () => {
    for (const host of ["a:99999", "evil.example/x", "<script>", 'a"b']) {
      const refusal = await guard().check(request({ host }));
      expect(refusal?.status, host).toBe(400);
      expect(JSON.stringify(refusal?.body)).not.toContain(host.slice(0, 4) === "a:99" ? "99999" : host);
    }
    expect((await guard().check(request({})))?.status).toBe(400);
  });

  it("refuses a browser's request from another site's page with 403, even to a good host", async () => {
    const g = guard();
    for (const origin of ["http://evil.example", "https://rebind.attacker.example:8808", "null", "file://"]) {
      const refusal = await g.check(request({ host: "192.168.1.5:8808", origin }));
      expect(refusal?.status, origin).toBe(403);
      expect(refusal?.body.error).toBe("origin_not_allowed");
    }
    // A page this very address served: same scheme, host and port.
    expect(await g.check(request({ host: "192.168.1.5:8099", origin: "http://192.168.1.5:8099" }))).toBeUndefined();
    expect(await g.check(request({ host: "localhost:6274", origin: "http://localhost:6274" }))).toBeUndefined();
  });

  it("takes an origin as browsers do, scheme, host and port: another port on the same host is another site", async () => {
    const g = guard();
    const refused = async (host: string, origin: string) => (await g.check(request({ host, origin })))?.status === 403;
    // Another add-on's page on the same machine, Home Assistant's own frontend, and a page on loopback port 1.
    expect(await refused("192.168.1.50:8808", "http://192.168.1.50:1880")).toBe(true);
    expect(await refused("192.168.1.50:8808", "http://192.168.1.50:8123")).toBe(true);
    expect(await refused("homeassistant.local:8808", "http://homeassistant.local:8123")).toBe(true);
    expect(await refused("127.0.0.1:8808", "http://127.0.0.1:1")).toBe(true);
    expect(await refused("192.168.1.50:8808", "https://192.168.1.50:8808")).toBe(true);
    expect(await refused("192.168.1.50", "http://192.168.1.50:8080")).toBe(true);
    // The same origin, spelt as browsers spell it (the default port left out), and loopback names for each other.
    expect(await refused("192.168.1.50:8808", "http://192.168.1.50:8808")).toBe(false);
    expect(await refused("192.168.1.50:80", "http://192.168.1.50")).toBe(false);
    expect(await refused("127.0.0.1:8808", "http://[::1]:8808")).toBe(false);
    expect(await refused("127.0.0.1:8808", "http://localhost:8808")).toBe(false);
    expect(await refused("[::1]:8808", "http://127.0.0.1:8808")).toBe(false);
    expect(await refused("localhost:8808", "http://[::1]:8809")).toBe(true);
    // Behind public_url, the proxy's https page.
    expect(await refused("agent.example.com", "https://agent.example.com")).toBe(false);
    expect(await refused("agent.example.com", "https://agent.example.com:8443")).toBe(true);
  });

  it("takes a local proxy's forwarded host as the page's origin for the Origin check only, and only from that proxy", async () => {
    const names = createOwnNames({ fixed: fixedOwnNames({ addon: false, publicUrl: undefined, allowedHosts: [] }), clock: manualClock() });
    const g = createRequestGuard({ names, settingName: "ALLOWED_HOSTS", forwardingProxies: ["127.0.0.1"] });
    const viaProxy = { host: "127.0.0.1:8099", "x-forwarded-host": "127.0.0.1:9000", origin: "http://127.0.0.1:9000" };
    expect(await g.check(request(viaProxy, "127.0.0.1"))).toBeUndefined();
    expect((await g.check(request(viaProxy, "192.168.1.20")))?.status).toBe(403);
    expect((await g.check(request({ ...viaProxy, origin: "http://127.0.0.1:1880" }, "127.0.0.1")))?.status).toBe(403);
    // The Host check does not believe it: a rebound name is refused whatever the proxy forwards.
    expect((await g.check(request({ ...viaProxy, host: "rebind.attacker.example" }, "127.0.0.1")))?.status).toBe(421);
  });

  it("learns Home Assistant's own addresses when an unknown name arrives, asking at most once a minute", async () => {
    let asked = 0;
    const g = guard({
      discover: async () => {
        asked++;
        return namesFromHaConfig({ internal_url: "http://ha.home.arpa:8123", external_url: "https://myhome.duckdns.org" });
      },
    });
    expect(await g.check(request({ host: "ha.home.arpa:8808" }))).toBeUndefined();
    expect(await g.check(request({ host: "myhome.duckdns.org" }))).toBeUndefined();
    for (let i = 0; i < 20; i++) expect((await g.check(request({ host: `flood${i}.attacker.example` })))?.status).toBe(421);
    expect(asked).toBe(1);
  });

  it("behind ingress, takes the Host Home Assistant forwards and lets only HA's own page in", async () => {
    const g = guard({ ingressProxies: ["172.30.32.2"] });
    const viaIngress = (headers: Record<string, string>) => request(headers, "::ffff:172.30.32.2");
    expect(await g.check(viaIngress({ host: "abcd.ui.nabu.casa", "x-forwarded-host": "abcd.ui.nabu.casa", origin: "https://abcd.ui.nabu.casa" }))).toBeUndefined();
    expect((await g.check(viaIngress({ host: "abcd.ui.nabu.casa", "x-forwarded-host": "abcd.ui.nabu.casa", origin: "https://evil.example" })))?.status).toBe(403);
    // The same Host from anyone else is a rebinding attempt.
    expect((await g.check(request({ host: "abcd.ui.nabu.casa" })))?.status).toBe(421);
  });
});
