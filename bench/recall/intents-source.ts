/**
 * Reads one language of Home Assistant's `intents` repository from a git
 * directory (as `fetch github:home-assistant/intents` brings it): the
 * expansion rules and lists of `_common.yaml`, and every data block of the
 * intent files. Nothing of it is copied into this repository; only the
 * sentences drawn from it are kept.
 */
import { execFileSync } from "node:child_process";
import { parse } from "yaml";

export type ListDef =
  | { kind: "values"; values: { in: string; out: string }[] }
  | { kind: "range"; from: number; to: number }
  | { kind: "wildcard" };

export interface Block {
  intent: string;
  sentences: string[];
  /** Domains the named entity must have (requires_context, or name_domains). */
  domains: string[] | null;
  deviceClasses: string[] | null;
  excludedDomains: string[];
  /** Spoken in an area that the sentence does not name (requires_context area slot). */
  contextArea: boolean;
  slots: Map<string, string>;
  rules: Map<string, string>;
}

export interface LanguageSource {
  language: string;
  rules: Map<string, string>;
  lists: Map<string, ListDef>;
  blocks: Block[];
}

const git = (gitDir: string, args: string[]) => execFileSync("git", ["--git-dir", gitDir, ...args], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });

const asList = (v: unknown): string[] | null => (typeof v === "string" ? [v] : Array.isArray(v) ? v.map(String) : null);

function stringMap(v: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (v && typeof v === "object") for (const [k, val] of Object.entries(v)) if (val !== null && val !== undefined) out.set(k, String(val));
  return out;
}

function listDefs(v: unknown): Map<string, ListDef> {
  const out = new Map<string, ListDef>();
  if (!v || typeof v !== "object") return out;
  for (const [name, def] of Object.entries(v as Record<string, Record<string, unknown>>)) {
    if (def?.wildcard) out.set(name, { kind: "wildcard" });
    else if (def?.range && typeof def.range === "object") {
      const r = def.range as { from?: number; to?: number };
      out.set(name, { kind: "range", from: r.from ?? 0, to: r.to ?? 100 });
    } else if (Array.isArray(def?.values)) {
      out.set(name, {
        kind: "values",
        values: def.values.map((x: unknown) => (typeof x === "object" && x !== null ? { in: String((x as { in: unknown }).in), out: String((x as { out: unknown }).out) } : { in: String(x), out: String(x) })),
      });
    }
  }
  return out;
}

function blockOf(intent: string, raw: Record<string, unknown>): Block {
  const req = (raw.requires_context ?? {}) as Record<string, unknown>;
  const exc = (raw.excludes_context ?? {}) as Record<string, unknown>;
  const area = req.area as { slot?: boolean } | undefined;
  const slots = stringMap(raw.slots);
  if (typeof raw.inferred_domain === "string" && !slots.has("domain")) slots.set("domain", raw.inferred_domain);
  return {
    intent,
    sentences: (raw.sentences as unknown[] | undefined)?.map(String) ?? [],
    domains: asList(req.domain) ?? asList(raw.name_domains),
    deviceClasses: asList(req.device_class),
    excludedDomains: asList(exc.domain) ?? [],
    contextArea: Boolean(area && typeof area === "object" && area.slot),
    slots,
    rules: stringMap(raw.expansion_rules),
  };
}

/** Everything one language has: rules, lists and the data blocks of every intent. */
export function readLanguage(gitDir: string, language: string): LanguageSource {
  const files = git(gitDir, ["ls-tree", "-r", "--name-only", "HEAD", `sentences/${language}/`]).split("\n").filter((f) => f.endsWith(".yaml"));
  const common = parse(git(gitDir, ["show", `HEAD:sentences/${language}/_common.yaml`])) as Record<string, unknown>;
  const lists = listDefs(common.lists);
  const blocks: Block[] = [];
  for (const file of files) {
    if (file.endsWith("/_common.yaml")) continue;
    const doc = parse(git(gitDir, ["show", `HEAD:${file}`])) as Record<string, unknown> | null;
    if (!doc) continue;
    for (const [name, def] of listDefs(doc.lists)) lists.set(name, def);
    if (doc.intents && typeof doc.intents === "object") {
      for (const [intent, body] of Object.entries(doc.intents as Record<string, { data?: Record<string, unknown>[] }>)) {
        for (const raw of body.data ?? []) blocks.push(blockOf(intent, raw));
      }
    } else if (Array.isArray(doc.data)) {
      // The newer layout: sentences/<lang>/<Intent>/<case>.yaml with top-level data.
      const intent = file.split("/").at(-2)!;
      for (const raw of doc.data as Record<string, unknown>[]) blocks.push(blockOf(intent, raw));
    }
  }
  return { language, rules: stringMap(common.expansion_rules), lists, blocks };
}
