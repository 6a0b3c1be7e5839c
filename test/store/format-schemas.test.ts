import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FORMAT_VERSION, MIGRATIONS } from "../../src/store/index.js";
import { STORED_RECORDS, storedSchemas } from "./stored-schemas.js";

const snapshotFile = (version: number) => join(import.meta.dirname, "formats", `format-${version}.schemas.json`);

/**
 * The rule of docs/storage.md: a stored record changes shape only with a new
 * FORMAT_VERSION and a migration step to it. Each version's schemas are kept
 * in test/store/formats/; run with UPDATE_FORMAT_SNAPSHOT=1 to write the
 * snapshot of a new version (never to overwrite an existing one).
 */
describe("the data format", () => {
  it("has every stored record in the shape its format version's snapshot says", () => {
    const path = snapshotFile(FORMAT_VERSION);
    const today = storedSchemas();
    if (process.env.UPDATE_FORMAT_SNAPSHOT === "1" && !existsSync(path)) writeFileSync(path, `${JSON.stringify(today, null, 2)}\n`);
    expect(existsSync(path), `${path} is missing: a new FORMAT_VERSION needs its snapshot; write it with UPDATE_FORMAT_SNAPSHOT=1 npx vitest run test/store/format-schemas.test.ts`).toBe(true);
    const snapshot = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
    for (const [name, schema] of Object.entries(today)) {
      const { where } = STORED_RECORDS[name]!;
      expect(
        schema,
        `the stored record "${name}" (${where}) is not in the shape of data format ${FORMAT_VERSION}: bump FORMAT_VERSION and add a migration (src/store/migrations.ts), then write the new snapshot with UPDATE_FORMAT_SNAPSHOT=1 (docs/storage.md, "Changing a stored record")`,
      ).toEqual(snapshot[name]);
    }
    expect(Object.keys(snapshot).sort(), `records were added or removed since data format ${FORMAT_VERSION}: bump FORMAT_VERSION and add a migration`).toEqual(Object.keys(today).sort());
  });

  it("has one migration step for each version from 1 to FORMAT_VERSION, in order", () => {
    expect(MIGRATIONS.map((s) => [s.from, s.to])).toEqual(Array.from({ length: FORMAT_VERSION - 1 }, (_, i) => [i + 1, i + 2]));
  });

  it("keeps a fixture data directory written by each released format", () => {
    for (let v = 1; v <= FORMAT_VERSION; v++) expect(existsSync(join(import.meta.dirname, "..", "fixtures", `data-format-${v}`, "sessions")), `test/fixtures/data-format-${v} (scripts/write-data-fixture.mjs)`).toBe(true);
  });
});
