import { z } from "zod";
import { historyDuringPeriod, logbookEvents, statisticsDuringPeriod } from "../history/queries.js";
import { systemLogEntries } from "../logs.js";
import { CommandError, EmptySchema, defineCommand, type Command } from "./command.js";

const idList = z.union([z.string(), z.array(z.string())]);
const list = (v: string | string[] | undefined) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]);

/** Parses an ISO time the way HA's `dt_util.parse_datetime` accepts it; HA answers a bad one with its own code. */
function time(value: string | undefined, code: "invalid_start_time" | "invalid_end_time", fallback?: number): number {
  if (value === undefined && fallback !== undefined) return fallback;
  const ms = value === undefined ? NaN : Date.parse(value);
  if (!Number.isFinite(ms)) throw new CommandError(code, code === "invalid_start_time" ? "Invalid start_time" : "Invalid end_time");
  return ms;
}

/** Recorder-backed commands (history, logbook, statistics) and the system log. */
export const recorderCommands: Command[] = [
  defineCommand(
    "history/history_during_period",
    z.object({
      start_time: z.string(),
      end_time: z.string().optional(),
      entity_ids: z.array(z.string()).min(1),
      include_start_time_state: z.boolean().optional(),
      significant_changes_only: z.boolean().optional(),
      minimal_response: z.boolean().optional(),
      no_attributes: z.boolean().optional(),
    }),
    (conn, msg) => {
      const now = conn.ctx.home.now();
      const startMs = time(msg.start_time, "invalid_start_time");
      const endMs = time(msg.end_time, "invalid_end_time", now);
      if (startMs > now) return conn.sendResult(msg.id, {});
      for (const entityId of msg.entity_ids) {
        if (!conn.ctx.home.getState(entityId) && !/^[a-z0-9_]+\.[a-z0-9_]+$/.test(entityId)) {
          throw new CommandError("invalid_entity_ids", "Invalid entity_ids");
        }
      }
      conn.sendResult(
        msg.id,
        historyDuringPeriod(conn.ctx.home, {
          startMs,
          endMs,
          entityIds: msg.entity_ids,
          minimal: msg.minimal_response ?? false,
          noAttributes: msg.no_attributes ?? false,
          significantOnly: msg.significant_changes_only ?? true,
          includeStartState: msg.include_start_time_state ?? true,
        }),
      );
    },
  ),

  defineCommand(
    "logbook/get_events",
    z.object({ start_time: z.string(), end_time: z.string().optional(), entity_ids: idList.optional(), device_ids: idList.optional(), context_id: z.string().optional() }),
    (conn, msg) => {
      const now = conn.ctx.home.now();
      const startMs = time(msg.start_time, "invalid_start_time");
      const endMs = time(msg.end_time, "invalid_end_time", now);
      if (startMs > now) return conn.sendResult(msg.id, []);
      conn.sendResult(msg.id, logbookEvents(conn.ctx.home, { startMs, endMs, entityIds: list(msg.entity_ids), deviceIds: list(msg.device_ids) }));
    },
  ),

  defineCommand(
    "recorder/statistics_during_period",
    z.object({
      start_time: z.string(),
      end_time: z.string().optional(),
      statistic_ids: z.array(z.string()).optional(),
      period: z.enum(["5minute", "hour", "day", "week", "month"]),
      types: z.array(z.enum(["change", "last_reset", "max", "mean", "min", "state", "sum"])).optional(),
      units: z.record(z.string(), z.string()).optional(),
    }),
    (conn, msg) => {
      const startMs = time(msg.start_time, "invalid_start_time");
      const endMs = time(msg.end_time, "invalid_end_time", conn.ctx.home.now());
      conn.sendResult(msg.id, statisticsDuringPeriod(conn.ctx.home, { startMs, endMs, statisticIds: msg.statistic_ids ?? [], period: msg.period, types: msg.types }));
    },
  ),

  defineCommand("system_log/list", EmptySchema, (conn, msg) => conn.sendResult(msg.id, systemLogEntries(conn.ctx.home)), { adminOnly: true }),
];
