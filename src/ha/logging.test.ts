import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../shared/index.js";
import { createHaClient } from "./client.js";
import { startFakeHa, type FakeHa } from "../../test/support/ha/fake-ha.js";
import { waitUntil } from "../../test/support/ha/wait.js";

const TOKEN = "secret-token-never-logged-9d2e";
let ha: FakeHa | undefined;
afterEach(async () => {
  await ha?.close();
  ha = undefined;
});

function capturingLogger() {
  const lines: { level: string; msg: string; raw: string }[] = [];
  const logger = createLogger({
    level: "debug",
    destination: {
      write(chunk: string) {
        for (const raw of chunk.split("\n").filter(Boolean)) {
          const parsed = JSON.parse(raw) as { level: string; msg: string };
          lines.push({ level: parsed.level, msg: parsed.msg, raw });
        }
      },
    },
  });
  return { logger, lines };
}

describe("HA client logging", () => {
  it("writes one line per connection event and never the token", async () => {
    ha = await startFakeHa({ token: TOKEN });
    const { logger, lines } = capturingLogger();
    const c = createHaClient({
      wsUrl: ha.wsUrl,
      apiUrl: "http://127.0.0.1:1/api",
      token: TOKEN,
      logger,
      pingIntervalMs: 30,
      pongTimeoutMs: 1_000,
      backoff: { initialMs: 20, maxMs: 40 },
    });
    await c.connect();
    ha.dropAll();
    await waitUntil(() => lines.some((l) => l.msg.startsWith("reconnected")), "the reconnect line");
    ha.refuseAuth(true);
    ha.dropAll();
    await waitUntil(() => c.status === "auth_failed", "auth_failed");
    await c.close();

    const messages = lines.map((l) => l.msg);
    expect(messages.filter((m) => m === "connected to Home Assistant")).toHaveLength(1);
    expect(messages.filter((m) => m === "connection to Home Assistant lost; reconnecting")).toHaveLength(2);
    expect(messages.some((m) => /^HA reconnect attempt 1 in \d+\.\ds$/.test(m))).toBe(true);
    expect(messages.filter((m) => m.startsWith("reconnected to Home Assistant"))).toHaveLength(1);
    const authFailed = lines.filter((l) => l.msg.startsWith("HA auth failed"));
    expect(authFailed).toHaveLength(1);
    expect(authFailed[0]?.level).toBe("error");
    expect(messages).toContain("connection to Home Assistant closed");
    for (const line of lines) expect(line.raw).not.toContain(TOKEN);
  });
});
