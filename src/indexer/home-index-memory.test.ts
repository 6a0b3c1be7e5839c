import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterEach, describe, expect, it } from "vitest";
import { manualClock, silentLogger } from "../shared/index.js";
import { createHomeIndex } from "./home-index.js";
import { createFakeHa } from "../../test/support/indexer/fake-ha.js";
import { fixtureRegistries, fixtureStates } from "../../test/support/indexer/fixture-home.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describe("createHomeIndex memory", () => {
  // At 10,000 entities the raw registry lists and the first snapshot are
  // tens of megabytes: once the index is built from them, they must go.
  it("keeps neither the raw registries nor the first snapshot once it is ready", async () => {
    const ha = createFakeHa(fixtureRegistries());
    let rawEntities: WeakRef<object> | undefined;
    ha.listEntityRegistry = async () => {
      const copy = structuredClone(ha.registries.entities);
      rawEntities = new WeakRef(copy);
      return copy;
    };
    const index = createHomeIndex({ ha, logger: silentLogger, clock: manualClock(), registryDebounceMs: 5 });
    cleanups.push(() => index.stop());
    const starting = index.start();
    await new Promise((r) => setImmediate(r));
    const firstSnapshot = ((snapshot) => {
      ha.pushEntities({ a: snapshot }, true);
      return new WeakRef(snapshot);
    })(fixtureStates());
    await starting;
    expect(index.entity("switch.kettle")?.name).toBe("Kettle");

    // A WeakRef holds its target until the current job ends.
    await new Promise((r) => setImmediate(r));
    gc();
    expect(rawEntities!.deref(), "the raw entity registry list is still held").toBeUndefined();
    expect(firstSnapshot.deref(), "the first snapshot is still held").toBeUndefined();
  });
});
