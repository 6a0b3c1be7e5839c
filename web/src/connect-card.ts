import { LitElement, html, css, nothing } from "lit";
import type { ConnectView } from "./api.js";
import { cardStyles } from "./theme.js";
import "./copyable.js";

type Snippet = ConnectView["snippets"][number];

/** The MCP URL and a snippet per client, the sign-in form first where the client has one, each with a copy button. */
export class ConnectCard extends LitElement {
  static override properties = { connect: { attribute: false } };
  static override styles = [
    cardStyles,
    css`
      details { border-top: 1px solid var(--divider-color); padding: 6px 0; }
      summary { cursor: pointer; font-weight: 500; padding: 4px 0; }
      h3 { font-size: 13px; margin: 8px 0 0; }
      /* A snippet wraps on a narrow card rather than hiding its end: what is copied is the text as written. */
      pre.snippet { white-space: pre-wrap; overflow-wrap: anywhere; }
    `,
  ];
  declare connect: ConnectView;
  #form(s: Snippet, kind: "sign-in" | "token", where: string, text: string) {
    const label = kind === "sign-in" ? `the ${s.client} sign-in snippet` : `the ${s.client} snippet with a token`;
    return html`<ha-agent-copyable .text=${text} .caption=${where} .label=${label}>
      <pre class="snippet" tabindex="0" data-client=${kind === "token" ? s.client : nothing} data-sign-in=${kind === "sign-in" ? s.client : nothing}>${text}</pre>
    </ha-agent-copyable>`;
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
          ${s.signIn
            ? html`<h3>Signing in: only the URL</h3>${this.#form(s, "sign-in", s.signIn.where, s.signIn.text)}
                <h3>Or with a token</h3>`
            : nothing}
          ${this.#form(s, "token", s.where, s.text)}
        </details>`,
      )}
    </section>`;
  }
}
customElements.define("ha-agent-connect", ConnectCard);
