export { createRequestGuard, type Refusal, type RequestGuard, type RequestGuardOptions } from "./request-guard.js";
export { createOwnNames, fixedOwnNames, namesFromHaConfig, type OwnNames, type OwnNamesOptions } from "./own-names.js";
