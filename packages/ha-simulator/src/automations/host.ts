import type { HassContext, HassState } from "../common/index.js";
import type { House, HouseEntityInput } from "../house-schema.js";

/** A service call failed; `message` is what HA's exception says (the trace shows it). */
export interface ServiceFailure {
  message: string;
}

/** What the automation engine needs from the home it runs in. */
export interface AutomationHost {
  readonly house: House;
  now(): number;
  getState(entityId: string): HassState | undefined;
  /** The state the recorder holds for `ms` (for runs before start). */
  stateAt(entityId: string, ms: number): HassState | undefined;
  /** Sets a state; attributes left out are kept. */
  setState(entityId: string, state: string, attributes: Record<string, unknown> | undefined, context: HassContext): void;
  newContext(userId?: string | null, parentId?: string | null): HassContext;
  fireEvent(eventType: string, data: Record<string, unknown>, context: HassContext): void;
  /** Calls a service with the given context; returns a failure instead of throwing. */
  callService(o: { domain: string; service: string; data: Record<string, unknown>; target: Record<string, unknown>; context: HassContext }): ServiceFailure | undefined;
  /** Whether a service exists, and what calling it would fail with (a run before start only checks). */
  checkService(domain: string, service: string): ServiceFailure | undefined;
  /** The entity id the registry has for a platform's unique id. */
  registeredEntityId(platform: string, uniqueId: string): string | undefined;
  /** Whether the entity is defined or registered, whatever its state now. */
  knows(entityId: string): boolean;
  addEntity(e: HouseEntityInput): void;
  /** Registers an entity that exists already under a platform's unique id. */
  register(entityId: string, platform: string, uniqueId: string, originalName: string): void;
  /** Removes the state, keeping the registry entry (a reload). */
  unload(entityId: string): void;
  /** Removes the entity with its registry entry (a delete). */
  removeEntity(entityId: string): void;
}
