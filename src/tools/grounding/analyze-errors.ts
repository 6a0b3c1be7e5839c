import { z } from "zod";
import { SYSTEM_LOG, type HaAccess } from "../../ha/index.js";
import type { HomeIndex } from "../../indexer/index.js";
import { systemClock, type Clock } from "../../shared/index.js";
import { name } from "../limits.js";
import { defineTool, ok, type ToolSpec } from "../tool.js";
import { guarded, noteFailure, timesIn } from "./common.js";
import { LEVELS, atLeast, createMentionMatcher, logRecords, type LogRecord } from "./log-records.js";

const Input = z.object({
  since_hours: z.number().positive().max(24 * 30).default(24).describe("Hours back, at most 720"),
  min_level: z.enum(LEVELS).default("WARNING").describe("Lowest level"),
  integration: name().optional().describe('e.g. "zha"'),
  entity_id: name().optional().describe("Mentioning this entity or its device"),
  include_error_log: z.boolean().default(true).describe("Also read the text error log"),
  limit: z.number().int().min(1).max(200).default(50).describe("Message groups, 1-200"),
});

const Message = z.object({
  integration: z.string(),
  logger: z.string(),
  level: z.enum(LEVELS),
  message: z.string(),
  count: z.number().int(),
  first_seen: z.string(),
  last_seen: z.string(),
  entities: z.array(z.string()).describe("Entity ids the message mentions, or that belong to a device it mentions."),
  devices: z.array(z.string()).describe("Names of devices the message mentions."),
  source: z.string(),
  origin: z.enum(["system_log", "error_log"]),
});

const Output = z.object({
  window_start: z.string(),
  window_end: z.string(),
  total_occurrences: z.number().int(),
  integrations: z.array(
    z.object({
      integration: z.string(),
      occurrences: z.number().int(),
      messages: z.number().int().describe("Distinct messages."),
      errors: z.number().int().describe("Occurrences at ERROR or CRITICAL."),
      warnings: z.number().int(),
      first_seen: z.string(),
      last_seen: z.string(),
      entities: z.array(z.string()),
    }),
  ),
  devices: z
    .array(z.object({ device_id: z.string(), name: z.string(), occurrences: z.number().int(), integrations: z.array(z.string()) }))
    .describe("Devices the messages name (directly or through one of their entities), most mentioned first."),
  affected: z
    .array(z.object({ entity_id: z.string(), name: z.string(), occurrences: z.number().int(), integrations: z.array(z.string()) }))
    .describe("Entities the messages point at, most mentioned first."),
  records: z.array(Message),
  notes: z.array(z.string()).describe("Parts that could not be read, and an entity_id filter the index does not know."),
});

const MAX_DEVICE_ENTITIES = 8;

/** `analyze_errors`: HA's system log and error log grouped by integration and by entity. */
export function createAnalyzeErrorsTool(deps: { index: HomeIndex; ha: HaAccess; clock?: Clock; timeZone?: () => Promise<string> }): ToolSpec {
  const clock = deps.clock ?? systemClock;
  return defineTool({
    name: "analyze_errors",
    title: "Analyze Home Assistant errors",
    description:
      "Home Assistant's system and error logs, grouped by integration and by the entities and devices they mention, with counts and first/last seen. Administrators only.",
    input: Input,
    output: Output,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    // The agent does not offer it to a session whose owner may not read the log.
    needs: [SYSTEM_LOG],
    invoke: (args, ctx) =>
      guarded(deps.index, async () => {
        const now = clock.now();
        const iso = timesIn(await deps.timeZone?.());
        const since = now - args.since_hours * 3_600_000;
        const notes: string[] = [];
        // Home Assistant shows both logs to administrators only: anyone else gets admin_only, and nothing is read.
        const ha = deps.ha.forCaller(ctx.principal);
        const [system, text] = await Promise.all([
          ha.systemLog().catch(noteFailure(notes, "The system log", [])),
          args.include_error_log ? ha.errorLog().catch(noteFailure(notes, "The error log", "")) : "",
        ]);
        const mentions = createMentionMatcher(deps.index);
        const target = args.entity_id ? deps.index.entity(args.entity_id) : undefined;
        if (args.entity_id && !target) notes.push(`${args.entity_id} is not in the index; matching its id in messages only.`);

        const records = logRecords(system, text)
          .filter((r) => r.lastSeen >= since && atLeast(r.level, args.min_level))
          .filter((r) => !args.integration || r.integration === args.integration.toLowerCase())
          .map((r) => ({ r, ...affectedBy(r, mentions, deps.index) }))
          .filter(({ r, entities, deviceIds }) => {
            if (!args.entity_id) return true;
            return entities.includes(args.entity_id) || (target?.deviceId != null && deviceIds.includes(target.deviceId)) || r.message.includes(args.entity_id);
          })
          .sort((a, b) => b.r.count - a.r.count || b.r.lastSeen - a.r.lastSeen);

        const byIntegration = new Map<string, { occurrences: number; messages: number; errors: number; warnings: number; first: number; last: number; entities: Set<string> }>();
        const byEntity = new Map<string, { occurrences: number; integrations: Set<string> }>();
        const byDevice = new Map<string, { occurrences: number; integrations: Set<string> }>();
        for (const { r, entities, deviceIds } of records) {
          for (const d of deviceIds) {
            const a = byDevice.get(d) ?? { occurrences: 0, integrations: new Set<string>() };
            a.occurrences += r.count;
            a.integrations.add(r.integration);
            byDevice.set(d, a);
          }
          const g = byIntegration.get(r.integration) ?? { occurrences: 0, messages: 0, errors: 0, warnings: 0, first: r.firstSeen, last: r.lastSeen, entities: new Set<string>() };
          g.occurrences += r.count;
          g.messages++;
          if (atLeast(r.level, "ERROR")) g.errors += r.count;
          else if (r.level === "WARNING") g.warnings += r.count;
          g.first = Math.min(g.first, r.firstSeen);
          g.last = Math.max(g.last, r.lastSeen);
          for (const e of entities) g.entities.add(e);
          byIntegration.set(r.integration, g);
          for (const e of entities) {
            const a = byEntity.get(e) ?? { occurrences: 0, integrations: new Set<string>() };
            a.occurrences += r.count;
            a.integrations.add(r.integration);
            byEntity.set(e, a);
          }
        }

        return ok({
          window_start: iso(since),
          window_end: iso(now),
          total_occurrences: records.reduce((n, { r }) => n + r.count, 0),
          integrations: [...byIntegration]
            .sort((a, b) => b[1].occurrences - a[1].occurrences || a[0].localeCompare(b[0]))
            .map(([integration, g]) => ({
              integration,
              occurrences: g.occurrences,
              messages: g.messages,
              errors: g.errors,
              warnings: g.warnings,
              first_seen: iso(g.first),
              last_seen: iso(g.last),
              entities: [...g.entities].sort(),
            })),
          devices: [...byDevice]
            .sort((a, b) => b[1].occurrences - a[1].occurrences || a[0].localeCompare(b[0]))
            .map(([id, a]) => ({ device_id: id, name: deps.index.device(id)?.name ?? id, occurrences: a.occurrences, integrations: [...a.integrations].sort() })),
          affected: [...byEntity]
            .sort((a, b) => b[1].occurrences - a[1].occurrences || a[0].localeCompare(b[0]))
            .map(([id, a]) => ({ entity_id: id, name: deps.index.entity(id)?.name ?? id, occurrences: a.occurrences, integrations: [...a.integrations].sort() })),
          records: records.slice(0, args.limit).map(({ r, entities, deviceNames }) => ({
            integration: r.integration,
            logger: r.logger,
            level: r.level,
            message: r.message,
            count: r.count,
            first_seen: iso(r.firstSeen),
            last_seen: iso(r.lastSeen),
            entities,
            devices: deviceNames,
            source: r.source,
            origin: r.origin,
          })),
          notes,
        });
      }),
  });
}

/** Entities a record points at: those it names, else the visible entities of devices it names. */
function affectedBy(r: LogRecord, mentions: ReturnType<typeof createMentionMatcher>, index: HomeIndex) {
  const m = mentions(r);
  const entities = new Set(m.entityIds);
  if (entities.size === 0) {
    for (const deviceId of m.deviceIds) {
      // The index's own rule for what is shown by default: no hidden, disabled, diagnostic or config entities.
      for (const e of index.query({ device: deviceId }).slice(0, MAX_DEVICE_ENTITIES)) entities.add(e.entityId);
    }
  }
  const deviceNames = m.deviceIds.map((id) => index.device(id)?.name ?? id);
  return { entities: [...entities].sort(), deviceIds: m.deviceIds, deviceNames };
}
