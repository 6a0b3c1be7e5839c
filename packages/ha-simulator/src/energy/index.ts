export { EnergyMeters, energyMetersOf } from "./meters.js";
export type { Place } from "./model.js";
