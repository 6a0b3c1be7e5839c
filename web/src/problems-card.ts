import { LitElement, html, css } from "lit";
import type { Problem } from "./api.js";
import { cardStyles } from "./theme.js";

/** What is wrong, each with what to do; nothing when all is well. */
export class ProblemsCard extends LitElement {
  static override properties = { problems: { attribute: false } };
  static override styles = [cardStyles, css`.card { border-left: 4px solid var(--warning-color); } li { margin: 6px 0; } .fix { color: var(--secondary-text-color); }`];
  declare problems: Problem[];

  override render() {
    if (!this.problems.length) return html``;
    return html`<section class="card" role="status" aria-labelledby="problems-title">
      <h2 id="problems-title">Needs attention</h2>
      <ul>${this.problems.map((p) => html`<li data-problem=${p.code}><strong>${p.title}</strong><br /><span class="fix">${p.fix}</span></li>`)}</ul>
    </section>`;
  }
}
customElements.define("ha-agent-problems", ProblemsCard);
