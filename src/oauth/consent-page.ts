/**
 * The consent and error pages of the sign-in, server-rendered in Home
 * Assistant's look (its font stack, card and colours, light and dark). No
 * script: a form and two buttons.
 */
import { visible } from "../shared/index.js";
import type { OAuthClient } from "./clients/index.js";

/** Text for the page: invisible characters made visible (as every decision shows names: shared/display-name.ts), then HTML-escaped. */
const escape = (s: string) => visible(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STYLE = `
:root{color-scheme:light dark;--primary:#0277bd;--on-primary:#fff;--bg:#fafafa;--card:#fff;--text:#212121;--muted:#727272;--line:#e0e0e0}
@media (prefers-color-scheme:dark){:root{--primary:#03a9f4;--on-primary:#111;--bg:#111;--card:#1c1c1c;--text:#e1e1e1;--muted:#9b9b9b;--line:#2f2f2f}}
*{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--text);font-family:Roboto,Noto,"Noto Sans",system-ui,sans-serif;font-size:14px;line-height:1.5}
main{max-width:460px;margin:48px auto;padding:0 16px}
.card{background:var(--card);border-radius:12px;border:1px solid var(--line);padding:24px}
h1{font-size:22px;font-weight:400;margin:0 0 16px}p{margin:0 0 12px}ul{margin:0 0 16px;padding-left:20px}
.muted{color:var(--muted)}code{font-size:13px;word-break:break-all}
.actions{display:flex;gap:12px;justify-content:flex-end;margin-top:20px}
button{font:inherit;font-weight:500;border-radius:4px;padding:8px 16px;cursor:pointer;border:1px solid var(--primary)}
button.allow{background:var(--primary);color:var(--on-primary)}button.deny{background:transparent;color:var(--primary)}
button:focus-visible{outline:2px solid var(--text);outline-offset:2px}`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escape(title)}</title><style>${STYLE}</style></head><body><main><div class="card">${body}</div></main></body></html>`;
}

export interface ConsentPageParams {
  client: Pick<OAuthClient, "clientId" | "name" | "kind">;
  /** Where the browser goes back to after the sign-in. */
  redirectHost: string;
  /** The sealed request, posted back with the decision. */
  sealed: string;
  actionPath: string;
}

export function consentPage(p: ConsentPageParams): string {
  const name = escape(p.client.name);
  // Whoever registers or publishes a client names it: the name proves nothing. What is known is where a
  // metadata document lives (the host of its URL), and where the browser goes back to.
  const published = p.client.kind === "metadata_document" ? `, from its description published at <code>${escape(new URL(p.client.clientId).host)}</code>` : "";
  const unverified = ` <span class="muted">(the name is the client's own claim${published})</span>`;
  return page(
    "Sign in to HA Agent",
    `<h1>Allow ${name} to use HA Agent?</h1>
<p><strong>${name}</strong>${unverified} asks to connect to HA Agent as you. After you allow it, you sign in on Home Assistant's own page; HA Agent never sees your password.</p>
<p>It will be able to:</p>
<ul><li>read the state of your home, as Home Assistant shows it to you;</li><li>run HA Agent's tools and agent sessions as you;</li><li>change things in your home only where HA Agent's settings allow it, and ask for your approval first where they say so.</li></ul>
<p class="muted">You are sent back to <code>${escape(p.redirectHost)}</code> afterwards. You can end this sign-in at any time in your Home Assistant profile (Security → Refresh tokens).</p>
<form method="post" action="${escape(p.actionPath)}"><input type="hidden" name="request" value="${escape(p.sealed)}">
<div class="actions"><button class="deny" type="submit" name="decision" value="deny">Deny</button><button class="allow" type="submit" name="decision" value="allow">Allow</button></div></form>`,
  );
}

/** A protocol message such as "unknown client_id: register …" as a sentence a person reads under a heading. */
function sentence(message: string): string {
  const text = message.trim();
  const capitalised = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capitalised) ? capitalised : `${capitalised}.`;
}

export function errorPage(message: string): string {
  return page(
    "Sign-in failed",
    `<h1>This sign-in cannot continue</h1><p>${escape(sentence(message))}</p><p class="muted">Start the sign-in again from your MCP client.</p>`,
  );
}
