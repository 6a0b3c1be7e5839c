import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { silentLogger } from "../shared/index.js";
import { createConsole, createTurnRecords, loadAssets, type ConsoleOptions } from "./console/index.js";
import type { HealthReport } from "./health.js";
import type { Listener } from "./mcp-listener.js";
import { startStatusListener } from "./status-listener.js";

const health: HealthReport = { status: "unavailable", reasons: ["connecting to Home Assistant"], uptimeSeconds: 12, components: { home_assistant: { ok: false, details: { status: "connecting" } } } };
const store = { sessions: { list: () => ({ sessions: [] }), listAll: () => ({ sessions: [] }) }, continuations: { get: async () => undefined }, usage: { slots: () => [] }, recovery: { durationMs: 1, interrupted: [], quarantined: [], problems: [] } } as unknown as ConsoleOptions["store"];

async function options(assetsDir?: string): Promise<ConsoleOptions> {
  return {
    version: "9.9.9",
    mode: "standalone",
    health: () => health,
    store,
    turns: createTurnRecords({ store, now: () => 0 }),
    users: { lookup: async () => undefined },
    actuation: { allow: false, allowlist: [] },
    entityState: () => null,
    diskSpace: async () => undefined,
    connect: { mcpUrl: "http://127.0.0.1:8808/mcp", demoToken: undefined },
    now: () => 0,
    trustedProxies: ["127.0.0.1"],
    agent: { approve: async () => ({}), cancel: async () => ({}), watch: async () => undefined, journal: async () => [] },
    assets: assetsDir ? await loadAssets(assetsDir) : undefined,
    remoteToken: undefined,
    logger: silentLogger,
  };
}

describe("status listener", () => {
  let listener: Listener | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await listener?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("serves the built page's hashed files compressed, named under the ingress path", async () => {
    dir = await mkdtemp(join(tmpdir(), "console-assets-"));
    await mkdir(join(dir, "assets"));
    const js = "console.log('hi')";
    await writeFile(join(dir, "assets", "app-ABC.js"), js);
    await writeFile(join(dir, "assets", "app-ABC.js.gz"), gzipSync(js));
    await writeFile(join(dir, "assets", "style-DEF.css"), "body{}");
    await writeFile(join(dir, "manifest.json"), JSON.stringify({ js: "assets/app-ABC.js", css: "assets/style-DEF.css" }));
    listener = await startStatusListener({ host: "127.0.0.1", port: 0, console: createConsole(await options(dir)), logger: silentLogger });
    const html = await (await fetch(`http://127.0.0.1:${listener.port}/`, { headers: { "x-ingress-path": "/api/hassio_ingress/abc123" } })).text();
    expect(html).toContain('<base href="/api/hassio_ingress/abc123/">');
    expect(html).toContain('<script type="module" src="assets/app-ABC.js"></script>');
    const { request } = await import("node:http");
    const body = await new Promise<{ headers: Record<string, unknown>; data: Buffer }>((resolve) =>
      request({ host: "127.0.0.1", port: listener!.port, path: "/assets/app-ABC.js", headers: { "accept-encoding": "gzip" } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c)).on("end", () => resolve({ headers: res.headers, data: Buffer.concat(chunks) }));
      }).end(),
    );
    expect(body.headers["content-encoding"]).toBe("gzip");
    expect(body.headers["cache-control"]).toContain("immutable");
    expect(gunzipSync(body.data).toString()).toBe(js);
  });

  it("ignores an ingress path that is not a plain path, and says how to build a missing page", async () => {
    listener = await startStatusListener({ host: "127.0.0.1", port: 0, console: createConsole(await options()), logger: silentLogger });
    const html = await (await fetch(`http://127.0.0.1:${listener.port}/`, { headers: { "x-ingress-path": '/x"><script>alert(1)</script>' } })).text();
    expect(html).toContain('<base href="/">');
    expect(html).not.toContain("<script>");
    expect(html).toContain("npm run build");
  });

  it("answers only requests through the ingress proxy when told to, and tells others where the page is", async () => {
    const ingress = { headers: { "x-ingress-path": "/api/hassio_ingress/abc" } };
    listener = await startStatusListener({ host: "127.0.0.1", port: 0, allowedAddresses: ["172.30.32.2"], console: createConsole(await options()), logger: silentLogger });
    const refused = await fetch(`http://127.0.0.1:${listener.port}/`, ingress);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toMatch(/open HA Agent in the Home Assistant sidebar/);
    await listener.close();
    listener = await startStatusListener({ host: "127.0.0.1", port: 0, allowedAddresses: ["127.0.0.1"], refusal: "Open it at the ingress address.", console: createConsole(await options()), logger: silentLogger });
    expect((await fetch(`http://127.0.0.1:${listener.port}/`, ingress)).status).toBe(200);
    const direct = await fetch(`http://127.0.0.1:${listener.port}/`);
    expect(direct.status).toBe(403);
    expect(await direct.text()).toBe("Open it at the ingress address.\n");
  });

  it("serves the health report as JSON for scripts", async () => {
    listener = await startStatusListener({ host: "127.0.0.1", port: 0, console: createConsole(await options()), logger: silentLogger });
    expect(await (await fetch(`http://127.0.0.1:${listener.port}/api/health`)).json()).toEqual(health);
  });

});
