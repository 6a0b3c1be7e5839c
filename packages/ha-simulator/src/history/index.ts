export { initialChangedMs } from "./timeline.js";
export { historyDuringPeriod, logbookEvents } from "./queries.js";
export { historyOf } from "./store.js";
export type { RecordedHome } from "./store.js";
export type { HistoryPoint } from "./generate.js";
