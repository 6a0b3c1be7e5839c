import { afterEach, describe, expect, it } from "vitest";
import { silentLogger } from "../shared/index.js";
import type { HealthReport } from "./health.js";
import type { Listener } from "./mcp-listener.js";
import { startStatusListener } from "./status-listener.js";

const health: HealthReport = {
  status: "unavailable",
  reasons: ["connecting to Home Assistant"],
  uptimeSeconds: 12,
  components: { home_assistant: { ok: false, details: { status: "connecting" } }, index: { ok: true, details: { entities: 12345, heapUsedBytes: 52_428_800 } } },
};
const info = { version: "9.9.9", mode: "add-on", mcpPath: "/mcp", mcpPort: 8808, toolNames: ["ha_agent_state_query"] };

describe("status listener", () => {
  let listener: Listener | undefined;
  afterEach(async () => {
    await listener?.close();
  });

  it("renders the health report for people, under the ingress path", async () => {
    listener = await startStatusListener({ host: "127.0.0.1", port: 0, health: () => health, info, logger: silentLogger });
    const res = await fetch(`http://127.0.0.1:${listener.port}/`, { headers: { "x-ingress-path": "/api/hassio_ingress/abc123", "x-remote-user-display-name": "Sam <b>" } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<base href="/api/hassio_ingress/abc123/">');
    expect(html).toContain("not ready");
    expect(html).toContain("connecting to Home Assistant");
    expect(html).toContain("12,345");
    expect(html).toContain("50.0 MB");
    expect(html).toContain("Sam &lt;b&gt;");
    expect(html).not.toContain("<b>");
  });

  it("ignores an ingress path that is not a plain path", async () => {
    listener = await startStatusListener({ host: "127.0.0.1", port: 0, health: () => health, info, logger: silentLogger });
    const html = await (await fetch(`http://127.0.0.1:${listener.port}/`, { headers: { "x-ingress-path": '/x"><script>alert(1)</script>' } })).text();
    expect(html).toContain('<base href="/">');
    expect(html).not.toContain("<script>");
  });

  it("answers only the ingress proxy when told to", async () => {
    listener = await startStatusListener({ host: "127.0.0.1", port: 0, allowedAddresses: ["172.30.32.2"], health: () => health, info, logger: silentLogger });
    expect((await fetch(`http://127.0.0.1:${listener.port}/`)).status).toBe(403);
    await listener.close();
    listener = await startStatusListener({ host: "127.0.0.1", port: 0, allowedAddresses: ["127.0.0.1"], health: () => health, info, logger: silentLogger });
    expect((await fetch(`http://127.0.0.1:${listener.port}/`)).status).toBe(200);
  });

  it("serves the same report as JSON for scripts", async () => {
    listener = await startStatusListener({ host: "127.0.0.1", port: 0, health: () => health, info, logger: silentLogger });
    expect(await (await fetch(`http://127.0.0.1:${listener.port}/api/health`)).json()).toEqual(health);
  });
});
