import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openStore } from "../../store/index.js";
import { ToolRegistry } from "../registry.js";
import type { ToolCallContext } from "../tool.js";
import { createSessionTools } from "./index.js";

const ctx: ToolCallContext = { principal: { id: "u1", name: "Test", kind: "user", isAdmin: true }, signal: new AbortController().signal, progress: async () => undefined };

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function registryOverStore(): Promise<ToolRegistry> {
  const dir = await mkdtemp(join(tmpdir(), "ha-agent-allowlist-"));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const store = await openStore({ dataDir: dir });
  cleanups.push(() => store.close());
  const registry = new ToolRegistry();
  for (const tool of createSessionTools({ store })) registry.register(tool);
  return registry;
}

describe("start_session allowlisted_services", () => {
  it("refuses a malformed pattern, naming the entry and the grammar", async () => {
    const registry = await registryOverStore();
    const outcome = await registry.call("start_session", { policy: { allow_actuation: true, allowlisted_services: ["light.turn_on", "lights on"] } }, ctx);
    expect(outcome).toMatchObject({ ok: false, error: { code: "invalid_argument" } });
    const message = outcome.ok ? "" : outcome.error.message;
    expect(message).toContain("policy.allowlisted_services.1");
    expect(message).toContain('"lights on" is not a service pattern');
    expect(message).toContain('"light.*"');
    expect(await registry.call("list_sessions", {}, ctx)).toMatchObject({ ok: true, value: { sessions: [] } });
  });

  it("keeps well-formed patterns, wildcards included", async () => {
    const registry = await registryOverStore();
    const outcome = await registry.call("start_session", { policy: { allow_actuation: true, allowlisted_services: ["light.*", "*.turn_off", "switch.toggle"] } }, ctx);
    expect(outcome).toMatchObject({ ok: true, value: { policy: { allowlisted_services: ["light.*", "*.turn_off", "switch.toggle"] } } });
  });
});
