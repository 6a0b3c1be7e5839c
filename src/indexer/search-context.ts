import type { FieldKey } from "./fields.js";

/** What the engine needs to know about a document beyond its tokens. */
export interface SearchContext {
  /** The entity's current state, or undefined when it has none. */
  stateOf(entityId: string): string | undefined;
  /** Whether the entity is in one of these states, as people mean them ("open" for a door contact that is on). */
  inState(entityId: string, states: string[]): boolean;
  /** Hard filters and hidden-entity rules; only documents that pass can be returned. */
  accept(entityId: string): boolean;
  /**
   * Set when the only rule is the default one (disabled, hidden, diagnostic
   * and config entities left out): the engine then reads it from the
   * documents' traits instead of asking `accept` about each candidate.
   */
  defaultRulesOnly?: boolean;
  /** A short description of a field's value for `why`, e.g. `area "Kitchen"`. */
  describe(entityId: string, field: FieldKey): string;
}
