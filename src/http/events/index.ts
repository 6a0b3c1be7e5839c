export { createEventsRoute, EVENTS_PATH, MAX_STREAMS_PER_PRINCIPAL, type EventsRoute, type EventsRouteOptions, type SessionEventSource } from "./events-route.js";
export { SseStream, formatEvent, KEEP_ALIVE_MS, MAX_QUEUED_EVENTS, type SseStreamOptions } from "./sse-stream.js";
