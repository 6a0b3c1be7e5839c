import { z } from "zod";
import { ERROR_LOG, SYSTEM_LOG, type HaAccess, type HistoryResult, type LogbookEntry, type SystemLogEntry } from "../../ha/index.js";
import type { HomeIndex, IndexedEntity } from "../../indexer/index.js";
import { own, systemClock, type Clock } from "../../shared/index.js";
import { name } from "../limits.js";
import { defineTool, fail, ok, type ToolSpec } from "../tool.js";
import { analyzeHistory, isDown, type Availability } from "./availability.js";
import { guarded, progressOf, noteFailure, shortTime, timesIn } from "./common.js";
import { LEVELS, atLeast, createMentionMatcher, logRecords, type LogRecord } from "./log-records.js";
import { logbookLine } from "./logbook-line.js";

const Input = z.object({
  entity_id: name().min(1).describe('e.g. "switch.pump"'),
  hours: z.number().positive().max(168).default(24).describe("Hours back, at most 168"),
});

const LogMatch = z.object({
  integration: z.string(),
  level: z.enum(LEVELS),
  message: z.string(),
  count: z.number().int(),
  last_seen: z.string(),
  matched_on: z.enum(["entity", "device", "integration"]).describe("Whether the message names the entity, its device, or only comes from its integration."),
});

const Output = z.object({
  entity_id: z.string(),
  name: z.string(),
  domain: z.string(),
  state: z.string().nullable(),
  last_changed: z.string().nullable(),
  area: z.string().nullable(),
  floor: z.string().nullable(),
  disabled: z.boolean(),
  hidden: z.boolean(),
  entity_category: z.string().nullable(),
  device: z.object({ device_id: z.string(), name: z.string(), manufacturer: z.string().nullable(), model: z.string().nullable() }).nullable(),
  integration: z.object({ platform: z.string(), title: z.string().nullable() }).nullable(),
  history: z.object({
    window_hours: z.number(),
    state_changes: z.number().int(),
    unavailable_count: z.number().int().describe("Times it went unavailable or unknown."),
    last_unavailable_at: z.string().nullable(),
    unavailable_minutes: z.number(),
    toggles: z.number().int().describe("Changes between real states, e.g. on/off."),
  }),
  recent_changes: z.array(z.object({ state: z.string(), at: z.string() })),
  related: z.array(z.object({ entity_id: z.string(), name: z.string(), state: z.string().nullable() })),
  logbook: z.array(z.object({ when: z.string(), message: z.string() })),
  log_entries: z.array(LogMatch),
  findings: z.array(z.string()).describe("What stands out, in plain words."),
  notes: z.array(z.string()).describe("Parts that could not be read, or that Home Assistant shows to administrators only."),
});

/** What diagnose_entity says in place of log lines for someone Home Assistant does not show its logs to. */
export const LOGS_LEFT_OUT = "Log messages are left out: Home Assistant shows its system log and error log to administrators only.";

const FLAP_OUTAGES = 3;
const FLAP_TOGGLES = 12;
const INTEGRATION_ONLY_SHOWN = 5;

/** `diagnose_entity`: one entity's state, history, device, integration and log mentions, with findings. */
export function createDiagnoseEntityTool(deps: { index: HomeIndex; ha: HaAccess; clock?: Clock; timeZone?: () => Promise<string> }): ToolSpec {
  const clock = deps.clock ?? systemClock;
  return defineTool({
    name: "diagnose_entity",
    title: "Diagnose an entity",
    description:
      "What is going on with one entity: state, recent changes and flaps, its device, integration and siblings, logbook and system-log lines, then findings.",
    input: Input,
    output: Output,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    invoke: (args, ctx) =>
      guarded(deps.index, async () => {
        const e = deps.index.entity(args.entity_id);
        if (!e) {
          const close = deps.index.search(args.entity_id, { limit: 3, includeHidden: true }).map((h) => h.entityId);
          return fail("not_found", `No entity "${args.entity_id}" in this home.${close.length ? ` Closest: ${close.join(", ")}.` : ""} Use index_search to find the id.`);
        }
        const now = clock.now();
        const start = new Date(now - args.hours * 3_600_000);
        const notes: string[] = [];
        const ha = deps.ha.forCaller(ctx.principal);
        // Home Assistant shows its logs to administrators only: for anyone else that part is left out, and the answer says so.
        const readsLogs = ha.allows(SYSTEM_LOG) && ha.allows(ERROR_LOG);
        if (!readsLogs) notes.push(LOGS_LEFT_OUT);
        const step = progressOf(ctx, readsLogs ? 4 : 2);
        const [history, logbook, system, text, zone] = await Promise.all([
          ha.history({ startTime: start, endTime: new Date(now), entityIds: [e.entityId], minimalResponse: true, noAttributes: true }).catch(noteFailure<HistoryResult>(notes, "History", {})).then(step("history read")),
          ha.logbook({ startTime: start, endTime: new Date(now), entityIds: [e.entityId], ...(e.deviceId ? { deviceIds: [e.deviceId] } : {}) }).catch(noteFailure<LogbookEntry[]>(notes, "The logbook", [])).then(step("logbook read")),
          readsLogs ? ha.systemLog().catch(noteFailure<SystemLogEntry[]>(notes, "The system log", [])).then(step("system log read")) : [],
          readsLogs ? ha.errorLog().catch(noteFailure(notes, "The error log", "")).then(step("error log read")) : "",
          deps.timeZone?.() ?? "UTC",
        ]);
        const iso = timesIn(await deps.timeZone?.());
        const avail = analyzeHistory(own(history, e.entityId), now);
        const logs = matchLogs({ e, records: logRecords(system, text), index: deps.index, since: start.getTime() });
        const device = e.deviceId ? deps.index.device(e.deviceId) : undefined;
        const related = e.deviceId ? deps.index.entitiesOfDevice(e.deviceId).filter((id) => id !== e.entityId) : [];

        return ok({
          entity_id: e.entityId,
          name: e.name,
          domain: e.domain,
          state: e.state?.state ?? null,
          last_changed: e.state ? iso(e.state.lastChanged) : null,
          area: e.areaName,
          floor: e.floorName,
          disabled: e.disabled,
          hidden: e.hidden,
          entity_category: e.entityCategory,
          device: device ? { device_id: device.deviceId, name: device.name, manufacturer: device.manufacturer, model: device.model } : null,
          integration: e.platform ? { platform: e.platform, title: e.integrationTitle } : null,
          history: {
            window_hours: args.hours,
            state_changes: Math.max(0, avail.changes.length - 1),
            unavailable_count: avail.outages,
            last_unavailable_at: avail.lastOutageAt === null ? null : iso(avail.lastOutageAt),
            unavailable_minutes: Math.round(avail.downMs / 60_000),
            toggles: avail.toggles,
          },
          // The first row is the state at the window's start, not a change: the list holds what state_changes counts.
          recent_changes: avail.changes.slice(1).slice(-15).map((c) => ({ state: c.state, at: iso(c.at) })),
          related: related.map((id) => {
            const r = deps.index.entity(id);
            return { entity_id: id, name: r?.name ?? id, state: r?.state?.state ?? null };
          }),
          logbook: logbook
            .slice(-10)
            .map((l) => ({ when: iso(l.when * 1000), message: logbookLine(l, deps.index) })),
          log_entries: logs.map(({ r, on }) => ({ integration: r.integration, level: r.level, message: r.message, count: r.count, last_seen: iso(r.lastSeen), matched_on: on })),
          findings: findings({ e, avail, hours: args.hours, now, zone, logs, deviceDisabled: device?.disabled ?? false }),
          notes,
        });
      }),
  });
}

type Matched = { r: LogRecord; on: "entity" | "device" | "integration" };

function matchLogs(args: { e: IndexedEntity; records: LogRecord[]; index: HomeIndex; since: number }): Matched[] {
  const { e } = args;
  const mentions = createMentionMatcher(args.index);
  const direct: Matched[] = [];
  const integration: Matched[] = [];
  for (const r of args.records) {
    if (r.lastSeen < args.since || !atLeast(r.level, "WARNING")) continue;
    const m = mentions(r);
    if (m.entityIds.includes(e.entityId)) direct.push({ r, on: "entity" });
    else if (e.deviceId && m.deviceIds.includes(e.deviceId)) direct.push({ r, on: "device" });
    else if (e.platform && r.integration === e.platform) integration.push({ r, on: "integration" });
  }
  const byCount = (a: Matched, b: Matched) => b.r.count - a.r.count || b.r.lastSeen - a.r.lastSeen;
  return [...direct.sort(byCount), ...integration.sort(byCount).slice(0, INTEGRATION_ONLY_SHOWN)];
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** What a person would point out, most serious first. */
function findings(args: { e: IndexedEntity; avail: Availability; hours: number; now: number; zone: string; logs: Matched[]; deviceDisabled: boolean }): string[] {
  const { e, avail, hours, now, zone } = args;
  const out: string[] = [];
  const window = `${hours} h`;
  if (e.disabled) out.push(`the entity is disabled (${e.entityId} has no state until it is enabled)`);
  if (args.deviceDisabled) out.push("its device is disabled");
  if (avail.outages > 0) {
    const flapping = avail.outages >= FLAP_OUTAGES ? "flapping: " : "";
    out.push(`${flapping}unavailable ${plural(avail.outages, "time")} in ${window}, last at ${shortTime(avail.lastOutageAt!, now, zone)}`);
  }
  if (avail.toggles >= FLAP_TOGGLES) {
    out.push(`flapping: switched state ${avail.toggles} times in ${window}, last at ${shortTime(avail.lastToggleAt!, now, zone)}`);
  }
  if (e.state && isDown(e.state.state)) {
    out.push(`currently ${e.state.state} since ${shortTime(e.state.lastChanged, now, zone)}`);
  }
  const direct = args.logs.filter((l) => l.on !== "integration");
  const byIntegration = new Map<string, { count: number; on: Set<string>; timeouts: number; errors: number }>();
  for (const { r, on } of direct) {
    const g = byIntegration.get(r.integration) ?? { count: 0, on: new Set<string>(), timeouts: 0, errors: 0 };
    g.count += r.count;
    if (atLeast(r.level, "ERROR")) g.errors += r.count;
    g.on.add(on);
    if (/time(d)?\s?out/i.test(r.message)) g.timeouts += r.count;
    byIntegration.set(r.integration, g);
  }
  for (const [integration, g] of byIntegration) {
    const kind = g.timeouts === g.count ? "timeout" : g.errors === g.count ? "error" : g.errors === 0 ? "warning" : "error or warning";
    const what = kind === "error or warning" ? `${g.count} errors and warnings` : plural(g.count, kind);
    const timeouts = g.timeouts > 0 && g.timeouts < g.count ? ` (${plural(g.timeouts, "timeout")})` : "";
    const target = g.on.has("entity") ? "this entity" : "this device";
    out.push(`integration ${integration} logged ${what} for ${target}${timeouts}`);
  }
  if (avail.changes.length <= 1 && e.state && !isDown(e.state.state) && now - e.state.lastChanged > hours * 3_600_000) {
    out.push(`no state change in ${window}`);
  }
  if (out.length === 0) out.push(`no problems found in the last ${window}`);
  return out;
}
