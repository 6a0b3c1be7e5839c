import { chmod, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HA_SECRET, signIn, useGrantStores } from "../../../test/support/oauth/grants.js";

const freshStore = useGrantStores();

const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

describe("oauth/grants.json", () => {
  it("is written 0600 in a 0700 folder, and holds hashes, not the issued tokens", async () => {
    const { store, file } = await freshStore();
    const { tokens } = await store.create(signIn());
    expect(await modeOf(file)).toBe(0o600);
    expect(await modeOf(join(file, ".."))).toBe(0o700);
    const text = await readFile(file, "utf8");
    expect(text).toContain(HA_SECRET);
    expect(text).not.toContain(tokens.access_token);
    expect(text).not.toContain(tokens.refresh_token);
    expect(JSON.parse(text)).toMatchObject({ formatVersion: 1 });
  });

  it("tightens a folder and a file that were left readable by others", async () => {
    const { store, file, open } = await freshStore();
    await store.create(signIn());
    await chmod(join(file, ".."), 0o755);
    await chmod(file, 0o644);
    await open();
    expect(await modeOf(join(file, ".."))).toBe(0o700);
    expect(await modeOf(file)).toBe(0o600);
  });

  it("moves a damaged file aside, warns that everyone must sign in again, and opens empty", async () => {
    const { store, file, open, lines, clock } = await freshStore();
    const { tokens } = await store.create(signIn());
    await writeFile(file, '{"formatVersion":1,"grants":[{"id":');
    const again = await open();
    expect(again.list()).toEqual([]);
    expect(again.authenticate(tokens.access_token)).toBeUndefined();
    const stamp = new Date(clock.now()).toISOString().replace(/[:.]/g, "-");
    expect(await readdir(join(file, ".."))).toEqual([`grants.json.damaged-${stamp}`]);
    const warning = lines.find((line) => line.includes("damaged"));
    expect(warning).toContain('"level":"warn"');
    expect(warning).toContain("must sign in again");
    // The store works on: the next sign-in writes a fresh file.
    await again.create(signIn());
    expect((await open()).list()).toHaveLength(1);
  });

  it("moves aside a file that parses but breaks the schema, or has another format version", async () => {
    const { file, open, lines } = await freshStore();
    await writeFile(file, JSON.stringify({ formatVersion: 1, grants: [{ id: "x" }] }));
    expect((await open()).list()).toEqual([]);
    await writeFile(file, JSON.stringify({ formatVersion: 2, grants: [] }));
    expect((await open()).list()).toEqual([]);
    expect(lines.filter((line) => line.includes("cannot be used"))).toHaveLength(2);
    expect(lines.join("\n")).toContain("format version 2, expected 1");
  });

  it("removes temp files a crash left in the folder", async () => {
    const { file, open } = await freshStore();
    await writeFile(`${file}.0123456789ab.tmp`, "{partial");
    await open();
    expect(await readdir(join(file, ".."))).toEqual([]);
  });
});
