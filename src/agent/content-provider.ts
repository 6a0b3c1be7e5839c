/**
 * Prompt context as named registers (seed AGN-030). Session registers go to
 * the system instruction on every call; consumable registers go to the
 * conversation once and are cleared when delivered. The provider only holds
 * state: the loop decides what goes in, and the journal is what persists it.
 */
export const SESSION_REGISTERS = ["persona", "policy", "tool_guidance", "home_overview", "rolling_summary", "facts", "pins"] as const;
export const CONSUMABLE_REGISTERS = ["tool_call_manifest", "retrieval"] as const;

export type SessionRegister = (typeof SESSION_REGISTERS)[number];
export type ConsumableRegister = (typeof CONSUMABLE_REGISTERS)[number];

/** One entry of the ToolCallManifest: a call, its parameters, its output and its reference. */
export interface ManifestItem {
  callId: string;
  name: string;
  params: unknown;
  output: unknown;
  isError: boolean;
}

export interface ConsumableItems {
  tool_call_manifest: ManifestItem;
  retrieval: string;
}

export class ContentProvider {
  readonly #session = new Map<SessionRegister, string[]>();
  readonly #consumable: { [K in ConsumableRegister]: ConsumableItems[K][] } = { tool_call_manifest: [], retrieval: [] };

  /** Replaces a session register's lines. */
  set(register: SessionRegister, lines: string[]): void {
    this.#session.set(register, [...lines]);
  }

  lines(register: SessionRegister): readonly string[] {
    return this.#session.get(register) ?? [];
  }

  add<K extends ConsumableRegister>(register: K, item: ConsumableItems[K]): void {
    this.#consumable[register].push(item);
  }

  pending<K extends ConsumableRegister>(register: K): readonly ConsumableItems[K][] {
    return this.#consumable[register];
  }

  /** Hands over a consumable register's items and clears it: they are delivered exactly once. */
  consume<K extends ConsumableRegister>(register: K): ConsumableItems[K][] {
    const items = this.#consumable[register];
    this.#consumable[register] = [] as ConsumableItems[K][] as never;
    return items;
  }
}
