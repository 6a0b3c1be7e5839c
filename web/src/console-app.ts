import { LitElement, html, css, nothing } from "lit";
import { api, type Overview, type Timeline, type TurnEvent, type UsageReport } from "./api.js";
import { HomeFormat } from "./format.js";
import { settleNotice, type ApprovalNotice } from "./outcome.js";
import { cardStyles } from "./theme.js";

/**
 * The console: it renders what its one live subscription holds. The stream
 * sends the overview whenever it changes and the open session's events; a
 * turn's timeline is read again when one of its steps is journaled. It
 * never polls and never reloads itself.
 */
export class ConsoleApp extends LitElement {
  static override properties = {
    overview: { state: true },
    timeline: { state: true },
    usage: { state: true },
    live: { state: true },
    offline: { state: true },
    session: { state: true },
    turn: { state: true },
    notices: { state: true },
  };
  static override styles = [
    cardStyles,
    css`
      /* As Home Assistant's app header: its text colour on its background, both from the theme. */
      header { background: var(--app-header-background-color, var(--primary-color)); color: var(--app-header-text-color, #fff); padding: 0 16px; height: 56px; display: flex; align-items: center; gap: 12px; }
      header h1 { font-size: 20px; font-weight: 400; margin: 0; flex: 1; color: inherit; }
      header .who { font-size: 14px; color: inherit; }
      main { max-width: 1200px; margin: 0 auto; padding: 16px; display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 0 16px; }
      .wide { grid-column: 1 / -1; }
      @media (max-width: 870px) { main { grid-template-columns: minmax(0, 1fr); padding: 8px; } }
      .offline { color: var(--error-color); }
      .notices:empty { display: none; }
      .notice { display: flex; align-items: center; gap: 8px; margin: 0 0 16px; padding: 8px 8px 8px 16px; border-radius: var(--ha-card-border-radius, 12px); background: var(--card-background-color); border: 1px solid var(--divider-color); border-left: 4px solid var(--success-color); overflow-wrap: anywhere; }
      .notice.deny { border-left-color: var(--secondary-text-color); }
      .notice span { flex: 1 1 auto; min-width: 0; }
      .notice button { flex: none; }
    `,
  ];
  declare overview: Overview | undefined;
  declare timeline: Timeline | undefined;
  declare usage: UsageReport | undefined;
  declare live: string;
  declare offline: boolean;
  declare session: string | undefined;
  declare turn: string | undefined;
  /** What a person answered here and what came of it, newest last; they stay until dismissed. */
  declare notices: ApprovalNotice[];
  #format = new HomeFormat();
  /** The status each unsettled notice's turn had at the last overview, so its timeline is read once per change. */
  #noticeStatus = new Map<string, string>();
  #source: EventSource | undefined;
  #usageTurns = -1;
  /** A turn a person chose: shown once it loads, where they can see it (on a phone it renders below the list). */
  #reveal = false;

  constructor() {
    super();
    this.live = "";
    this.offline = false;
    this.notices = [];
  }

  override connectedCallback() {
    super.connectedCallback();
    this.#subscribe();
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    this.#source?.close();
  }

  #subscribe() {
    this.#source?.close();
    const source = api.stream(this.session);
    this.#source = source;
    source.addEventListener("open", () => (this.offline = false));
    source.addEventListener("error", () => (this.offline = true));
    source.addEventListener("overview", (e) => this.#onOverview(JSON.parse((e as MessageEvent<string>).data) as Overview));
    source.addEventListener("turn", (e) => this.#onTurn(JSON.parse((e as MessageEvent<string>).data) as TurnEvent));
  }

  #onOverview(overview: Overview) {
    if (overview.timeZone !== this.#format.timeZone || overview.locale !== this.#format.locale) this.#format = new HomeFormat({ timeZone: overview.timeZone, locale: overview.locale });
    this.overview = overview;
    for (const n of this.notices) {
      if (n.settled) continue;
      const status = overview.sessions.flatMap((s) => s.turns).find((t) => t.continuationId === n.continuationId)?.status;
      if (status && status !== this.#noticeStatus.get(n.approvalId)) {
        this.#noticeStatus.set(n.approvalId, status);
        void api.timeline(n.continuationId).then((t) => this.#settle(t), () => undefined);
      }
    }
    // Usage changes when a turn ends; read it again only then.
    const turns = overview.sessions.reduce((n, s) => n + s.turns.filter((t) => !["pending", "running", "streaming", "input_required"].includes(t.status)).length, 0);
    if (turns !== this.#usageTurns && overview.viewer) {
      this.#usageTurns = turns;
      void api.usage().then((u) => (this.usage = u), () => undefined);
    }
    if (this.turn && overview.sessions.some((s) => s.turns.some((t) => t.continuationId === this.turn && t.status !== this.timeline?.status))) void this.#loadTurn(this.turn);
  }

  #onTurn(event: TurnEvent) {
    if (event.session_id !== this.session) return;
    // A new turn in the open session: follow it, as a person watching would.
    if (event.continuation_id !== this.turn) {
      this.turn = event.continuation_id;
      this.live = "";
    }
    if (event.type === "partial") this.live += event.payload.partial_response ?? "";
    if (event.type === "step" || event.type === "approval" || event.type === "final") {
      this.live = "";
      void this.#loadTurn(event.continuation_id);
    }
  }

  async #loadTurn(id: string) {
    const timeline = await api.timeline(id).catch(() => undefined);
    if (timeline) this.#settle(timeline);
    if (timeline && this.turn === id) this.timeline = timeline;
  }

  #settle(timeline: Timeline) {
    const next = this.notices.map((n) => settleNotice(n, timeline));
    if (next.some((n, i) => n !== this.notices[i])) this.notices = next;
  }

  #answered(e: CustomEvent<ApprovalNotice>) {
    this.notices = [...this.notices.filter((n) => n.approvalId !== e.detail.approvalId), e.detail];
    // The action may have run already: read the turn now, not only at the next change.
    void api.timeline(e.detail.continuationId).then((t) => this.#settle(t), () => undefined);
  }

  #dismiss(approvalId: string) {
    this.notices = this.notices.filter((n) => n.approvalId !== approvalId);
  }

  #pick(e: CustomEvent<{ sessionId: string; turnId?: string }>) {
    const changed = e.detail.sessionId !== this.session;
    this.session = e.detail.sessionId;
    this.turn = e.detail.turnId;
    this.timeline = undefined;
    this.live = "";
    this.#reveal = this.turn !== undefined;
    if (changed) this.#subscribe();
    if (this.turn) void this.#loadTurn(this.turn);
  }

  override updated() {
    if (!this.#reveal || !this.timeline) return;
    this.#reveal = false;
    const card = this.renderRoot.querySelector("ha-agent-turn");
    const box = card?.getBoundingClientRect();
    // Only when it is out of sight: beside the list on a wide screen, nothing moves.
    if (card && box && (box.top < 0 || box.top > window.innerHeight - 80)) {
      const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
      card.scrollIntoView({ block: "start", behavior: still ? "auto" : "smooth" });
    }
  }

  override render() {
    const o = this.overview;
    const f = this.#format;
    return html`<header>
        <h1>HA Agent</h1>
        ${o?.viewer ? html`<span class="who">${o.viewer.name}${o.viewer.isAdmin ? " · admin" : ""}</span>` : nothing}
      </header>
      <main>
        ${this.offline ? html`<p class="offline wide" role="status">Reconnecting to HA Agent…</p>` : nothing}
        <div class="notices wide" role="status" aria-live="polite" aria-label="What your answers did">${this.notices.map(
          (n) => html`<p class="notice ${n.decision}" data-notice=${n.approvalId} data-settled=${n.settled ? "true" : "false"}><span>${n.text}</span><button @click=${() => this.#dismiss(n.approvalId)} aria-label="Dismiss: ${n.text}">Dismiss</button></p>`,
        )}</div>
        ${!o
          ? html`<p class="wide muted">Loading…</p>`
          : html`
              <ha-agent-problems class="wide" .problems=${o.problems}></ha-agent-problems>
              ${o.approvals.map((a) => html`<ha-agent-approval class="wide" .approval=${a} .format=${f} @answered=${this.#answered}></ha-agent-approval>`)}
              ${o.viewer
                ? html`<ha-agent-sessions .sessions=${o.sessions} .selectedSession=${this.session} .selectedTurn=${this.turn} .showOwners=${o.viewer.isAdmin} .format=${f} @pick=${this.#pick}></ha-agent-sessions>
                    <div>${this.timeline ? html`<ha-agent-turn .timeline=${this.timeline} .live=${this.live} .format=${f}></ha-agent-turn>` : html`<section class="card"><h2>Turn</h2><p class="muted">Choose a session and a turn to see what the agent did.</p></section>`}</div>`
                : html`<section class="card wide"><h2>Sessions</h2><p class="muted">Open HA Agent from Home Assistant's sidebar to see your sessions.</p></section>`}
              <ha-agent-health .overview=${o} .format=${f}></ha-agent-health>
              <ha-agent-connect .connect=${o.connect}></ha-agent-connect>
              ${o.viewer ? html`<ha-agent-usage class="wide" .usage=${this.usage} .format=${f}></ha-agent-usage>` : nothing}
            `}
      </main>`;
  }
}
customElements.define("ha-agent-console", ConsoleApp);
