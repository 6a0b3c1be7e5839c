import { LitElement, html } from "lit";
import type { Overview } from "./api.js";
import type { HomeFormat } from "./format.js";
import { momentTag } from "./time.js";
import { cardStyles } from "./theme.js";

/** Home Assistant, the index, the store and the model, and what the agent may do. */
export class HealthCard extends LitElement {
  static override properties = { overview: { attribute: false }, format: { attribute: false } };
  static override styles = cardStyles;
  declare overview: Overview;
  declare format: HomeFormat;

  override render() {
    const { health: h, policy } = this.overview;
    const f = this.format;
    const disk = h.store.freeBytes !== null ? `${f.bytes(h.store.freeBytes)} free${h.store.totalBytes ? ` of ${f.bytes(h.store.totalBytes)}` : ""}` : "unknown";
    return html`<section class="card" aria-labelledby="health-title">
      <h2 id="health-title">Health <span class="status ${h.status}">${h.status === "ok" ? "ready" : h.status}</span></h2>
      <h3>Home Assistant</h3>
      <dl>
        <dt>Connection</dt><dd><span class="status ${h.ha.status}">${h.ha.status.replace(/_/g, " ")}</span></dd>
        <dt>Version</dt><dd>${h.ha.version ?? "–"}</dd>
      </dl>
      <h3>Index of the home</h3>
      <dl>
        <dt>Entities</dt><dd>${f.number(h.index.entities)}</dd>
        <dt>Devices</dt><dd>${f.number(h.index.devices)}</dd>
        <dt>Areas</dt><dd>${f.number(h.index.areas)}</dd>
        <dt>Last sync</dt><dd>${h.index.lastSyncAt ? momentTag(f, h.index.lastSyncAt) : "not yet"}</dd>
        <dt>Events</dt><dd>${f.decimal(h.index.eventsPerSecond)} per second</dd>
      </dl>
      <h3>Store</h3>
      <dl>
        <dt>Disk</dt><dd>${disk}</dd>
        <dt>Writable</dt><dd>${h.store.writable ? "yes" : "no"}</dd>
        <dt>Quarantined files</dt><dd>${f.number(h.store.quarantined)}</dd>
        <dt>Last start</dt><dd>recovered in ${f.number(h.store.lastRecovery.durationMs)} ms, ${f.count(h.store.lastRecovery.interrupted, "turn")} interrupted</dd>
      </dl>
      <h3>Model</h3>
      <dl>
        <dt>Provider</dt><dd>${h.model.status === "configured" ? `${h.model.provider} ${h.model.model}` : "not configured"}</dd>
        <dt>Last error</dt><dd>${h.model.lastError ? html`${h.model.lastError.message} (${momentTag(f, h.model.lastError.at)})` : "none"}</dd>
        <dt>Rate limited</dt><dd>${f.count(h.model.rateLimitedLastHour, "time")} in the last hour</dd>
      </dl>
      <h3>What the agent may do</h3>
      <ul>${policy.may.map((s) => html`<li>${s}</li>`)}</ul>
      ${policy.asks.length ? html`<h3>What asks you first</h3><ul>${policy.asks.map((s) => html`<li>${s}</li>`)}</ul>` : ""}
      <h3>What it refuses</h3>
      <ul>${policy.never.map((s) => html`<li>${s}</li>`)}</ul>
      <p class="muted">Up ${f.number(Math.round(h.uptimeSeconds / 60))} min · version ${this.overview.version} · ${this.overview.mode} mode</p>
      <p class="muted" data-testid="time-zone">Times are Home Assistant's: ${f.timeZone}, written for ${f.locale}.</p>
    </section>`;
  }
}
customElements.define("ha-agent-health", HealthCard);
