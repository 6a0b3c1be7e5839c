import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { silentLogger } from "../shared/index.js";
import { PersonaRegistry, watchPersonaDir } from "./index.js";

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

const GOOD = ["name: night_check", "title: Night check", "description: What is still on at night.", "system_prompt: Say what is on.", "tools: [state_query]", ""].join("\n");

describe("a folder of user personas", () => {
  it("reports a file it cannot read, naming it, and still loads the others", async () => {
    const dir = await mkdtemp(join(tmpdir(), "personas-"));
    dirs.push(dir);
    await writeFile(join(dir, "night_check.yaml"), GOOD);
    // A folder named like a persona file: reading it fails as an unreadable file would.
    await mkdir(join(dir, "broken.yaml"));
    const registry = new PersonaRegistry();
    const watched = watchPersonaDir({ dir, registry, logger: silentLogger });
    await watched.ready;
    watched.close();
    expect(watched.problems().map((p) => p.file)).not.toContain(join(dir, "night_check.yaml"));
    expect(registry.list().map((e) => e.spec.name)).toContain("night_check");
    expect(watched.problems()).toEqual([expect.objectContaining({ file: join(dir, "broken.yaml"), message: expect.stringContaining("cannot be read") })]);
  });
});
