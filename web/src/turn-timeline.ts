import { LitElement, html, css, nothing } from "lit";
import { api, type Timeline, type TimelineEntry } from "./api.js";
import { count, formatNumber, formatTime } from "./format.js";
import { cardStyles } from "./theme.js";

const OPEN = new Set(["pending", "running", "streaming", "input_required"]);

/** One turn: the message, each model and tool call, approvals, and the answer with what it cites. */
export class TurnTimeline extends LitElement {
  static override properties = { timeline: { attribute: false }, live: { attribute: false }, timeZone: { attribute: false }, error: { state: true } };
  static override styles = [
    cardStyles,
    css`ol { list-style: none; padding: 0; margin: 0; } li { border-left: 2px solid var(--divider-color); padding: 4px 0 8px 12px; margin-left: 4px; } .kind { font-weight: 500; } .answer { white-space: pre-wrap; } .live { white-space: pre-wrap; border-left-color: var(--primary-color); } .error { color: var(--error-color); } pre { max-height: 240px; overflow: auto; }`,
  ];
  declare timeline: Timeline;
  /** The model's text while it arrives, from the stream. */
  declare live: string;
  /** Home Assistant's time zone, for the turn's time. */
  declare timeZone: string | undefined;
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

  #entry(e: TimelineEntry) {
    switch (e.kind) {
      case "model": {
        // The call that wrote the answer shows it once, below, as the answer.
        const text = e.text && e.text.trim() !== this.timeline.answer?.trim() ? e.text : "";
        return html`<li data-entry="model"><span class="kind">Model call ${e.step}</span> <span class="muted">${e.model} · ${formatNumber(e.tokensIn)} in / ${formatNumber(e.tokensOut)} out${e.tokensThinking ? ` / ${formatNumber(e.tokensThinking)} thinking` : ""} tokens · ${formatNumber(Math.round(e.durationMs))} ms</span>${text ? html`<div>${text}</div>` : nothing}${e.toolCalls.length ? html`<div class="muted">asks for ${e.toolCalls.join(", ")}</div>` : nothing}${!text && e.text && !e.toolCalls.length ? html`<div class="muted">wrote the answer</div>` : nothing}</li>`;
      }
      case "tool":
        return html`<li data-entry="tool"><span class="kind">${e.action ? "Action" : "Tool"}: <code>${e.name}</code></span>${e.durationMs !== undefined ? html` <span class="muted">${formatNumber(Math.round(e.durationMs))} ms</span>` : nothing}
          <pre tabindex="0" aria-label="Arguments">${JSON.stringify(e.args, null, 2)}</pre>
          ${e.result !== undefined ? html`<pre tabindex="0" aria-label="Result" class=${e.isError ? "error" : ""}>${JSON.stringify(e.result, null, 2)}</pre>` : html`<div class="muted">running…</div>`}</li>`;
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
      <p class="muted">${formatTime(t.createdAt, this.timeZone)} · ${count(t.usage.modelCalls, "model call")}, ${count(t.usage.toolCalls, "tool call")}, ${count(t.usage.tokensIn + t.usage.tokensOut + t.usage.tokensThinking, "token")}</p>
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
