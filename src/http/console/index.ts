export { createConsole, type Console, type ConsoleAgent, type ConsoleOptions } from "./routes.js";
export { createTurnRecords, type TurnRecords } from "./turn-records.js";
export { createUserDirectory } from "./users.js";
export { loadAssets, type Assets } from "./assets.js";
export { connectSnippets, INSPECTOR_VERSION } from "./snippets.js";
export { CONTENT_SECURITY_POLICY } from "./guard.js";
export type { UserDirectory } from "./viewer.js";
export type * from "./wire.js";
