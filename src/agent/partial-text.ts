/** How often streamed text goes out: often enough to read along, rarely enough to stay cheap with many listeners. */
export const PARTIAL_INTERVAL_MS = 500;

/**
 * Coalesces a model's text deltas: what arrived is handed on at most every
 * `intervalMs`, and at once on `flush` (before a step or the final event, so
 * text never arrives after the step it belongs before).
 */
export class PartialText {
  #pending = "";
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly send: (text: string) => void,
    private readonly intervalMs = PARTIAL_INTERVAL_MS,
  ) {}

  add(text: string): void {
    this.#pending += text;
    this.#timer ??= setTimeout(() => this.flush(), this.intervalMs);
  }

  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (!this.#pending) return;
    const text = this.#pending;
    this.#pending = "";
    this.send(text);
  }
}
