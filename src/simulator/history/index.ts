export { initialChangedMs } from "./timeline.js";
export { historyDuringPeriod, logbookEvents, statisticsDuringPeriod, STATISTIC_TYPES, type StatisticType, type StatisticPeriod } from "./queries.js";
export type { RecordedHome } from "./store.js";
