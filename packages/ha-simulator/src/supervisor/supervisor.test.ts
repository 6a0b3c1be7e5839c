import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RawClient } from "../../test/support/raw-client.js";
import { demoHouse } from "../demo/index.js";
import { startSimulator, type Simulator } from "../index.js";
import { simAddon, startSupervisor, type SupervisorSimulator } from "./index.js";

let ha: Simulator;
let supervisor: SupervisorSimulator;

beforeEach(async () => {
  ha = await startSimulator({ house: demoHouse() });
  supervisor = await startSupervisor({ ha, addons: [simAddon({ slug: "local_ha_agent", discovery: ["mcp"] }), simAddon({ slug: "other_addon" })] });
});
afterEach(async () => {
  await supervisor.close();
  await ha.close();
});

const call = (path: string, init: RequestInit & { token?: string } = {}) =>
  fetch(`${supervisor.url}${path}`, { ...init, headers: { ...(init.token ? { authorization: `Bearer ${init.token}` } : {}), ...(init.body ? { "content-type": "application/json" } : {}), ...init.headers } });
const post = (body: unknown, token = supervisor.addon.token) => call("/discovery", { method: "POST", body: JSON.stringify(body), token });

describe("the simulated Supervisor", () => {
  it("refuses a wrong token with 403 and a missing one with 401, and accepts Bearer or X-Supervisor-Token", async () => {
    expect((await call("/addons/self/info", { token: "0".repeat(64) })).status).toBe(403);
    expect((await call("/addons/self/info")).status).toBe(401);
    expect((await call("/core/api/", { token: "0".repeat(64) })).status).toBe(401);
    expect((await post({ service: "mcp", config: { url: "http://x/mcp" } }, "wrong")).status).toBe(403);
    expect(supervisor.discovery.list()).toEqual([]);
    const info = (await (await call("/addons/self/info", { headers: { "X-Supervisor-Token": supervisor.addon.token } })).json()) as { result: string; data: Record<string, unknown> };
    expect(info.result).toBe("ok");
    expect(info.data).toMatchObject({ slug: "local_ha_agent", hostname: "local-ha-agent", ingress_port: 8099 });
    expect(info.data.ingress_entry).toMatch(/^\/api\/hassio_ingress\//);
    const system = (await (await call("/info", { token: supervisor.addon.token })).json()) as { data: { homeassistant: string } };
    expect(system.data.homeassistant).toBe(ha.haVersion);
  });

  it("tells an add-on with hassio_api its port mapping, the host's address and Core's port, and refuses the /…/info reads to one without", async () => {
    const self = (await (await call("/addons/self/info", { token: supervisor.addon.token })).json()) as { data: { network: Record<string, number | null> } };
    expect(self.data.network).toEqual({ "8808/tcp": 8808 });
    const network = (await (await call("/network/info", { token: supervisor.addon.token })).json()) as { data: { interfaces: { primary: boolean; ipv4: { address: string[] } }[] } };
    expect(network.data.interfaces.find((i) => i.primary)?.ipv4.address).toEqual(["127.0.0.1/8"]);
    const core = (await (await call("/core/info", { token: supervisor.addon.token })).json()) as { data: { port: number; ssl: boolean } };
    expect(core.data).toMatchObject({ port: Number(new URL(ha.url).port), ssl: false });
    const plain = await startSupervisor({ ha, addons: [simAddon({ slug: "plain", hassioApi: false })] });
    try {
      const read = (path: string) => fetch(`${plain.url}${path}`, { headers: { authorization: `Bearer ${plain.addon.token}` } });
      expect((await read("/network/info")).status).toBe(403);
      expect((await read("/core/info")).status).toBe(403);
      expect((await read("/addons/self/info")).status).toBe(200);
    } finally {
      await plain.close();
    }
  });

  it("merges a repeated post from one add-on and service into the same entry, and deletes only the poster's own", async () => {
    const first = (await (await post({ service: "mcp", config: { url: "http://a:1/mcp" } })).json()) as { data: { uuid: string } };
    const again = (await (await post({ service: "mcp", config: { url: "http://a:2/mcp" } })).json()) as { data: { uuid: string } };
    expect(again.data.uuid).toBe(first.data.uuid);
    expect(supervisor.discovery.list()).toEqual([{ uuid: first.data.uuid, addon: "local_ha_agent", service: "mcp", config: { url: "http://a:2/mcp" } }]);
    // A service the add-on's config does not list is refused.
    expect((await post({ service: "mqtt", config: {} })).status).toBe(403);
    expect((await post({ service: "mcp", config: {} }, supervisor.addons[1]!.token)).status).toBe(403);
    expect((await call(`/discovery/${first.data.uuid}`, { method: "DELETE", token: supervisor.addons[1]!.token })).status).toBe(403);
    expect((await call(`/discovery/${first.data.uuid}`, { method: "DELETE", token: supervisor.addon.token })).status).toBe(200);
    expect((await call(`/discovery/${first.data.uuid}`, { method: "DELETE", token: supervisor.addon.token })).status).toBe(404);
    expect(supervisor.discovery.list()).toEqual([]);
  });

  it("answers discovery with the fault's status while it is set, and changes nothing", async () => {
    supervisor.faults.failDiscovery(500);
    const failed = await post({ service: "mcp", config: { url: "http://a/mcp" } });
    expect(failed.status).toBe(500);
    expect(await failed.json()).toMatchObject({ result: "error" });
    supervisor.faults.failDiscovery(undefined);
    expect((await post({ service: "mcp", config: { url: "http://a/mcp" } })).status).toBe(200);
    expect(supervisor.discovery.requests.map((r) => r.status)).toEqual([500, 200]);
  });

  it("proxies Core's REST API and WebSocket for an add-on's token", async () => {
    const states = await call("/core/api/states/light.kitchen_ceiling", { token: supervisor.addon.token });
    expect(states.status).toBe(200);
    expect((await states.json()) as object).toMatchObject({ entity_id: "light.kitchen_ceiling" });
    const socket = await RawClient.authed(`${supervisor.url.replace("http", "ws")}/core/websocket`, supervisor.addon.token);
    const result = await socket.command({ id: 1, type: "get_states" });
    expect(result.success).toBe(true);
    expect((result.result as unknown[]).length).toBe(ha.home.states().length);
    const denied = await socket.command({ id: 2, type: "supervisor/api" });
    expect(denied).toMatchObject({ success: false, error: { code: "unauthorized" } });
    socket.socket.close();
    const refused = await RawClient.connect(`${supervisor.url.replace("http", "ws")}/core/websocket`);
    await refused.next();
    refused.send({ type: "auth", access_token: ha.users.tokenFor() });
    expect(await refused.next()).toMatchObject({ type: "auth_invalid" });
  });
});
