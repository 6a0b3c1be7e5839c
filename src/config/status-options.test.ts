import { describe, expect, it } from "vitest";
import { loadConfig } from "./index.js";

const noFile = async () => undefined;

describe("status page options", () => {
  it("binds the status page to loopback outside add-on mode, trusting only loopback's user headers", async () => {
    const config = await loadConfig({ env: { HA_URL: "http://ha.local:8123", HA_TOKEN: "t" }, readFile: noFile });
    expect(config.statusBind).toBe("127.0.0.1");
    expect(config.statusTrustedProxies).toEqual(["127.0.0.1", "::1"]);
    expect(config.statusToken).toBeUndefined();
  });

  it("trusts only the Supervisor's ingress proxy in add-on mode, and listens where ingress reaches it", async () => {
    const config = await loadConfig({ env: { SUPERVISOR_TOKEN: "s" }, readFile: noFile });
    expect(config.statusBind).toBeUndefined();
    expect(config.statusTrustedProxies).toEqual(["172.30.32.2"]);
  });

  it("adds STATUS_TRUSTED_PROXIES to the trusted addresses and names a bad one", async () => {
    const config = await loadConfig({ env: { STATUS_TRUSTED_PROXIES: "192.168.1.5, 10.0.0.2" }, readFile: noFile });
    expect(config.statusTrustedProxies).toEqual(["127.0.0.1", "::1", "192.168.1.5", "10.0.0.2"]);
    const err = await loadConfig({ env: { STATUS_TRUSTED_PROXIES: "proxy.local" }, readFile: noFile }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/STATUS_TRUSTED_PROXIES: expected IP addresses separated by commas/);
  });

  it("refuses a status page open to other hosts without a token, and never echoes the token", async () => {
    const open = await loadConfig({ env: { STATUS_BIND: "0.0.0.0" }, readFile: noFile }).catch((e: unknown) => e);
    expect((open as Error).message).toMatch(/STATUS_TOKEN: is required when STATUS_BIND \(0\.0\.0\.0\)/);
    const short = await loadConfig({ env: { STATUS_BIND: "0.0.0.0", STATUS_TOKEN: "tiny-secret" }, readFile: noFile }).catch((e: unknown) => e);
    expect((short as Error).message).toMatch(/STATUS_TOKEN: expected at least 16 characters/);
    expect((short as Error).message).not.toContain("tiny-secret");
    const ok = await loadConfig({ env: { STATUS_BIND: "0.0.0.0", STATUS_TOKEN: "a-long-random-console-token" }, readFile: noFile });
    expect(ok.statusBind).toBe("0.0.0.0");
    expect(ok.statusToken).toBe("a-long-random-console-token");
  });
});
