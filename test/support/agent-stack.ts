import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHaClient } from "../../src/ha/index.js";
import { createHomeIndex, type HomeIndex } from "../../src/indexer/index.js";
import type { ModelClient } from "../../src/models/index.js";
import { silentLogger, systemClock, type Principal } from "../../src/shared/index.js";
import { demoHouse, startSimulator, type Simulator } from "@ha-agent/ha-simulator";
import { openStore, type Store } from "../../src/store/index.js";
import { createCallServiceTool, createGroundingTools, ToolRegistry, type ActuationCeiling } from "../../src/tools/index.js";
import { AgentRuntime, type AgentRuntimeOptions } from "../../src/agent/index.js";

/**
 * A runtime over the demo house in the simulator, with a store in a temp
 * folder, for tests of whole turns. Each test file runs `runCleanups` after
 * each test.
 */
export const alice: Principal = { id: "alice", name: "Alice", kind: "user", isAdmin: true };
export const cleanups: (() => Promise<unknown>)[] = [];
export async function runCleanups(): Promise<void> {
  for (const c of cleanups.splice(0).reverse()) await c();
}

export interface Stack {
  sim: Simulator;
  index: HomeIndex;
  registry: ToolRegistry;
  dir: string;
  store: Store;
  /** `asked` collects the model names the runtime asks for (undefined: the configured one). */
  runtime(model: ModelClient | undefined, ceiling?: ActuationCeiling, asked?: (string | undefined)[], extra?: Partial<AgentRuntimeOptions>): AgentRuntime;
  reopen(): Promise<Store>;
}

export async function stack(): Promise<Stack> {
  const sim = await startSimulator({ house: demoHouse() });
  cleanups.push(() => sim.close());
  const ha = createHaClient({ wsUrl: sim.wsUrl, apiUrl: sim.apiUrl, token: sim.users.tokenFor(), logger: silentLogger });
  cleanups.push(() => ha.close());
  const index = createHomeIndex({ ha, logger: silentLogger });
  cleanups.push(() => index.stop());
  await ha.connect();
  await index.start();
  const dir = await mkdtemp(join(tmpdir(), "runtime-"));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const s: Stack = {
    sim,
    index,
    dir,
    registry: new ToolRegistry(),
    store: await openStore({ dataDir: dir }),
    runtime(model, ceiling = { allow: false, allowlist: [] }, asked = [], extra = {}) {
      const registry = new ToolRegistry();
      for (const t of [...createGroundingTools({ index, ha }), createCallServiceTool({ ha, index, ceiling })]) registry.register(t);
      s.registry = registry;
      return new AgentRuntime({
        store: s.store,
        registry,
        index,
        clock: systemClock,
        logger: silentLogger,
        ceiling,
        models: {
          get: async (name) => {
            asked.push(name);
            return model;
          },
          // Scripted runtimes let every caller choose any model; the owner's rules are tested against the real model source.
          check: () => {},
          missing: () => "No model is configured: set model_provider and gemini_api_key.",
        },
        ...extra,
      });
    },
    async reopen() {
      await s.store.close();
      s.store = await openStore({ dataDir: dir });
      return s.store;
    },
  };
  cleanups.push(() => s.store.close());
  return s;
}

