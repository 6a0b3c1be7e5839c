export { dict, own } from "./dict.js";
export { manualClock, systemClock, type Clock } from "./clock.js";
export { createLogger, silentLogger, type Logger } from "./logger.js";
export { addLocalDays, addLocalMonths, fromLocal, lastLocalTime, localIso, localParts, startOfLocalDay, startOfLocalMonth, startOfLocalWeek, type LocalParts } from "./calendar.js";
export type * from "./wire.js";
