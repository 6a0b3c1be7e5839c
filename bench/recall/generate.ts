/**
 * Draws the template requests of the recall corpus: for each home, Home
 * Assistant's sentence templates in the home's language, filled with the
 * home's own entity, area and floor names, each with the entities the
 * template's intent would act on. Writes bench/recall/corpus/<home>.json.
 *
 * Usage (after `npm run build:bench`):
 *   node dist-bench/bench/recall/generate.js --intents <git dir of home-assistant/intents>
 */
import { writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import type { EntityFact } from "./home-spec.js";
import type { HomeView } from "./home-view.js";
import { HOMES } from "./homes/index.js";
import { corpusPath, type Request, type RequestKind } from "./corpus.js";
import { readLanguage, type Block, type LanguageSource } from "./intents-source.js";
import { draw, parseTemplate, seeded, slotsOf, tidy, type Node } from "./template.js";

/** Intents about entities; timers, time, broadcasts and small talk are left out. */
const DEFAULT_DOMAINS = new Map<string, string[]>(Object.entries({
  HassTurnOn: ["light", "switch", "fan", "media_player", "input_boolean", "cover", "valve", "lock", "scene", "script", "humidifier"],
  HassTurnOff: ["light", "switch", "fan", "media_player", "input_boolean", "cover", "valve", "lock", "humidifier"],
  HassToggle: ["light", "switch", "fan", "input_boolean"],
  HassGetState: ["light", "switch", "fan", "cover", "lock", "sensor", "binary_sensor", "person", "input_boolean", "media_player", "valve", "climate", "vacuum"],
  HassLightSet: ["light"],
  HassClimateGetTemperature: ["climate"],
  HassClimateSetTemperature: ["climate"],
  HassSetPosition: ["cover", "valve"],
  HassMediaPause: ["media_player"],
  HassMediaUnpause: ["media_player"],
  HassMediaNext: ["media_player"],
  HassMediaPrevious: ["media_player"],
  HassSetVolume: ["media_player"],
  HassMediaSearchAndPlay: ["media_player"],
  HassVacuumStart: ["vacuum"],
  HassVacuumReturnToBase: ["vacuum"],
  HassListAddItem: ["todo"],
  HassListCompleteItem: ["todo"],
  HassShoppingListAddItem: ["todo"],
  HassShoppingListCompleteItem: ["todo"],
  HassGetWeather: ["weather"],
}));

const QUESTIONS = new Set(["HassGetState", "HassClimateGetTemperature", "HassGetWeather"]);
const PER_HOME = 230;

function argValue(flag: string): string | undefined {
  const i = process.argv.indexOf(flag);
  return i > 0 ? process.argv[i + 1] : undefined;
}

interface Pick {
  entity?: EntityFact;
  area?: string;
  floor?: string;
  near?: string;
}

/** The domains and classes a block is about, after what the drawn sentence said ({on_off_domains:domain} and the like). */
function scope(block: Block, drawn: Map<string, string>): { domains: string[]; classes: string[] | null } {
  const domain = drawn.get("domain") ?? block.slots.get("domain");
  const cls = drawn.get("device_class") ?? block.slots.get("device_class");
  const domains = (domain ? [domain] : block.domains ?? DEFAULT_DOMAINS.get(block.intent) ?? []).filter((d) => !block.excludedDomains.includes(d));
  const classes = cls ? [cls] : block.deviceClasses;
  return { domains, classes };
}

function fits(f: EntityFact, domains: string[], classes: string[] | null): boolean {
  if (f.secondary || !domains.includes(f.domain)) return false;
  if (!classes) return true;
  // Cover classes in sentences say "garage"; HA's class is "garage" too, and "door"/"gate"/"window" match theirs.
  return f.deviceClass !== null && classes.includes(f.deviceClass);
}

function targetsOf(args: { block: Block; pick: Pick; drawn: Map<string, string>; facts: EntityFact[] }): string[] {
  const { block, pick, drawn, facts } = args;
  if (pick.entity) return [pick.entity.id];
  const { domains, classes } = scope(block, drawn);
  const where = (f: EntityFact) =>
    pick.area ? f.area === pick.area : pick.floor ? f.floor === pick.floor : pick.near ? f.area === pick.near : true;
  let out = facts.filter((f) => fits(f, domains, classes) && where(f));
  // Asking how warm it is in a room is answered by its thermostat or by its thermometer.
  if (block.intent === "HassClimateGetTemperature") out = [...out, ...facts.filter((f) => where(f) && f.domain === "sensor" && f.deviceClass === "temperature")];
  // The shopping-list intents act on the home's shopping list, which each home lists first among its lists.
  if (block.intent.startsWith("HassShoppingList")) out = out.slice(0, 1);
  return out.map((f) => f.id);
}

function kindOf(block: Block, pick: Pick): RequestKind {
  if (!pick.entity && !pick.area && !pick.floor) return "underspecified";
  return QUESTIONS.has(block.intent) ? "question" : "command";
}

function shuffle<T>(items: T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** The template requests for one home, drawn from its language's templates. */
export function generate(spec: HomeView, source: LanguageSource): Request[] {
  const random = seeded([...spec.id].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7));
  const facts = spec.facts;
  const parsedRules = new Map<string, Node>();
  const ruleOf = (block: Block) => (name: string) => {
    const text = block.rules.get(name) ?? source.rules.get(name);
    if (text === undefined) return undefined;
    const key = `${block.rules.has(name) ? block.intent : ""}\u0000${name}`;
    let node = parsedRules.get(key);
    if (!node) parsedRules.set(key, (node = parseTemplate(text)));
    return node;
  };
  const areaName = (id: string) => {
    const a = spec.areas.find((x) => x.id === id)!;
    // People mostly say the area's name; now and then one of its aliases.
    return a.aliases.length && random() < 0.2 ? a.aliases[Math.floor(random() * a.aliases.length)]! : a.name;
  };
  const floorName = (id: string) => {
    const f = spec.floors.find((x) => x.id === id)!;
    return f.aliases.length && random() < 0.3 ? f.aliases[Math.floor(random() * f.aliases.length)]! : f.name;
  };
  const byIntent = new Map<string, Request[]>();
  const seen = new Set<string>();

  for (const block of source.blocks) {
    if (!DEFAULT_DOMAINS.has(block.intent)) continue;
    for (const sentence of block.sentences) {
      let template: Node;
      try {
        template = parseTemplate(sentence);
      } catch {
        continue;
      }
      const used = slotsOf(template, { rule: ruleOf(block) });
      if (used.has("message") || used.has("timer_name")) continue;
      // A few draws per template, each with its own entity or area.
      for (let attempt = 0; attempt < 6; attempt++) {
        const base = scope(block, new Map());
        const candidates = facts.filter((f) => fits(f, base.domains, base.classes));
        const pick: Pick = {};
        if (used.has("name")) {
          if (!candidates.length) break;
          pick.entity = candidates[Math.floor(random() * candidates.length)]!;
          if (used.has("area")) {
            if (!pick.entity.area) continue;
            pick.area = pick.entity.area;
          }
        } else if (used.has("area")) {
          const areas = [...new Set(candidates.filter((f) => f.area).map((f) => f.area!))];
          if (!areas.length) break;
          pick.area = areas[Math.floor(random() * areas.length)]!;
        } else if (used.has("floor")) {
          const floors = [...new Set(candidates.filter((f) => f.floor).map((f) => f.floor!))];
          if (!floors.length) break;
          pick.floor = floors[Math.floor(random() * floors.length)]!;
        }
        // Where a request with no place in it is spoken, should it turn out to be one.
        const spokenIn = [...new Set(candidates.filter((f) => f.area).map((f) => f.area!))];
        const near = spokenIn.length ? spokenIn[Math.floor(random() * spokenIn.length)]! : undefined;
        const drawn = new Map<string, string>();
        const lists = new Set<string>();
        let here = false;
        const text = draw(template, {
          random,
          rule: ruleOf(block),
          usedRule: (name) => (here ||= name === "here" || name === "in_here"),
          list: (name, slot) => {
            lists.add(name);
            if (name === "name") return pick.entity?.name;
            if (name === "area") return pick.area ? areaName(pick.area) : undefined;
            if (name === "floor") return pick.floor ? floorName(pick.floor) : undefined;
            const def = source.lists.get(name);
            if (!def) return undefined;
            if (def.kind === "range") return String(Math.round(def.from + random() * (def.to - def.from)));
            if (def.kind === "wildcard") {
              const pool = name.includes("item") ? spec.fill.items : spec.fill.media;
              return pool[Math.floor(random() * pool.length)];
            }
            const v = def.values[Math.floor(random() * def.values.length)]!;
            drawn.set(slot, v.out);
            // A list value is itself a small template ("light[s]").
            return draw(parseTemplate(v.in), { random, rule: () => undefined, list: () => undefined });
          },
        });
        if (text === undefined) continue;
        // Optional parts may have left out the name, area or floor the pick prepared.
        if (!lists.has("name")) delete pick.entity;
        if (!lists.has("area")) delete pick.area;
        if (!lists.has("floor")) delete pick.floor;
        if (!pick.entity && !pick.area && !pick.floor && (block.contextArea || here) && near) pick.near = near;
        if (lists.has("zone")) continue;
        const clean = tidy(text);
        if (!clean || seen.has(clean)) continue;
        const targets = targetsOf({ block, pick, drawn, facts });
        if (!targets.length) continue;
        seen.add(clean);
        const request: Request = { text: clean, targets, kind: kindOf(block, pick), source: "template", intent: block.intent, ...(pick.near ? { near: pick.near } : {}) };
        const list = byIntent.get(block.intent) ?? [];
        list.push(request);
        byIntent.set(block.intent, list);
        break;
      }
    }
  }
  // At most PER_HOME requests, taken from every intent in turn so the common ones do not crowd out the rest.
  const queues = [...byIntent.values()].map((l) => shuffle(l, random));
  const out: Request[] = [];
  while (out.length < PER_HOME && queues.some((q) => q.length)) for (const q of queues) if (q.length && out.length < PER_HOME) out.push(q.shift()!);
  return out;
}

function main(): void {
  const gitDir = argValue("--intents");
  if (!gitDir) throw new Error("give --intents <git dir of home-assistant/intents>");
  const only = argValue("--home");
  for (const home of HOMES) {
    if (only && home.view.id !== only) continue;
    const source = readLanguage(gitDir, home.view.language);
    const requests = generate(home.view, source);
    writeFileSync(corpusPath(home.view.id), `${JSON.stringify(requests, null, 1)}\n`);
    const kinds = new Map<string, number>();
    for (const r of requests) kinds.set(r.kind, (kinds.get(r.kind) ?? 0) + 1);
    console.log(`${home.view.id}: ${requests.length} requests (${[...kinds].map(([k, n]) => `${k} ${n}`).join(", ")})`);
  }
}

// Run as a script, not when imported for its generator.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
