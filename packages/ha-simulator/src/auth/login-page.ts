/**
 * The simulated `/auth/authorize` page: server-rendered HTML with a plain
 * form and no script, so a browser test (or a person in demo mode) can fill
 * it. Every value is escaped; the page holds no secrets but the demo hint.
 */

export interface LoginPageParams {
  clientId: string;
  redirectUri: string;
  state: string | undefined;
  responseType: string | undefined;
}

const STYLE = `
  body { font-family: Roboto, "Noto Sans", sans-serif; background: var(--primary-background-color, #fafafa); color: var(--primary-text-color, #212121); margin: 0; }
  main { max-width: 420px; margin: 48px auto; padding: 24px; background: var(--card-background-color, #fff); border-radius: 12px; box-shadow: 0 2px 6px rgba(0,0,0,.15); }
  h1 { font-size: 22px; font-weight: 400; margin: 0 0 16px; }
  label { display: block; margin: 16px 0 4px; }
  input[type=text], input[type=password] { width: 100%; box-sizing: border-box; padding: 10px; font-size: 16px; }
  button { margin-top: 24px; padding: 10px 24px; font-size: 16px; background: var(--primary-color, #03a9f4); color: #fff; border: 0; border-radius: 4px; }
  .error { color: var(--error-color, #db4437); margin-top: 16px; }
  .hint { color: var(--secondary-text-color, #727272); font-size: 14px; margin-top: 24px; }
  code { word-break: break-all; }
`;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main>${body}</main></body></html>`;
}

/** The login form for one authorization request; `error` shows above the button after a failed attempt. */
export function loginPage(o: { params: LoginPageParams; error?: string; hint?: string }): string {
  const hidden = (name: string, value: string | undefined) =>
    value === undefined ? "" : `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
  const p = o.params;
  return page(
    "Home Assistant",
    `<h1>Home Assistant (simulated)</h1>
<p>You're about to give <code>${escapeHtml(p.clientId)}</code> access to your Home Assistant instance.</p>
<p>Logging in with <b>Home Assistant Local</b>.</p>
<form method="post" action="/auth/authorize">
${hidden("client_id", p.clientId)}${hidden("redirect_uri", p.redirectUri)}${hidden("state", p.state)}${hidden("response_type", p.responseType)}
<label for="username">Username</label><input id="username" type="text" name="username" autocomplete="username" required>
<label for="password">Password</label><input id="password" type="password" name="password" autocomplete="current-password" required>
${o.error ? `<p class="error" role="alert">${escapeHtml(o.error)}</p>` : ""}
<button type="submit">Log in</button>
</form>
${o.hint ? `<p class="hint">${escapeHtml(o.hint)}</p>` : ""}`,
  );
}

/** A refusal: the request cannot be served, and the browser is not sent anywhere. */
export function errorPage(message: string): string {
  return page("Home Assistant: login refused", `<h1>Home Assistant (simulated)</h1><p class="error" role="alert">${escapeHtml(message)}</p>`);
}
