export { HaAgentError, describeError } from "./errors.js";
export { systemClock, manualClock, type Clock } from "./clock.js";
export { ClockJumps, CLOCK_JUMP_MS, loggedClockJumps, watchClockJumps, DEADLINE_CHECK_MS, MAX_TIMER_MS, watchDeadline, type ClockJump } from "./deadline.js";
export { kernelMonotonic, systemMonotonic, type Monotonic } from "./monotonic.js";
export { createLogger, silentLogger, LOG_LEVELS, type LogLevel, type Logger } from "./logger.js";
export { PrincipalSchema, type Principal } from "./principal.js";
export { formatLogLine, LOG_FORMATS, type LogFormat } from "./log-format.js";
export { dict, own } from "./dict.js";
export { createPerPrincipalLimit, type PerPrincipalLimit } from "./per-principal-limit.js";
export { hostOfUrl, parseHostHeader, type HostHeader } from "./host-header.js";
export { homeLocale, homeTimeZone, knownLocale, knownTimeZone, localDay, localStamp, localTime } from "./local-time.js";
export {
  addLocalDays,
  addLocalMonths,
  fromLocal,
  lastLocalTime,
  localIso,
  localParts,
  offsetMs,
  startOfLocalDay,
  startOfLocalMonth,
  startOfLocalWeek,
  type LocalParts,
} from "./local-time-calendar.js";
export { MCP_PATHS, mcpPathOf, type McpPath } from "./mcp-paths.js";
export { cleanName, namedEntity, NAME_MAX, shownData, shownJson, shownLines, shownName, shownText, TEXT_MAX, visible } from "./display-name.js";
export { linkedSignal } from "./linked-signal.js";
export { importPackage } from "./import-package.js";
