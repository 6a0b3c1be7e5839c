export { createEventsRoute, EVENTS_PATH, type EventsRoute, type EventsRouteOptions, type SessionEventSource } from "./events-route.js";
export { SseStream, formatEvent, KEEP_ALIVE_MS, MAX_QUEUED_EVENTS, type SseStreamOptions } from "./sse-stream.js";
export { MAX_STREAMS_PER_PRINCIPAL } from "./stream-limit.js";
