import { LitElement, html, css, nothing } from "lit";
import { api, type Timeline, type TimelineEntry } from "./api.js";
import type { HomeFormat } from "./format.js";
import { momentTag } from "./time.js";
import "./copyable.js";
import { cardStyles } from "./theme.js";

const OPEN = new Set(["pending", "running", "streaming", "input_required"]);

/** One turn: the message, each model and tool call, approvals, and the answer with what it cites. */
export class TurnTimeline extends LitElement {
  static override properties = { timeline: { attribute: false }, live: { attribute: false }, format: { attribute: false }, error: { state: true } };
  static override styles = [
    cardStyles,
    css`
      ol { list-style: none; padding: 0; margin: 0; }
      li { border-left: 2px solid var(--divider-color); padding: 4px 0 8px 12px; margin-left: 4px; min-width: 0; }
      .kind { font-weight: 500; }
      /* Words and ids wrap on a phone; a JSON block keeps its lines and scrolls inside itself instead of widening the page. */
      .answer, .live, .text { white-space: pre-wrap; }
      .answer, .live, .text, p, li > div { overflow-wrap: anywhere; }
      .live { border-left-color: var(--primary-color); }
      .error { color: var(--error-color); }
      pre.json { max-height: 240px; max-width: 100%; box-sizing: border-box; overflow: auto; }
    `,
  ];
  declare timeline: Timeline;
  /** The model's text while it arrives, from the stream. */
  declare live: string;
  /** Home Assistant's locale and time zone, for the turn's time. */
  declare format: HomeFormat;
  declare error: string | undefined;

  constructor() {
    super();
    this.live = "";
  }

  async #cancel() {
    try {
      await api.cancel(this.timeline.continuationId);
    } catch (err) {
      this.error = (err as Error).message;
    }
  }

  #json(value: unknown, what: "Arguments" | "Result", name: string, isError = false) {
    const text = JSON.stringify(value, null, 2);
    return html`<ha-agent-copyable .text=${text} .caption=${what} .label=${`the ${what.toLowerCase()} of ${name}`}><pre tabindex="0" aria-label=${what} class=${isError ? "json error" : "json"}>${text}</pre></ha-agent-copyable>`;
  }

  #entry(e: TimelineEntry) {
    const f = this.format;
    const ms = (n: number) => `${f.number(Math.round(n))} ms`;
    const tokens = (e: { tokensIn: number; tokensOut: number; tokensThinking: number }) => `${f.number(e.tokensIn)} in / ${f.number(e.tokensOut)} out${e.tokensThinking ? ` / ${f.number(e.tokensThinking)} thinking` : ""} tokens`;
    switch (e.kind) {
      case "model": {
        // The call that wrote the answer shows it once, below, as the answer.
        const text = e.text && e.text.trim() !== this.timeline.answer?.trim() ? e.text : "";
        return html`<li data-entry="model"><span class="kind">Model call ${e.step}</span> <span class="muted">${e.model} · ${tokens(e)} · ${ms(e.durationMs)}</span>${text ? html`<div class="text">${text}</div>` : nothing}${e.toolCalls.length ? html`<div class="muted">asks for ${e.toolCalls.join(", ")}</div>` : nothing}${!text && e.text && !e.toolCalls.length ? html`<div class="muted">wrote the answer</div>` : nothing}</li>`;
      }
      case "memory":
        return html`<li data-entry="model" data-memory><span class="kind">Model call ${e.call}</span> <span class="muted">${tokens(e)}${e.durationMs !== undefined ? ` · ${ms(e.durationMs)}` : ""}</span><div class="muted">folded the session's older messages into its summary, after the answer</div></li>`;
      case "tool":
        return html`<li data-entry="tool"><span class="kind">${e.action ? "Action" : "Tool"}: <code>${e.name}</code></span>${e.durationMs !== undefined ? html` <span class="muted">${ms(e.durationMs)}</span>` : nothing}
          ${this.#json(e.args, "Arguments", e.name)}
          ${e.result !== undefined ? this.#json(e.result, "Result", e.name, e.isError) : html`<div class="muted">running…</div>`}</li>`;
      case "approval":
        return html`<li data-entry="approval"><span class="kind">Asked for approval</span>: <code>${e.service}</code> on ${e.targets.join(", ")}</li>`;
      case "decision":
        return html`<li data-entry="decision"><span class="kind">${e.decision === "approve" ? "Approved" : e.decision === "deny" ? "Denied" : "Expired"}</span>${e.via ? html` <span class="muted">via ${e.via}</span>` : nothing}${e.reason ? html`: ${e.reason}` : nothing}</li>`;
      case "wrap_up":
        return html`<li data-entry="wrap_up"><span class="kind">Budget reached</span> (${e.budget}): one last answer without tools</li>`;
    }
  }

  override render() {
    const t = this.timeline;
    const open = OPEN.has(t.status);
    return html`<section class="card" aria-labelledby="turn-title" data-turn=${t.continuationId} data-status=${t.status}>
      <h2 id="turn-title">Turn <span class="status ${t.status}">${t.status.replace(/_/g, " ")}</span></h2>
      <p><strong>Message:</strong> ${t.message}</p>
      <p class="muted">${momentTag(this.format, t.createdAt)} · ${this.format.count(t.usage.modelCalls, "model call")}, ${this.format.count(t.usage.toolCalls, "tool call")}, ${this.format.count(t.usage.tokensIn + t.usage.tokensOut + t.usage.tokensThinking, "token")}</p>
      ${open && t.canAct ? html`<button class="danger" @click=${() => this.#cancel()}>Cancel turn</button>` : nothing}
      <ol>
        ${t.entries.map((e) => this.#entry(e))}
        ${open && this.live ? html`<li class="live" aria-live="polite">${this.live}</li>` : nothing}
      </ol>
      ${t.answer !== null ? html`<h3>Answer</h3><p class="answer" data-testid="answer">${t.answer}</p>` : nothing}
      ${t.cites.length ? html`<p class="muted">Cites ${t.cites.map((c) => html`<code>${c}</code> `)}</p>` : nothing}
      ${t.error ? html`<p class="error">${t.error.message}</p>` : nothing}
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
    </section>`;
  }
}
customElements.define("ha-agent-turn", TurnTimeline);
