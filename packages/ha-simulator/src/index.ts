export { startSimulator, DEFAULT_HA_VERSION, type Simulator, type SimulatorOptions } from "./simulator.js";
export type { SimHome } from "./sim-home.js";
export type { SimUser } from "./users.js";
export { DEMO_LOGIN, defaultAdmin, haStyleToken } from "./users.js";
export {
  HouseSchema,
  HouseEntitySchema,
  type House,
  type HouseInput,
  type HouseEntity,
  type HouseEntityInput,
  type HouseDevice,
  type HouseArea,
  type HouseFloor,
  type HouseLabel,
} from "./house-schema.js";
export { loadHouseFile, parseHouse } from "./load.js";
export { demoHouse } from "./demo/index.js";
export { generateHouse } from "./generate-house.js";
export { SimulatorError } from "./errors.js";
export { startSupervisor, simAddon, type SupervisorOptions, type SupervisorSimulator, type SimAddon, type DiscoveryEntry, type DiscoveryRequest } from "./supervisor/index.js";
export { createRng, type Rng } from "./random.js";
