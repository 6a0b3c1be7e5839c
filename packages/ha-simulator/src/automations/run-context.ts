import type { HassContext, HassState } from "../common/index.js";
import type { HouseConfig } from "../house-schema.js";
import type { TraceElement, Tracer } from "./trace.js";

/** A step failed the way HA's exceptions fail one: the text is what the trace shows. */
export class StepError extends Error {}

/** A condition could not be checked (`ConditionErrorMessage`: "In '<type>' condition: <message>"). */
export class ConditionError extends Error {
  constructor(kind: string, message: string) {
    super(`In '${kind}' condition: ${message}`);
  }
}

/** What a running condition or action reads and does; a past run reads the recorder and changes nothing. */
export interface RunContext {
  tracer: Tracer;
  variables: Record<string, unknown>;
  config: HouseConfig;
  now(): number;
  /** The entity's state as the run sees it: now, or at the time of a past run. */
  lookup(entityId: string): HassState | undefined;
  /** Calls a service in the run's context; throws StepError with HA's text when it fails. */
  callService(o: { domain: string; service: string; data: Record<string, unknown>; target: Record<string, unknown>; element: TraceElement }): void;
  fireEvent(eventType: string, data: Record<string, unknown>): void;
  context: HassContext;
}
