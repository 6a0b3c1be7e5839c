import { describe, expect, it } from "vitest";
import { manualClock, silentLogger } from "../shared/index.js";
import { createDiscoveryAnnouncer, SupervisorRequestError, type AnnouncementRecord, type AnnouncementStore, type SupervisorClient } from "./index.js";

function memoryStore(initial?: AnnouncementRecord): AnnouncementStore & { record: AnnouncementRecord | undefined } {
  const store = {
    record: initial,
    read: async () => store.record,
    write: async (r: AnnouncementRecord) => void (store.record = r),
    remove: async () => void (store.record = undefined),
  };
  return store;
}

/** A Supervisor that fails the first `failures` calls of each kind, then answers. */
function fakeSupervisor(o: { failures?: number; gone?: boolean } = {}) {
  const calls: string[] = [];
  let failuresLeft = o.failures ?? 0;
  const maybeFail = () => {
    if (failuresLeft-- > 0) throw new SupervisorRequestError("the Supervisor answered POST /discovery with HTTP 500: Unknown error, see Supervisor logs", { status: 500 });
  };
  const client: SupervisorClient = {
    selfInfo: async () => (calls.push("info"), { slug: "local_ha_agent", hostname: "local-ha-agent", dns: [], network: { "8808/tcp": 8808 } }),
    networkInfo: async () => ({ interfaces: [] }),
    coreInfo: async () => ({ port: 8123, ssl: false }),
    announce: async ({ config }) => {
      calls.push(`post ${String(config.url)}`);
      maybeFail();
      return "0123abcd";
    },
    withdraw: async (uuid) => {
      calls.push(`delete ${uuid}`);
      maybeFail();
      return o.gone ? "gone" : "withdrawn";
    },
  };
  return { client, calls };
}

const record = { uuid: "0123abcd", service: "mcp", url: "http://local-ha-agent:8808/mcp/assist", at: "2026-01-01T00:00:00.000Z" };
const base = { logger: silentLogger, clock: manualClock() };

describe("the discovery announcer", () => {
  it("posts the add-on's own host name and MCP port, and remembers the uuid", async () => {
    const { client, calls } = fakeSupervisor();
    const store = memoryStore();
    const announcer = createDiscoveryAnnouncer({ ...base, supervisor: client, store, enabled: true });
    expect(announcer.status().state).toBe("pending");
    await announcer.start({ port: 8808, path: "/mcp/assist" });
    expect(calls).toEqual(["info", "post http://local-ha-agent:8808/mcp/assist"]);
    expect(store.record).toMatchObject({ uuid: "0123abcd", url: "http://local-ha-agent:8808/mcp/assist", service: "mcp" });
    expect(announcer.status()).toMatchObject({ state: "announced", uuid: "0123abcd" });
    expect(announcer.status().problem).toBeUndefined();
  });

  it("retries with growing waits, says why while it fails, and clears the problem once it succeeds", async () => {
    const { client } = fakeSupervisor({ failures: 3 });
    const waits: number[] = [];
    const problems: (string | undefined)[] = [];
    const announcer = createDiscoveryAnnouncer({
      ...base,
      supervisor: client,
      store: memoryStore(),
      enabled: true,
      backoff: { initialMs: 1_000, maxMs: 60_000 },
      sleep: async (ms) => {
        waits.push(ms);
        problems.push(announcer.status().problem);
      },
    });
    await announcer.start({ port: 8808, path: "/mcp/assist" });
    expect(waits).toHaveLength(3);
    // Equal jitter: each wait lies in the upper half of a doubling ceiling.
    waits.forEach((ms, i) => {
      expect(ms).toBeGreaterThanOrEqual(500 * 2 ** i);
      expect(ms).toBeLessThanOrEqual(1_000 * 2 ** i);
    });
    for (const p of problems) expect(p).toMatch(/^could not tell Home Assistant about this MCP server yet \(the Supervisor answered POST \/discovery with HTTP 500/);
    expect(announcer.status()).toMatchObject({ state: "announced", attempts: 4 });
    expect(announcer.status().problem).toBeUndefined();
  });

  it("withdraws the remembered entry when turned off, counting one the Supervisor no longer has as withdrawn", async () => {
    for (const gone of [false, true]) {
      const { client, calls } = fakeSupervisor({ gone });
      const store = memoryStore(record);
      const announcer = createDiscoveryAnnouncer({ ...base, supervisor: client, store, enabled: false });
      await announcer.start({ port: 8808, path: "/mcp/assist" });
      expect(calls).toEqual(["delete 0123abcd"]);
      expect(store.record).toBeUndefined();
      expect(announcer.status().state).toBe("withdrawn");
    }
  });

  it("does nothing when turned off with nothing announced", async () => {
    const { client, calls } = fakeSupervisor();
    const announcer = createDiscoveryAnnouncer({ ...base, supervisor: client, store: memoryStore(), enabled: false });
    await announcer.start({ port: 8808, path: "/mcp/assist" });
    expect(calls).toEqual([]);
    expect(announcer.status().state).toBe("off");
    expect(announcer.status().problem).toBeUndefined();
  });

  it("stops retrying on stop, and a stop never withdraws", async () => {
    const { client, calls } = fakeSupervisor({ failures: 1_000 });
    const store = memoryStore(record);
    const announcer = createDiscoveryAnnouncer({ ...base, supervisor: client, store, enabled: true, backoff: { initialMs: 60_000, maxMs: 60_000 } });
    const running = announcer.start({ port: 8808, path: "/mcp/assist" });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await announcer.stop();
    await running;
    expect(calls.filter((c) => c.startsWith("post"))).toHaveLength(1);
    expect(calls.some((c) => c.startsWith("delete"))).toBe(false);
    expect(store.record).toEqual(record);
  });
});
