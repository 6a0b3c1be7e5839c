import { z } from "zod";
import { historyDuringPeriod, logbookEvents } from "../history/index.js";
import { systemLogEntries } from "../logs.js";
import { STATISTIC_PERIODS, STATISTIC_TYPES, statisticsDuringPeriod, statisticsMetadata } from "../statistics/index.js";
import { unitsOfClass } from "../units.js";
import { CommandError, defineCommand, type Command } from "./command.js";
import { bool, oneOf, str, strList, VALID_ENTITY_ID } from "./fields.js";

/** Parses an ISO time the way HA's `dt_util.parse_datetime` accepts it; HA answers a bad one with its own code. */
function time(value: string | undefined, code: "invalid_start_time" | "invalid_end_time", fallback?: number): number {
  if (value === undefined && fallback !== undefined) return fallback;
  const ms = value === undefined ? NaN : Date.parse(value);
  if (!Number.isFinite(ms)) throw new CommandError(code, code === "invalid_start_time" ? "Invalid start_time" : "Invalid end_time");
  return ms;
}

/** The unit classes of HA's UNIT_SCHEMA (`recorder/websocket_api.py`); the ones the simulator converts also check the unit. */
const UNIT_CLASSES = [
  "apparent_power", "area", "blood_glucose_concentration", "carbon_monoxide", "concentration", "conductivity", "data_rate", "distance",
  "duration", "electric_current", "voltage", "energy", "energy_distance", "information", "mass", "power", "pressure", "reactive_energy",
  "reactive_power", "speed", "temperature", "temperature_delta", "unitless", "volume", "volume_flow_rate",
];
const unitSchema = z.strictObject(
  Object.fromEntries(
    UNIT_CLASSES.map((cls) => {
      const units = unitsOfClass(cls);
      if (!units) return [cls, str().optional()];
      // vol.In: the choices sorted, or as a set when None is among them and Python cannot sort.
      const named = units.filter((u): u is string => u !== null).sort();
      const choices = units.includes(null) ? `{None, ${named.map((u) => `'${u}'`).join(", ")}}` : `[${named.map((u) => `'${u}'`).join(", ")}]`;
      const field = z.string().nullable().refine((u) => units.includes(u), { error: `value must be one of ${choices}` });
      return [cls, field.optional()];
    }),
  ),
  { error: "expected dict" },
);

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

  // HA 2026: `statistic_ids` is required and not empty, and there is no `year` period.
  defineCommand(
    "recorder/statistics_during_period",
    {
      start_time: str(),
      end_time: str().optional(),
      statistic_ids: strList().min(1, { error: "length of value must be at least 1" }),
      period: oneOf(STATISTIC_PERIODS),
      types: z.array(oneOf(STATISTIC_TYPES), { error: "expected a list" }).optional(),
      units: unitSchema.optional(),
    },
    (conn, msg) => {
      const startMs = time(msg.start_time, "invalid_start_time");
      const endMs = msg.end_time ? time(msg.end_time, "invalid_end_time") : undefined;
      conn.sendResult(
        msg.id,
        statisticsDuringPeriod(conn.ctx.home, {
          startMs,
          endMs,
          statisticIds: msg.statistic_ids,
          period: msg.period,
          types: msg.types ?? [...STATISTIC_TYPES],
          units: msg.units as Record<string, string | null> | undefined,
          nowMs: conn.ctx.home.now(),
        }),
      );
    },
  ),

  defineCommand("recorder/get_statistics_metadata", { statistic_ids: strList().optional() }, (conn, msg) => {
    conn.sendResult(msg.id, statisticsMetadata(conn.ctx.home, { statisticIds: msg.statistic_ids }));
  }),

  defineCommand("recorder/list_statistic_ids", { statistic_type: oneOf(["sum", "mean"]).optional() }, (conn, msg) => {
    conn.sendResult(msg.id, statisticsMetadata(conn.ctx.home, { statisticType: msg.statistic_type }));
  }),

  defineCommand("system_log/list", null, (conn, msg) => conn.sendResult(msg.id, systemLogEntries(conn.ctx.home)), { adminOnly: true }),
];
