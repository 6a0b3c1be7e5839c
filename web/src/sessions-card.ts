import { LitElement, html, css, nothing } from "lit";
import type { SessionView } from "./api.js";
import type { HomeFormat } from "./format.js";
import { momentTag } from "./time.js";
import { cardStyles } from "./theme.js";

const words = (status: string) => status.replace(/_/g, " ");

/**
 * The sessions a person may see, each named by its first message, with its
 * persona, the newest turn's status, its owner and its turns; choosing a
 * turn opens it.
 */
export class SessionsCard extends LitElement {
  static override properties = { sessions: { attribute: false }, selectedSession: { attribute: false }, selectedTurn: { attribute: false }, showOwners: { attribute: false }, format: { attribute: false } };
  static override styles = [
    cardStyles,
    css`
      ul.sessions { list-style: none; padding: 0; margin: 0; }
      li.session { border-top: 1px solid var(--divider-color); padding: 8px 0; }
      .row { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
      button.link { border: none; padding: 4px 6px; margin-left: -6px; min-height: 32px; text-align: left; border-radius: 4px; }
      button.link[aria-current="true"] { background: var(--secondary-background-color); }
      button.session-title { font-weight: 500; }
      button.session-title[aria-current="true"] { text-decoration: underline; }
      .persona { font-size: 12px; border-radius: 10px; padding: 0 8px; background: var(--secondary-background-color); }
      ul.turns { list-style: none; padding-left: 12px; margin: 4px 0; }
      ul.turns button.link { display: flex; gap: 8px; align-items: baseline; width: 100%; }
    `,
  ];
  declare sessions: SessionView[];
  declare selectedSession: string | undefined;
  declare selectedTurn: string | undefined;
  declare showOwners: boolean;
  /** Home Assistant's locale and time zone, for the times shown. */
  declare format: HomeFormat;

  #pick(sessionId: string, turnId?: string) {
    this.dispatchEvent(new CustomEvent("pick", { detail: { sessionId, turnId }, bubbles: true, composed: true }));
  }

  #session(s: SessionView) {
    const selected = s.id === this.selectedSession;
    return html`<li class="session" data-session=${s.id} data-owner=${s.owner}>
      <div class="row">
        <button class="link session-title" aria-current=${selected ? "true" : "false"} @click=${() => this.#pick(s.id, s.turns[0]?.continuationId)}>${s.title}</button>
        ${s.persona ? html`<span class="persona" title="The session's persona">${s.persona}</span>` : nothing}
        ${s.latestStatus ? html`<span class="status ${s.latestStatus}" title="The newest turn">${words(s.latestStatus)}</span>` : nothing}
        ${s.status !== "active" ? html`<span class="status ${s.status}">session ${s.status}</span>` : nothing}
      </div>
      <div class="muted">${this.showOwners || !s.canAct ? html`owner: ${s.ownerName} · ` : nothing}${this.format.count(s.turns.length, "turn")} · ${this.format.count(s.tokens, "token")} · ${momentTag(this.format, s.updatedAt)}</div>
      ${selected
        ? html`<ul class="turns">${s.turns.map(
            (t) => html`<li><button class="link" data-turn=${t.continuationId} aria-current=${t.continuationId === this.selectedTurn ? "true" : "false"} @click=${() => this.#pick(s.id, t.continuationId)}><span class="status ${t.status}">${words(t.status)}</span> <span>${t.preview || "(no text)"}</span></button></li>`,
          )}</ul>`
        : nothing}
    </li>`;
  }

  override render() {
    return html`<section class="card" aria-labelledby="sessions-title">
      <h2 id="sessions-title">Sessions</h2>
      ${this.sessions.length === 0 ? html`<p class="muted">No sessions yet. Start one from an MCP client with ha_agent_start_session, or ask with ha_agent_ask.</p>` : nothing}
      <ul class="sessions">
        ${this.sessions.map((s) => this.#session(s))}
      </ul>
    </section>`;
  }
}
customElements.define("ha-agent-sessions", SessionsCard);
