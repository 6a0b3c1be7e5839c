import { LitElement, html, css, unsafeCSS } from "lit";
import uPlot from "uplot";
// The chart lives in this element's shadow root, so its stylesheet must too; esbuild inlines the text at build time.
import uPlotCss from "uplot/dist/uPlot.min.css" with { type: "text" };
import type { UsageReport } from "./api.js";
import type { HomeFormat } from "./format.js";
import { dayTag } from "./time.js";
import { cardStyles } from "./theme.js";

const COLORS = ["#03a9f4", "#ff9800", "#4caf50", "#9c27b0", "#f44336"];

/** Tokens per day and per model over 30 days, and the turns and calls behind them. */
export class UsageCard extends LitElement {
  static override properties = { usage: { attribute: false }, format: { attribute: false } };
  static override styles = [cardStyles, unsafeCSS(uPlotCss), css`.chart { width: 100%; min-height: 200px; overflow: hidden; } .table { overflow-x: auto; } table { border-collapse: collapse; width: 100%; } th, td { text-align: right; padding: 4px 6px; border-bottom: 1px solid var(--divider-color); } th:first-child, td:first-child, th:nth-child(2), td:nth-child(2) { text-align: left; } th { font-weight: 500; color: var(--secondary-text-color); }`];
  declare usage: UsageReport | undefined;
  declare format: HomeFormat;
  #plot: uPlot | undefined;

  override disconnectedCallback() {
    super.disconnectedCallback();
    this.#plot?.destroy();
  }

  override updated() {
    const box = this.renderRoot.querySelector<HTMLElement>(".chart");
    const u = this.usage;
    const f = this.format;
    if (!box || !u || !u.rows.length) return;
    const models = [...new Set(u.rows.map((r) => r.model))];
    // Each day is Home Assistant's calendar day, placed at its noon in UTC and read back in UTC, so no browser zone shifts it.
    const x = u.days.map((d) => Date.parse(`${d}T12:00:00Z`) / 1000);
    // A day without turns has no point, rather than a zero the line would climb from.
    const series = models.map((m) => u.days.map((d) => u.rows.filter((r) => r.day === d && r.model === m).reduce((n, r) => n + r.tokens, 0) || null));
    this.#plot?.destroy();
    const text = getComputedStyle(this).getPropertyValue("--primary-text-color").trim() || "#212121";
    const grid = getComputedStyle(this).getPropertyValue("--divider-color").trim() || "rgba(0,0,0,.12)";
    const axis = { stroke: text, grid: { stroke: grid }, ticks: { stroke: grid } };
    this.#plot = new uPlot(
      {
        width: Math.max(box.clientWidth, 260),
        height: 200,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1e3), "Etc/UTC"),
        series: [
          { label: "Day", value: (_plot, ts) => (ts == null ? "" : f.day(f.dayOfNoon(ts))) },
          ...models.map((m, i) => ({ label: m, stroke: COLORS[i % COLORS.length]!, width: 2, spanGaps: false, points: { show: true, size: 7 }, value: (_plot: uPlot, v: number | null) => (v == null ? "–" : `${f.number(v)} tokens`) })),
        ],
        // Days on the axis as the rest of the page writes them, in the home's locale (uPlot's own would be "11/9").
        axes: [{ ...axis, values: (_plot, ticks) => ticks.map((t) => f.dayShort(f.dayOfNoon(t))) }, { ...axis, size: 60, values: (_plot, ticks) => ticks.map((t) => f.number(t)) }],
        // The legend names the models by colour; the day's figures are in the table below, so it shows no live values ("Time: --").
        legend: { show: true, live: false },
        cursor: { points: { size: 8 } },
      },
      [x, ...series],
      box,
    );
  }

  override render() {
    const u = this.usage;
    const f = this.format;
    const recent = u ? [...u.rows].reverse().slice(0, 10) : [];
    const daysUsed = new Set(u?.rows.map((r) => r.day)).size;
    const tokens = u?.rows.reduce((n, r) => n + r.tokens, 0) ?? 0;
    return html`<section class="card" aria-labelledby="usage-title">
      <h2 id="usage-title">Usage, last 30 days</h2>
      ${!u ? html`<p class="muted">Loading…</p>` : !u.rows.length ? html`<p class="muted">No turns in the last 30 days.</p>` : html`<p data-testid="usage-summary" data-days-used=${daysUsed}>${f.count(tokens, "token")} on ${f.count(daysUsed, "day")} of the last ${u.days.length}</p>
        <div class="chart" role="img" aria-label="Tokens per day and model over ${u.days.length} days" data-days=${u.days.length} data-first=${u.days[0] ?? ""}></div>
        <div class="table"><table><thead><tr><th scope="col">Day</th><th scope="col">Model</th><th scope="col">Tokens</th><th scope="col">Turns</th><th scope="col">Model calls</th><th scope="col">Tool calls</th></tr></thead>
        <tbody>${recent.map((r) => html`<tr data-day=${r.day}><td>${dayTag(f, r.day)}</td><td>${r.model}</td><td>${f.number(r.tokens)}</td><td>${f.number(r.turns)}</td><td>${f.number(r.modelCalls)}</td><td>${f.number(r.toolCalls)}</td></tr>`)}</tbody></table></div>`}
      ${u ? html`<p class="muted">${u.note}</p>` : ""}
    </section>`;
  }
}
customElements.define("ha-agent-usage", UsageCard);
