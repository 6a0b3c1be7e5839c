import type { HassContext } from "./common/index.js";
import type { SimState } from "./state.js";
import { isoTime } from "./time.js";

/** A state change as the bus carries it; `undefined` means added or removed. */
export interface StateChange {
  entityId: string;
  oldState: SimState | undefined;
  newState: SimState | undefined;
}

/**
 * One fired event. Its JSON is built at most once, however many
 * subscriptions receive it, which keeps bursts cheap.
 */
export class SimEvent {
  private json: string | undefined;

  constructor(
    readonly eventType: string,
    readonly data: Record<string, unknown>,
    readonly timeFiredMs: number,
    readonly context: HassContext,
    readonly change?: StateChange,
  ) {}

  /** The `event` member of a wire event message, serialised. */
  toJson(): string {
    this.json ??= JSON.stringify({
      event_type: this.eventType,
      data: this.data,
      origin: "LOCAL",
      time_fired: isoTime(this.timeFiredMs),
      context: this.context,
    });
    return this.json;
  }

  /** Per-event cache for derived encodings (for example the `subscribe_entities` diff). */
  readonly memo = new Map<string, string>();
}

export type EventListener = (event: SimEvent) => void;

/** HA's event bus: listeners per event type, plus listeners for every event. */
export class Bus {
  private readonly byType = new Map<string, Set<EventListener>>();
  private readonly all = new Set<EventListener>();

  listen(eventType: string | undefined, listener: EventListener): () => void {
    let set = this.all;
    if (eventType !== undefined) {
      set = this.byType.get(eventType) ?? new Set();
      this.byType.set(eventType, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  }

  hasListeners(eventType: string): boolean {
    return this.all.size > 0 || (this.byType.get(eventType)?.size ?? 0) > 0;
  }

  /** Listeners per event type, `*` for those that hear every event, as HA's `GET /api/events` lists them. */
  listenerCounts(): { event: string; listener_count: number }[] {
    const out: { event: string; listener_count: number }[] = [];
    if (this.all.size > 0) out.push({ event: "*", listener_count: this.all.size });
    for (const [event, set] of this.byType) if (set.size > 0) out.push({ event, listener_count: set.size });
    return out;
  }

  fire(event: SimEvent): void {
    const typed = this.byType.get(event.eventType);
    if (typed) for (const l of [...typed]) l(event);
    for (const l of [...this.all]) l(event);
  }
}
