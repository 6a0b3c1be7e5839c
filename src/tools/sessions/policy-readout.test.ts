import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openStore } from "../../store/index.js";
import type { ActuationCeiling } from "../actions/index.js";
import { ToolRegistry } from "../registry.js";
import type { ToolCallContext } from "../tool.js";
import { createSessionTools } from "./index.js";

const ctx: ToolCallContext = { principal: { id: "user-alice", name: "Alice", kind: "user", isAdmin: true }, signal: new AbortController().signal, progress: async () => undefined };
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface InEffect {
  may: string[];
  asks_first: string[];
  refused: string[];
}

async function readout(ceiling: ActuationCeiling, policy: Record<string, unknown>): Promise<{ started: InEffect; read: InEffect }> {
  const dir = await mkdtemp(join(tmpdir(), "ha-agent-policy-"));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const store = await openStore({ dataDir: dir });
  cleanups.push(() => store.close());
  const registry = new ToolRegistry();
  for (const tool of createSessionTools({ store, ceiling })) registry.register(tool);
  const started = await registry.call("start_session", { policy }, ctx);
  if (!started.ok) throw new Error(started.error.message);
  const read = await registry.call("get_session", { session_id: started.value.session_id }, ctx);
  if (!read.ok) throw new Error(read.error.message);
  return { started: (started.value.policy as { in_effect: InEffect }).in_effect, read: ((read.value.session as { policy: { in_effect: InEffect } }).policy).in_effect };
}

const LIGHTS: ActuationCeiling = { allow: true, allowlist: ["light.*", "lock.*"], approvalRequired: ["lock.*"] };

describe("a session's policy as start_session and get_session report it", () => {
  it("says a session that asks can act after a yes, though allow_actuation is false", async () => {
    const { started, read } = await readout(LIGHTS, { approval: "ask" });
    expect(read).toEqual(started);
    expect(started.asks_first.join("\n")).toMatch(/every call of light \(any service\), lock \(any service\): each waits for the owner's yes/);
    expect(started.asks_first.join("\n")).toMatch(/lock \(any service\): always/);
    expect(started.refused.join("\n")).not.toMatch(/read-only/);
    expect(started.refused.join("\n")).toMatch(/outside the add-on's actuation_allowlist/);
  });

  it("says what runs without asking, what is refused, and which setting would change it", async () => {
    const acts = await readout(LIGHTS, { allow_actuation: true, allowlisted_services: ["light.turn_on"] });
    expect(acts.started.may.join("\n")).toMatch(/call light\.turn_on \(within the add-on's light \(any service\), lock \(any service\)\) without asking, except lock/);
    expect(acts.started.asks_first).toEqual([]);
    expect(acts.started.refused.join("\n")).toMatch(/outside light\.turn_on \(this session's allowlisted_services\)/);
    expect(acts.started.refused.join("\n")).toMatch(/lock \(any service\): it always needs a person's yes, and this session does not ask/);

    const readOnly = await readout(LIGHTS, {});
    expect(readOnly.started.refused).toEqual([expect.stringMatching(/read-only.*policy\.approval "ask" acts after a yes/)]);
    const off = await readout({ allow: false, allowlist: [] }, { allow_actuation: true, approval: "ask" });
    expect(off.started).toMatchObject({ asks_first: [], refused: [expect.stringMatching(/allow_actuation is off/)] });
  });
});
