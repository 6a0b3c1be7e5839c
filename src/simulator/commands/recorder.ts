import { z } from "zod";
import { historyDuringPeriod, logbookEvents, statisticsDuringPeriod, STATISTIC_TYPES } from "../history/index.js";
import { systemLogEntries } from "../logs.js";
import { CommandError, defineCommand, type Command } from "./command.js";
import { bool, oneOf, str, strList, VALID_ENTITY_ID } from "./fields.js";

/** Parses an ISO time the way HA's `dt_util.parse_datetime` accepts it; HA answers a bad one with its own code. */
function time(value: string | undefined, code: "invalid_start_time" | "invalid_end_time", fallback?: number): number {
  if (value === undefined && fallback !== undefined) return fallback;
  const ms = value === undefined ? NaN : Date.parse(value);
  if (!Number.isFinite(ms)) throw new CommandError(code, code === "invalid_start_time" ? "Invalid start_time" : "Invalid end_time");
  return ms;
}

/** Recorder-backed commands (history, logbook, statistics) and the system log, with HA's schemas. */
export const recorderCommands: Command[] = [
  defineCommand(
    "history/history_during_period",
    {
      start_time: str(),
      end_time: str().optional(),
      entity_ids: strList(),
      include_start_time_state: bool().optional(),
      significant_changes_only: bool().optional(),
      minimal_response: bool().optional(),
      no_attributes: bool().optional(),
    },
    (conn, msg) => {
      const now = conn.ctx.home.now();
      const startMs = time(msg.start_time, "invalid_start_time");
      const endMs = time(msg.end_time, "invalid_end_time", now);
      if (startMs > now) return conn.sendResult(msg.id, {});
      for (const entityId of msg.entity_ids) {
        if (!conn.ctx.home.getState(entityId) && !VALID_ENTITY_ID.test(entityId)) {
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
    { start_time: str(), end_time: str().optional(), entity_ids: strList().optional(), device_ids: strList().optional(), context_id: str().optional() },
    (conn, msg) => {
      const now = conn.ctx.home.now();
      const startMs = time(msg.start_time, "invalid_start_time");
      const endMs = time(msg.end_time, "invalid_end_time", now);
      if (startMs > now) return conn.sendResult(msg.id, []);
      conn.sendResult(msg.id, logbookEvents(conn.ctx.home, { startMs, endMs, entityIds: msg.entity_ids, deviceIds: msg.device_ids }));
    },
  ),

  defineCommand(
    "recorder/statistics_during_period",
    {
      start_time: str(),
      end_time: str().optional(),
      statistic_ids: strList().optional(),
      period: oneOf(["5minute", "hour", "day", "week", "month", "year"]),
      types: z.array(oneOf(STATISTIC_TYPES), { error: "expected a list" }).optional(),
      units: z.record(z.string(), z.string(), { error: "expected dict" }).optional(),
    },
    (conn, msg) => {
      const startMs = time(msg.start_time, "invalid_start_time");
      const endMs = time(msg.end_time, "invalid_end_time", conn.ctx.home.now());
      conn.sendResult(
        msg.id,
        statisticsDuringPeriod(conn.ctx.home, { startMs, endMs, statisticIds: msg.statistic_ids ?? [], period: msg.period, types: msg.types ?? [...STATISTIC_TYPES] }),
      );
    },
  ),

  defineCommand("system_log/list", null, (conn, msg) => conn.sendResult(msg.id, systemLogEntries(conn.ctx.home)), { adminOnly: true }),
];
