export { startSupervisor, type SupervisorOptions, type SupervisorSimulator, type SupervisedHa } from "./supervisor.js";
export { simAddon, type SimAddon } from "./addons.js";
export type { IngressUser } from "./ingress.js";
export type { DiscoveryEntry, DiscoveryRequest } from "./discovery-book.js";
