/** The assistants HA knows (`KNOWN_ASSISTANTS` in exposed_entities.py). */
export const KNOWN_ASSISTANTS = ["cloud.alexa", "cloud.google_assistant", "conversation"] as const;
export type Assistant = (typeof KNOWN_ASSISTANTS)[number];

/**
 * What the user set on Settings → Voice assistants → Expose: per entity and
 * assistant, and whether new entities get HA's defaults. Like HA, only
 * explicit settings are stored; the defaults are the reader's to apply.
 */
export class ExposureSettings {
  readonly #entities = new Map<string, Map<Assistant, boolean>>();
  readonly #exposeNew = new Map<Assistant, boolean>([["conversation", true]]);

  expose(entityId: string, assistant: Assistant, shouldExpose: boolean): void {
    let settings = this.#entities.get(entityId);
    if (!settings) this.#entities.set(entityId, (settings = new Map()));
    settings.set(assistant, shouldExpose);
  }

  setExposeNew(assistant: Assistant, exposeNew: boolean): void {
    this.#exposeNew.set(assistant, exposeNew);
  }

  exposeNew(assistant: Assistant): boolean {
    return this.#exposeNew.get(assistant) ?? false;
  }

  /** HA's list answer: every given entity (the registry's), plus any with settings, each with its explicit settings. */
  list(registryEntityIds: Iterable<string>): Record<string, Record<string, boolean>> {
    const out: Record<string, Record<string, boolean>> = Object.create(null) as Record<string, Record<string, boolean>>;
    for (const id of [...this.#entities.keys(), ...registryEntityIds]) {
      out[id] = Object.fromEntries(this.#entities.get(id) ?? []);
    }
    return out;
  }
}
