import { createHash } from "node:crypto";
import { z } from "zod";
import { ground, type Diagnosis } from "./grounding.js";
import { definePersona, DEFAULT_MAX_TOKENS, maxTokensArgument, type ArgumentKind, type PersonaContext, type PersonaSpec } from "./persona.js";
import { fitPriming, type PrimingSection } from "./priming.js";
import { PersonaError } from "./errors.js";
import { areaOverview, diagnosisSections, energySections, LOGS_FOR_ADMINS, NO_ENERGY } from "./sections.js";
import { areaEntities, asOf, queryEntities, stateLine, when, zoneOf } from "./targets.js";
import type { UserPersonaFile } from "./user-schema.js";

interface ErrorsAnswer {
  integrations: { integration: string; occurrences: number; errors: number; warnings: number; last_seen: string }[];
  records: { integration: string; level: string; message: string; count: number; last_seen: string }[];
}

/** `{{name}}` → the argument's value; an argument not given leaves the text empty. */
export function fill(template: string, args: Record<string, string | undefined>): string {
  return template.replace(/\{\{\s*([a-z][a-z0-9_]*)\s*\}\}/g, (_, key: string) => (Object.hasOwn(args, key) ? (args[key] ?? "") : ""));
}

/**
 * A persona from a checked file. Its version is a digest of the file's text,
 * so a journaled turn names exactly the file it ran with.
 */
export function userPersona(args: { file: UserPersonaFile; name: string; text: string }): PersonaSpec {
  const { file } = args;
  const shape: Record<string, z.ZodType> = {};
  const kinds: Record<string, ArgumentKind> = {};
  for (const a of file.arguments) {
    const value = z.string().min(1).max(2_000);
    shape[a.name] = (a.required ? value : value.optional()).describe(a.description ?? a.name);
    kinds[a.name] = a.type;
  }
  shape.max_tokens = maxTokensArgument;
  return definePersona({
    name: args.name,
    title: file.title,
    description: file.description,
    version: createHash("sha256").update(args.text).digest("hex").slice(0, 12),
    arguments: z.object(shape),
    kinds,
    async resolve(given, ctx) {
      const values = given as Record<string, string | undefined> & { max_tokens?: number };
      const now = ctx.clock.now();
      const zone = await zoneOf(ctx);
      const sections = await primingSections({ file, values, ctx, now, zone });
      const fitted = fitPriming({ heading: `# ${file.title} ${asOf(now, zone)}`, sections, maxTokens: values.max_tokens ?? file.max_tokens ?? DEFAULT_MAX_TOKENS });
      return { systemPrompt: fill(file.system_prompt, values), priming: fitted.text, tools: file.tools, omitted: fitted.omitted };
    },
  });
}

/** The file's `priming` block, read through the same code as the built-ins and the grounding tools. */
async function primingSections(args: { file: UserPersonaFile; values: Record<string, string | undefined>; ctx: PersonaContext; now: number; zone: string }): Promise<PrimingSection[]> {
  const { values, ctx, now, zone } = args;
  const p = args.file.priming;
  const text = (t: string | undefined) => (t === undefined ? undefined : fill(t, values) || undefined);
  const sections: PrimingSection[] = [];
  if (p.diagnose !== undefined) {
    const ids = (Array.isArray(p.diagnose) ? p.diagnose : [p.diagnose]).map((t) => fill(t, values)).filter(Boolean);
    for (const id of ids) sections.push(...diagnosisSections(await ground<Diagnosis>(ctx, "diagnose_entity", { entity_id: id, hours: 24 }), now, zone));
  }
  if (p.entities) {
    const f = p.entities;
    const filter = { area: text(f.area), floor: text(f.floor), domain: text(f.domain), deviceClass: text(f.device_class), label: text(f.label), state: text(f.state) };
    const entities = queryEntities(ctx, Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined))).slice(0, f.limit);
    sections.push({ title: "Entities", lines: entities.map((e) => stateLine(e, now, zone)), more: "state_query" });
  }
  if (p.areas) {
    const scope = p.areas === true ? {} : { area: text(p.areas.area), floor: text(p.areas.floor) };
    sections.push({ title: "Floors and areas, with what is in them", lines: areaOverview(areaEntities(ctx, scope.area ?? "", scope.floor)), more: "render_context with an area or floor" });
  }
  if (p.energy) {
    const area = p.energy === true ? undefined : text(p.energy.area);
    const energy = energySections(areaEntities(ctx, area ?? ""), now, zone);
    if (!energy.some((s) => s.lines.length)) energy.push({ title: "Energy", lines: [NO_ENERGY], more: "state_query" });
    sections.push(...energy);
  }
  if (p.errors) {
    const e = p.errors === true ? { since_hours: 24 } : { since_hours: p.errors.since_hours, ...(text(p.errors.integration) ? { integration: text(p.errors.integration) } : {}) };
    const title = `Log warnings and errors, last ${e.since_hours} h`;
    const answer = await ground<ErrorsAnswer>(ctx, "analyze_errors", { ...e, limit: 30 }).catch((err: unknown) => {
      // Home Assistant shows its logs to administrators only: for anyone else the section says so instead.
      if (err instanceof PersonaError && err.code === "admin_only") return undefined;
      throw err;
    });
    sections.push(
      answer
        ? { title, lines: answer.records.map((r) => `- ${r.level} ${r.integration} ×${r.count}, last ${when(Date.parse(r.last_seen), now, zone)}: ${r.message}`), more: "analyze_errors" }
        : { title, lines: [LOGS_FOR_ADMINS], more: "analyze_errors, as an administrator" },
    );
  }
  return sections;
}

