export { createAssistTools, ASSIST_DEADLINE_MS, ASSIST_WAIT_MS } from "./assist-tools.js";
