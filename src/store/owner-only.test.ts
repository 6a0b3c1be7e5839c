import { chmod, lstat, mkdir, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runFsck } from "./fsck.js";
import { openStore } from "./index.js";
import { useTempDirs } from "../../test/support/store/temp-dir.js";

const tempDir = useTempDirs();
const modeOf = async (path: string) => (await lstat(path)).mode & 0o777;

/** A data directory as an older version left it: folders 0755, files 0644, one session with a turn. */
async function olderDataDir(): Promise<{ dataDir: string; files: string[]; folders: string[] }> {
  const dataDir = await tempDir();
  const store = await openStore({ dataDir });
  const session = await store.sessions.create({ owner: "u" });
  const { continuation } = await store.continuations.create("u", session.id, { message: "which lights are on?" });
  await store.steps.append("u", continuation.id, { type: "plan", detail: "look" });
  await store.continuations.update("u", continuation.id, { status: "completed", response: { finalMessage: "none" } });
  await store.close();
  await mkdir(join(dataDir, "index"));
  await writeFile(join(dataDir, "index", "meta.json"), "{}");
  const dir = join(dataDir, "sessions", session.id);
  const folders = ["sessions", `sessions/${session.id}`, `sessions/${session.id}/turns`, `sessions/${session.id}/logs`, "index", "tmp", "artifacts"].map((p) => join(dataDir, p));
  const files = [join(dir, "session.json"), join(dir, "turns", `${continuation.id}.json`), join(dir, "logs", `${continuation.id}.log`), join(dataDir, "index", "meta.json")];
  for (const f of folders) await chmod(f, 0o755);
  for (const f of files) await chmod(f, 0o644);
  return { dataDir, files, folders };
}

describe("owner-only files", () => {
  it("creates every file 0600 and every folder 0700", async () => {
    const dataDir = await tempDir();
    const store = await openStore({ dataDir });
    const session = await store.sessions.create({ owner: "u" });
    await store.close();
    expect(await modeOf(join(dataDir, "sessions"))).toBe(0o700);
    expect(await modeOf(join(dataDir, "sessions", session.id, "turns"))).toBe(0o700);
    expect(await modeOf(join(dataDir, "sessions", session.id, "session.json"))).toBe(0o600);
  });

  it("makes what an older version left readable by others owner-only at start, and says so", async () => {
    const { dataDir, files, folders } = await olderDataDir();
    const store = await openStore({ dataDir });
    await store.close();
    for (const f of files) expect(await modeOf(f), f).toBe(0o600);
    for (const f of folders) expect(await modeOf(f), f).toBe(0o700);
    expect(store.recovery.modesTightened).toBe(files.length + folders.length);
    expect(store.recovery.problems).toContainEqual(expect.stringContaining("they are owner-only now"));
  });

  it("never follows a symbolic link, nor changes what it points to", async () => {
    const dataDir = await tempDir();
    const outside = join(await tempDir(), "elsewhere.txt");
    await writeFile(outside, "not HA Agent's");
    await chmod(outside, 0o644);
    await mkdir(join(dataDir, "sessions"), { recursive: true, mode: 0o755 });
    await symlink(outside, join(dataDir, "sessions", "link"));
    const store = await openStore({ dataDir });
    await store.close();
    expect((await stat(outside)).mode & 0o777).toBe(0o644);
    expect(await modeOf(join(dataDir, "sessions"))).toBe(0o700);
  });

  it("fsck counts loose files without changing them, and --repair makes them owner-only", async () => {
    const { dataDir, files } = await olderDataDir();
    const checked = await runFsck({ dataDir, repair: false });
    expect(checked.findings).toContainEqual(expect.stringContaining(`${files.length + 7} files and folders under the data directory can be read by other users`));
    expect(await modeOf(files[0]!)).toBe(0o644);
    await runFsck({ dataDir, repair: true });
    for (const f of files) expect(await modeOf(f), f).toBe(0o600);
  });
});
