export { statisticsDuringPeriod, STATISTIC_PERIODS, STATISTIC_TYPES, type StatisticPeriod, type StatisticType } from "./during-period.js";
export { statisticsMetadata } from "./metadata.js";
