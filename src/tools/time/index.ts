import type { ToolSpec } from "../tool.js";
import type { TimeToolDeps } from "./common.js";
import { createEnergyTool } from "./energy.js";
import { createHistoryTool } from "./history.js";
import { createRenderTemplateTool } from "./render-template.js";
import { createStatisticsTool } from "./statistics.js";

export { createEnergyTool, createHistoryTool, createRenderTemplateTool, createStatisticsTool, type TimeToolDeps };
export { ENERGY_NOT_CONFIGURED } from "./energy-schema.js";
export type { EnergyOut } from "./energy-schema.js";
export { TIME_FORMS, parseTime, resolveTime, resolveRange, type TimeSpec, type TimeRange } from "./time-input.js";
export { CALENDAR_PERIODS, alignRange, describeRange, type CalendarPeriod } from "./periods.js";
export { PERIOD_FORMS, namedPeriod, periodArgument, type NamedPeriod } from "./period-words.js";

/**
 * The tools about time: what entities did (history), long-term statistics,
 * the Energy dashboard's totals, and templates rendered in Home Assistant.
 * Every user may call them, as Home Assistant's WebSocket API opens them to
 * every user. Times are read and written in Home Assistant's time zone.
 */
export function createTimeTools(deps: TimeToolDeps): ToolSpec[] {
  return [createHistoryTool(deps), createStatisticsTool(deps), createEnergyTool(deps), createRenderTemplateTool(deps)];
}
