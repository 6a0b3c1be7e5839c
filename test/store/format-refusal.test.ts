import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmod, cp, lstat, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { FORMAT_FILE, FORMAT_TOO_NEW_EXIT_CODE, FORMAT_VERSION, openStore } from "../../src/store/index.js";
import { MAIN, runProgram } from "../support/program.js";
import { useTempDirs } from "../support/store/temp-dir.js";

const tempDir = useTempDirs();
const NEWER = FORMAT_VERSION + 1;
const FSCK = join(MAIN, "..", "store", "fsck-cli.js");

/** Every entry under `dir`: name, type, mode, modification time and, for files, a hash of the bytes. */
async function fingerprint(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (path: string) => {
    const info = await lstat(path);
    const content = info.isFile() ? createHash("sha256").update(await readFile(path)).digest("hex") : "";
    out.push(`${relative(dir, path) || "."} ${info.isDirectory() ? "d" : "f"} ${(info.mode & 0o7777).toString(8)} ${info.mtimeMs} ${content}`);
    if (info.isDirectory()) for (const name of (await readdir(path)).sort()) await walk(join(path, name));
  };
  await walk(dir);
  return out;
}

/**
 * This release's fixture as a newer HA Agent would leave it: every record and
 * format.json one format ahead (`withMarker: false`: a directory whose
 * format.json was lost, so only the records say it).
 */
async function newerDataDir(options: { withMarker: boolean }): Promise<string> {
  const dataDir = await tempDir();
  await cp(join(import.meta.dirname, "..", "fixtures", `data-format-${FORMAT_VERSION}`), dataDir, { recursive: true });
  for (const entry of await readdir(dataDir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    await chmod(path, entry.isDirectory() ? 0o700 : 0o600);
    if (entry.isFile() && entry.name.endsWith(".json") && /^(sessions|artifacts)\//.test(relative(dataDir, path))) {
      await writeFile(path, `${JSON.stringify({ ...(JSON.parse(await readFile(path, "utf8")) as object), formatVersion: NEWER })}\n`);
    }
  }
  if (options.withMarker) await writeFile(join(dataDir, FORMAT_FILE), `${JSON.stringify({ formatVersion: NEWER, writtenBy: "9.9.9", updatedAt: 1767225600000 })}\n`);
  else await rm(join(dataDir, FORMAT_FILE));
  return dataDir;
}

describe("data written by a newer HA Agent (a rolled-back add-on)", () => {
  it("stops the program with exit code 4 and one sentence that says what to do, and changes nothing on disk", async () => {
    const dataDir = await newerDataDir({ withMarker: true });
    const before = await fingerprint(dataDir);
    const program = runProgram({ HA_URL: "http://127.0.0.1:9", HA_TOKEN: "unused", DATA_DIR: dataDir, MCP_PORT: "0", STATUS_PORT: "0" });
    const { code } = await program.exited;
    expect(code).toBe(FORMAT_TOO_NEW_EXIT_CODE);
    expect(program.stderr().trim()).toBe(
      `The data directory ${dataDir} was written by HA Agent 9.9.9 in data format ${NEWER}, but this HA Agent reads data format ${FORMAT_VERSION} at most, so it changed nothing and stops: update HA Agent again, or restore the backup made before the update.`,
    );
    expect(await fingerprint(dataDir)).toEqual(before);
  });

  it("is refused by the records themselves when format.json is lost, still before anything is written", async () => {
    const dataDir = await newerDataDir({ withMarker: false });
    const before = await fingerprint(dataDir);
    await expect(openStore({ dataDir })).rejects.toMatchObject({ code: "format_too_new", message: expect.stringContaining(`in data format ${NEWER}`) });
    expect(await fingerprint(dataDir)).toEqual(before);
  });

  it("makes fsck, with or without --repair, exit 4 without checking or changing anything", async () => {
    const dataDir = await newerDataDir({ withMarker: true });
    const before = await fingerprint(dataDir);
    for (const args of [[], ["--repair"]]) {
      const run = spawnSync(process.execPath, [FSCK, "--data", dataDir, ...args], { encoding: "utf8" });
      expect(run.status).toBe(FORMAT_TOO_NEW_EXIT_CODE);
      expect(run.stderr).toMatch(/^fsck did not run: The data directory .* update HA Agent again, or restore the backup made before the update\.\n$/);
    }
    expect(await fingerprint(dataDir)).toEqual(before);
  });
});
