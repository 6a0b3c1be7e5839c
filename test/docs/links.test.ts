import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

const root = join(import.meta.dirname, "..", "..");
const read = (file: string) => readFileSync(join(root, file), "utf8");

/** The user's documents: the README, the Documentation tab, and the docs/ pages they hand their reference to. */
const DOCUMENTS = ["README.md", "DOCS.md", "CHANGELOG.md", "docs/agent.md", "docs/clients.md", "docs/development.md", "docs/errors.md", "docs/reference.md", "docs/sign-in.md", "docs/tools.md"];

/** DOCS.md is read in Home Assistant, where only absolute links work: those into this repository are checked like relative ones. */
const REPOSITORY = (parse(read("config.yaml")) as { url: string }).url;

/** The text outside fenced code blocks. */
function prose(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "");
}

/** GitHub's anchor for each heading: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const [, text] of prose(markdown).matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = text!.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, "").replace(/ /g, "-");
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    found.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return found;
}

/** Each link's target in a document, as the file (relative to the root) and anchor it names; outside links are left out. */
function localLinks(file: string): { target: string; path: string; anchor: string | undefined }[] {
  const links: { target: string; path: string; anchor: string | undefined }[] = [];
  for (const [, target] of prose(read(file)).matchAll(/\]\(([^)\s]+)\)/g)) {
    let local = target!;
    if (local.startsWith(`${REPOSITORY}/blob/main/`) || local.startsWith(`${REPOSITORY}/tree/main/`)) local = local.slice(REPOSITORY.length + "/blob/main/".length);
    else if (local.startsWith(`${REPOSITORY}#`)) local = `README.md${local.slice(REPOSITORY.length)}`;
    else if (/^[a-z][a-z0-9+.-]*:/i.test(local)) continue;
    const [pathPart, anchor] = local.split("#", 2) as [string, string | undefined];
    const base = target!.startsWith(REPOSITORY) ? "" : dirname(file);
    const path = pathPart === "" ? file : normalize(join(base, pathPart)).replace(/\/$/, "");
    links.push({ target: target!, path, anchor });
  }
  return links;
}

describe("links in the user's documents", () => {
  for (const file of DOCUMENTS) {
    it(`${file}: every link into the repository names a file that exists, and an anchor its headings make`, () => {
      const broken: string[] = [];
      for (const { target, path, anchor } of localLinks(file)) {
        if (relative(root, join(root, path)).startsWith("..") || !existsSync(join(root, path))) broken.push(`${target}: no ${path}`);
        else if (anchor !== undefined && !(statSync(join(root, path)).isFile() && anchors(read(path)).has(anchor))) broken.push(`${target}: no heading for #${anchor} in ${path}`);
      }
      expect(broken).toEqual([]);
    });
  }

  it("makes GitHub's anchors", () => {
    const found = anchors("# Why didn't it happen?\n## Option: `allow_actuation`\n## What `index_search` understands\n```sh\n# not a heading\n```\n## Notes\n## Notes");
    expect([...found]).toEqual(["why-didnt-it-happen", "option-allow_actuation", "what-index_search-understands", "notes", "notes-1"]);
  });
});
