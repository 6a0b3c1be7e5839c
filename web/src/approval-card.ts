import { LitElement, html, css } from "lit";
import { api, type ApprovalView } from "./api.js";
import type { HomeFormat } from "./format.js";
import { momentTag } from "./time.js";
import { answeredNotice } from "./outcome.js";
import { cardStyles } from "./theme.js";

/**
 * An action waiting for a person: the question every channel asks, the
 * exact call, its targets now, and the owner's two buttons. Names arrive
 * cleaned from the API (shared/display-name.ts): Lit escapes HTML, not bidi.
 */
export class ApprovalCard extends LitElement {
  static override properties = { approval: { attribute: false }, format: { attribute: false }, busy: { state: true }, error: { state: true } };
  static override styles = [cardStyles, css`.card { border-left: 4px solid var(--primary-color); } .actions { display: flex; gap: 8px; flex-wrap: wrap; margin-top: 12px; } table { border-collapse: collapse; width: 100%; } th, td { text-align: left; padding: 4px 8px 4px 0; border-bottom: 1px solid var(--divider-color); } th { font-weight: 500; color: var(--secondary-text-color); } .error { color: var(--error-color); } .question { white-space: pre-wrap; overflow-wrap: anywhere; }`];
  declare approval: ApprovalView;
  /** Home Assistant's locale and time zone, for the deadline. */
  declare format: HomeFormat;
  declare busy: boolean;
  declare error: string | undefined;

  async #answer(decision: "approve" | "deny") {
    this.busy = true;
    this.error = undefined;
    try {
      await api.answer(this.approval.continuationId, this.approval.approvalId, decision);
      // The card goes with the next overview: the page says what happened in its place (console-app.ts).
      this.dispatchEvent(new CustomEvent("answered", { detail: answeredNotice(this.approval, decision), bubbles: true, composed: true }));
    } catch (err) {
      this.error = (err as Error).message;
    } finally {
      this.busy = false;
    }
  }

  override render() {
    const a = this.approval;
    return html`<section class="card" aria-label="Approval for ${a.service}" data-approval=${a.approvalId}>
      <h2>Waiting for approval: <code>${a.service}</code></h2>
      <p class="question">${a.question}</p>
      <p class="muted">${a.why} Expires ${momentTag(this.format, a.expiresAt)}.</p>
      <table>
        <thead><tr><th scope="col">Target</th><th scope="col">When asked</th><th scope="col">Now</th></tr></thead>
        <tbody>${a.targets.map((t) => html`<tr><td>${t.name ? html`${t.name} <code>${t.entityId}</code>` : html`<code>${t.entityId}</code>`}</td><td>${t.stateThen ?? "–"}</td><td>${t.stateNow ?? "–"}</td></tr>`)}</tbody>
      </table>
      ${Object.keys(a.data).length ? html`<h3>Data</h3><pre tabindex="0">${JSON.stringify(a.data, null, 2)}</pre>` : ""}
      <p class="muted">${a.alsoWaitsIn}</p>
      ${a.canAnswer
        ? html`<div class="actions">
            <button class="ok" ?disabled=${this.busy} @click=${() => this.#answer("approve")}>Approve</button>
            <button class="danger" ?disabled=${this.busy} @click=${() => this.#answer("deny")}>Deny</button>
          </div>`
        : html`<p class="muted">Only the session's owner can answer.</p>`}
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : ""}
    </section>`;
  }
}
customElements.define("ha-agent-approval", ApprovalCard);
