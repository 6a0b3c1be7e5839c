import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

const root = join(import.meta.dirname, "..", "..");
const read = (file: string) => readFileSync(join(root, file), "utf8");
const yaml = (file: string) => parse(read(file)) as Record<string, unknown>;

/** The `## ` headings of a Markdown text, outside fenced code blocks. */
function sections(markdown: string): string[] {
  let fenced = false;
  const found: string[] = [];
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    else if (!fenced && line.startsWith("## ")) found.push(line.slice(3).trim());
  }
  return found;
}

/** Prose paragraphs (code blocks, tables and headings left out), whitespace collapsed. */
function paragraphs(markdown: string): string[] {
  const withoutCode = markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "");
  return withoutCode
    .split(/\n\s*\n/)
    .map((p) => p.replace(/\s+/g, " ").trim())
    .filter((p) => p !== "" && !p.startsWith("#") && !p.startsWith("|"));
}

/** Paragraphs of at least `min` characters that both texts hold. */
function sharedParagraphs(a: string, b: string, min = 120): string[] {
  const inB = new Set(paragraphs(b));
  return paragraphs(a).filter((p) => p.length >= min && inB.has(p));
}

/** Lines that tell how the code got here rather than what a user gets. */
const HISTORY = [/\bBefore,/, /\bbefore, (it|each|the|a)\b/i, /\bas before\b/i, /\bno longer\b/i, /\boriginal design\b/i, /\bearlier default\b/i, /\bwas retired\b/i, /\bnpm run bench:/, /\d(\.\d+)?\s*(×|x) (faster|slower|smaller|less|more)\b/];

const historyIn = (text: string) => text.split("\n").filter((line) => HISTORY.some((re) => re.test(line)));

describe("README: one short story, then a reference", () => {
  const readme = read("README.md");

  it("is at most 250 lines", () => {
    expect(readme.trimEnd().split("\n").length).toBeLessThanOrEqual(250);
  });

  it("starts with the quick start, what to try and installing on Home Assistant, before any reference", () => {
    const found = sections(readme);
    expect(found.slice(0, 3)).toEqual(["Quick start", "What to try in the demo", "Install on Home Assistant"]);
    // The first screen tells what HA Agent is, not how its protocol or storage work.
    const firstScreen = readme.slice(0, readme.indexOf("## Quick start"));
    expect(firstScreen).not.toMatch(/2026-07-28|2025-11-25|Streamable HTTP|fsync/);
  });

  it("gives the repository URL of config.yaml and repository.yaml in a code block, with a My Home Assistant link to add it", () => {
    const url = yaml("config.yaml").url as string;
    expect(url).toMatch(/^https:\/\/github\.com\//);
    expect(yaml("repository.yaml").url).toBe(url);
    const install = readme.slice(readme.indexOf("## Install on Home Assistant"));
    expect(install).toMatch(new RegExp("```\\w*\\n" + url.replace(/[.]/g, "\\.") + "\\n```"));
    const redirect = `https://my.home-assistant.io/redirect/supervisor_add_addon_repository/?repository_url=${encodeURIComponent(url)}`;
    expect(install).toContain(`(${redirect})`);
    expect(install).toContain("(https://my.home-assistant.io/badges/supervisor_add_addon_repository.svg)");
  });

  it("names every command CI runs (.ci/run runs what the README tells a user to run)", () => {
    const commands = read(".ci/run").split("\n").filter((l) => /^npm (ci|test|run \S+)$/.test(l.trim()));
    expect(commands.length).toBeGreaterThanOrEqual(4);
    for (const command of commands) expect(readme, command).toContain(command.trim());
  });
});

describe("DOCS.md, the add-on's Documentation tab", () => {
  const docs = read("DOCS.md");

  it("is at most 30 KB", () => {
    expect(Buffer.byteLength(docs)).toBeLessThanOrEqual(30 * 1024);
  });

  it("has installation, configuration and known issues, in that order", () => {
    const found = sections(docs);
    const at = (name: string) => found.indexOf(name);
    expect(at("Installation")).toBe(0);
    expect(at("Configuration")).toBeGreaterThan(at("Installation"));
    expect(found.at(-1)).toBe("Known issues and limitations");
  });

  it("has a section for every option in config.yaml's schema, and none for an option it lacks", () => {
    const options = Object.keys(yaml("config.yaml").schema as object).sort();
    const documented = [...docs.matchAll(/^### Option: `([^`]+)`$/gm)].map((m) => m[1]!).sort();
    expect(documented).toEqual(options);
  });

  it("says what to do when no prebuilt image exists for the system", () => {
    const section = docs.slice(docs.indexOf("### When no prebuilt image exists"));
    expect(section).toMatch(/npm ci/);
    expect(section).toMatch(/delete the `image:` line/);
    expect(section).toMatch(/Raspberry Pi/);
    expect(section).toMatch(/1 GB/);
  });

  it("tells no development history", () => {
    expect(historyIn(docs)).toEqual([]);
  });
});

describe("README and DOCS say each thing once", () => {
  it("share no paragraph of 120 characters or more", () => {
    expect(sharedParagraphs(read("README.md"), read("DOCS.md"))).toEqual([]);
  });

  it("finds a paragraph pasted into both, whatever its line breaks", () => {
    const long = "word ".repeat(30).trim();
    const a = `# A\n\n${long}\n\nshort`;
    const b = `intro\n\n${long.replace(/ /g, "\n")}\n\n| ${long} |`;
    expect(sharedParagraphs(a, b)).toEqual([long]);
    expect(sharedParagraphs("short one\n\nother", "short one")).toEqual([]);
  });
});

describe("CHANGELOG.md, a user's changelog", () => {
  const changelog = read("CHANGELOG.md");

  it("has an entry for config.yaml's version, the first after Unreleased", () => {
    const version = yaml("config.yaml").version as string;
    const releases = sections(changelog).filter((h) => h.startsWith("["));
    expect(releases[0]).toBe("[Unreleased]");
    expect(releases[1]).toBe(`[${version}]`);
  });

  it("tells what a user gets, not how the code got there", () => {
    expect(historyIn(changelog)).toEqual([]);
  });

  it("would catch the telltale lines of development history", () => {
    expect(historyIn("- Before, it named the add-on's internal host name.\n- `npm run bench:tools` prints sizes.\n- 3.2× faster boot\n- Fine.")).toHaveLength(3);
  });
});
