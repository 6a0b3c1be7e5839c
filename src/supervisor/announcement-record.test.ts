import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { countingFs, nodeStoreFs } from "../store/index.js";
import { announcementStore } from "./announcement-record.js";

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe("the announcement record", () => {
  it("is written whole and fsynced, with its folder, and reads back", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "ha-agent-announce-"));
    dirs.push(dataDir);
    const counting = countingFs(nodeStoreFs);
    const store = announcementStore(dataDir, counting.fs);
    const record = { uuid: "abc123", service: "mcp", url: "http://addon:8808/mcp", at: "2026-11-25T20:00:00.000Z" };
    await store.write(record);
    // The file's data, then the folder's rename: both must reach the disk before the uuid is relied on.
    expect(counting.counts.fsyncs).toBeGreaterThanOrEqual(2);
    expect(await store.read()).toEqual(record);
    expect((await readdir(dataDir)).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });
});
