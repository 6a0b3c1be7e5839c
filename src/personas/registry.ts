import { formatZodError } from "../tools/index.js";
import { PersonaError } from "./errors.js";
import type { PersonaContext, PersonaSpec, ResolvedPersona } from "./persona.js";

/** Where an entry came from: `built-in`, or the file that defines it. */
export const BUILT_IN = "built-in";

interface Entry {
  spec: PersonaSpec;
  source: string;
}

/** A resolved persona with what a journal needs to replay it. */
export interface PersonaResolution extends ResolvedPersona {
  name: string;
  version: string;
}

/**
 * The personas by name. Built-ins and user files register the same way; a
 * user entry may take a built-in's name only when it says it replaces it,
 * and the built-in comes back when that entry goes.
 */
export class PersonaRegistry {
  readonly #entries = new Map<string, Entry>();
  /** Entries hidden by one that replaces them, by name. */
  readonly #shadowed = new Map<string, Entry>();
  readonly #listeners = new Set<() => void>();
  #batching = false;
  #pending = false;

  /** Adds an entry. A name already held by another source is refused unless `replaces` names it. */
  register(spec: PersonaSpec, options: { source?: string; replaces?: string } = {}): void {
    const source = options.source ?? BUILT_IN;
    const held = this.#entries.get(spec.name);
    if (held && held.source !== source) {
      if (options.replaces !== spec.name) {
        throw new PersonaError("name_taken", `The persona name "${spec.name}" is already used by ${held.source === BUILT_IN ? "a built-in persona" : held.source}; choose another name, or add "replaces: ${spec.name}" to replace it.`);
      }
      if (!this.#shadowed.has(spec.name)) this.#shadowed.set(spec.name, held);
    }
    this.#entries.set(spec.name, { spec, source });
    this.#changed();
  }

  /** Removes every entry of `source`, bringing back what they replaced. */
  unregisterSource(source: string): void {
    let changed = false;
    for (const [name, entry] of this.#entries) {
      if (entry.source !== source) continue;
      const shadowed = this.#shadowed.get(name);
      this.#shadowed.delete(name);
      if (shadowed) this.#entries.set(name, shadowed);
      else this.#entries.delete(name);
      changed = true;
    }
    if (changed) this.#changed();
  }

  get(name: string): PersonaSpec | undefined {
    return this.#entries.get(name)?.spec;
  }

  /** The personas in name order, with where each comes from. */
  list(): { spec: PersonaSpec; source: string }[] {
    return [...this.#entries.values()].sort((a, b) => a.spec.name.localeCompare(b.spec.name));
  }

  /** Checks that the persona exists and the arguments fit its schema; throws a PersonaError that names the fix. */
  check(choice: { name: string; args: Record<string, unknown> }): PersonaSpec {
    const spec = this.get(choice.name);
    if (!spec) throw new PersonaError("unknown_persona", `persona: no persona "${choice.name}". Known: ${this.list().map((e) => e.spec.name).join(", ")}.`);
    const parsed = spec.arguments.safeParse(choice.args);
    if (!parsed.success) throw new PersonaError("invalid_argument", `persona_args (${spec.name}): ${formatZodError(parsed.error)}.`);
    return spec;
  }

  /** Checks the arguments against the persona's schema, then resolves it against the home as it is now. */
  async resolve(args: { name: string; args: Record<string, unknown>; ctx: PersonaContext }): Promise<PersonaResolution> {
    const spec = this.check(args);
    // Checked above; parsed again for the schema's defaults and coercions.
    const parsed = spec.arguments.parse(args.args);
    await args.ctx.refresh?.();
    const resolved = await spec.resolve(parsed, args.ctx);
    return { name: spec.name, version: spec.version, ...resolved };
  }

  /** Called after every change; returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Runs several changes as one: listeners hear of them once, at the end. */
  batch(changes: () => void): void {
    this.#batching = true;
    try {
      changes();
    } finally {
      this.#batching = false;
      if (this.#pending) {
        this.#pending = false;
        this.#changed();
      }
    }
  }

  #changed(): void {
    if (this.#batching) {
      this.#pending = true;
      return;
    }
    for (const listener of this.#listeners) listener();
  }
}
