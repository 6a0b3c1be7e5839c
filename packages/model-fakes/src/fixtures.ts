import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * A stream in the exact shape a real server sends it (see fixtures/openai/README.md):
 * what the fakes' own streams are held against, and what a client's parser can be fed.
 * The folder sits beside src/ and dist/, so this reads the same from either.
 */
export function streamFixture(name: string): string {
  return readFileSync(fileURLToPath(new URL(`../fixtures/openai/${name}`, import.meta.url)), "utf8");
}
