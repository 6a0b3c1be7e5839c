import { createHaClient } from "../../../src/ha/index.js";
import { silentLogger } from "../../../src/shared/index.js";
import { startSimulator, type House, type Simulator } from "@ha-agent/ha-simulator";
import { createHomeIndex, type HomeIndex } from "../../../src/indexer/home-index.js";

export interface LiveIndex {
  sim: Simulator;
  index: HomeIndex;
  /** Stops the index, then the client, then the simulator. */
  close(): Promise<void>;
}

/** A simulated HA serving `house`, a client connected to it, and a started index over that client. */
export async function startLiveIndex(house: House): Promise<LiveIndex> {
  const sim = await startSimulator({ house });
  const ha = createHaClient({ wsUrl: sim.wsUrl, apiUrl: sim.apiUrl, token: sim.users.tokenFor(), logger: silentLogger, backoff: { initialMs: 20, maxMs: 100 } });
  const index = createHomeIndex({ ha, logger: silentLogger, registryDebounceMs: 20 });
  const close = async () => {
    await index.stop();
    await ha.close();
    await sim.close();
  };
  try {
    await ha.connect();
    await index.start();
  } catch (err) {
    await close();
    throw err;
  }
  return { sim, index, close };
}
