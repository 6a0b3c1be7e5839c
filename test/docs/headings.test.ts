import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..", "..");

/** The headings of a Markdown text, outside fenced code blocks (a shell comment is not a heading). */
function headings(markdown: string): string[] {
  let fenced = false;
  const found: string[] = [];
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    else if (!fenced && /^#{1,6} /.test(line)) found.push(line.trim());
  }
  return found;
}

function repeated(items: string[]): string[] {
  const seen = new Set<string>();
  return [...new Set(items.filter((item) => seen.has(item) || !seen.add(item)))];
}

// A merge can paste a whole section twice, and the add-on's Documentation tab then tells two stories.
describe("the user's documents tell each story once", () => {
  for (const file of ["README.md", "DOCS.md"]) {
    it(`${file} repeats no heading`, () => {
      expect(repeated(headings(readFileSync(join(root, file), "utf8")))).toEqual([]);
    });
  }

  it("finds a section pasted twice, and ignores headings inside code blocks", () => {
    const text = ["## Options", "text", "```sh", "# a comment", "# a comment", "```", "## Options"].join("\n");
    expect(repeated(headings(text))).toEqual(["## Options"]);
  });
});
