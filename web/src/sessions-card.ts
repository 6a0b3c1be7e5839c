import { LitElement, html, css } from "lit";
import { formatTime, type SessionView } from "./api.js";
import { cardStyles } from "./theme.js";

/** The sessions a person may see, each with its owner, status and turns; choosing a turn opens it. */
export class SessionsCard extends LitElement {
  static override properties = { sessions: { attribute: false }, selectedSession: { attribute: false }, selectedTurn: { attribute: false }, showOwners: { attribute: false } };
  static override styles = [cardStyles, css`ul.sessions { list-style: none; padding: 0; margin: 0; } li.session { border-top: 1px solid var(--divider-color); padding: 8px 0; } .row { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; } button.link { border: none; padding: 4px 0; min-height: 32px; text-align: left; border-radius: 4px; } button.link[aria-current="true"] { font-weight: 700; text-decoration: underline; } ul.turns { list-style: none; padding-left: 12px; margin: 4px 0; }`];
  declare sessions: SessionView[];
  declare selectedSession: string | undefined;
  declare selectedTurn: string | undefined;
  declare showOwners: boolean;

  #pick(sessionId: string, turnId?: string) {
    this.dispatchEvent(new CustomEvent("pick", { detail: { sessionId, turnId }, bubbles: true, composed: true }));
  }

  override render() {
    return html`<section class="card" aria-labelledby="sessions-title">
      <h2 id="sessions-title">Sessions</h2>
      ${this.sessions.length === 0 ? html`<p class="muted">No sessions yet. Start one from an MCP client with ha_agent_start_session, or ask with ha_agent_ask.</p>` : ""}
      <ul class="sessions">
        ${this.sessions.map(
          (s) => html`<li class="session" data-session=${s.id} data-owner=${s.owner}>
            <div class="row">
              <button class="link" aria-current=${s.id === this.selectedSession ? "true" : "false"} @click=${() => this.#pick(s.id, s.turns[0]?.continuationId)}>Session ${s.id.slice(-6)}</button>
              <span class="status ${s.status}">${s.status}</span>
              ${this.showOwners || !s.canAct ? html`<span class="muted">owner: ${s.ownerName}</span>` : ""}
              <span class="muted">${s.turns.length} turn(s) · ${s.tokens.toLocaleString()} tokens · ${formatTime(s.updatedAt)}</span>
            </div>
            ${s.id === this.selectedSession
              ? html`<ul class="turns">${s.turns.map(
                  (t) => html`<li><button class="link" data-turn=${t.continuationId} aria-current=${t.continuationId === this.selectedTurn ? "true" : "false"} @click=${() => this.#pick(s.id, t.continuationId)}><span class="status ${t.status}">${t.status.replace(/_/g, " ")}</span> ${t.preview || "(no text)"}</button></li>`,
                )}</ul>`
              : ""}
          </li>`,
        )}
      </ul>
    </section>`;
  }
}
customElements.define("ha-agent-sessions", SessionsCard);
