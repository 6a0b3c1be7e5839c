/**
 * Wall-clock time in the house's zone. The arithmetic lives in src/shared,
 * where HA Agent itself counts days, weeks and months as Home Assistant
 * does; the simulator uses the same copy.
 */
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
} from "../shared/index.js";
