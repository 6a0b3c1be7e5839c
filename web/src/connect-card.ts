import { LitElement, html, css } from "lit";
import type { ConnectView } from "./api.js";
import { cardStyles } from "./theme.js";

/** The MCP URL and a snippet per client, each with a copy button. */
export class ConnectCard extends LitElement {
  static override properties = { connect: { attribute: false }, copied: { state: true } };
  static override styles = [cardStyles, css`.head { display: flex; justify-content: space-between; align-items: center; gap: 8px; flex-wrap: wrap; } details { border-top: 1px solid var(--divider-color); padding: 6px 0; } summary { cursor: pointer; font-weight: 500; padding: 4px 0; }`];
  declare connect: ConnectView;
  declare copied: string | undefined;

  async #copy(client: string, text: string) {
    await navigator.clipboard?.writeText(text).catch(() => undefined);
    this.copied = client;
  }

  override render() {
    const c = this.connect;
    return html`<section class="card" aria-labelledby="connect-title">
      <h2 id="connect-title">Connect a client</h2>
      <dl>
        <dt>MCP URL</dt><dd><code data-testid="mcp-url">${c.mcpUrl}</code></dd>
        <dt>Sign-in</dt><dd data-testid="sign-in">Claude Code, VS Code and Home Assistant's own MCP integration need only the URL: they sign in with Home Assistant in your browser.</dd>
        <dt>Or a token</dt><dd>${c.demoToken ? html`<code data-testid="demo-token">${c.demoToken}</code> <span class="muted">(the demo house's token)</span>` : c.tokenHint}</dd>
      </dl>
      ${c.snippets.map(
        (s, i) => html`<details ?open=${i === 0}>
          <summary>${s.client}</summary>
          <div class="head"><span class="muted">${s.where}</span><button @click=${() => this.#copy(s.client, s.text)} aria-label="Copy the ${s.client} snippet">${this.copied === s.client ? "Copied" : "Copy"}</button></div>
          <pre tabindex="0" data-client=${s.client}>${s.text}</pre>
        </details>`,
      )}
    </section>`;
  }
}
customElements.define("ha-agent-connect", ConnectCard);
