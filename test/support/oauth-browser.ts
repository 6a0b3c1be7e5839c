import { randomBytes } from "node:crypto";
import type { OAuthClientProvider } from "@modelcontextprotocol/client";
import { DEMO_LOGIN } from "@ha-agent/ha-simulator";

/**
 * A browser's network layer: one HTTP hop at a time, without following
 * redirects, with a cookie jar. Like a browser's, the jar keys cookies by
 * name and path, not by port, so the add-on's and the simulated Home
 * Assistant's cookies on 127.0.0.1 live side by side in it.
 */
export class Browser {
  readonly #cookies = new Map<string, { value: string; path: string }>();

  async hop(url: string, init: RequestInit = {}): Promise<{ status: number; location: string | undefined; body: string; setCookie: string[] }> {
    const path = new URL(url).pathname;
    const cookie = [...this.#cookies].filter(([, c]) => path.startsWith(c.path)).map(([name, c]) => `${name}=${c.value}`).join("; ");
    const res = await fetch(url, { ...init, redirect: "manual", headers: { ...(init.headers as Record<string, string>), ...(cookie ? { cookie } : {}) } });
    const setCookie = res.headers.getSetCookie();
    for (const line of setCookie) this.#remember(line);
    const location = res.headers.get("location") ?? undefined;
    return { status: res.status, location: location ? new URL(location, url).toString() : undefined, body: await res.text(), setCookie };
  }

  /** The value of a cookie the browser holds. */
  cookie(name: string): string | undefined {
    return this.#cookies.get(name)?.value;
  }

  #remember(line: string): void {
    const [pair, ...attributes] = line.split(";").map((part) => part.trim());
    const eq = pair!.indexOf("=");
    const name = pair!.slice(0, eq);
    const value = pair!.slice(eq + 1);
    const attr = (key: string) => attributes.find((a) => a.toLowerCase().startsWith(`${key}=`))?.slice(key.length + 1);
    if (attr("max-age") === "0" || value === "") this.#cookies.delete(name);
    else this.#cookies.set(name, { value, path: attr("path") ?? "/" });
  }
}

const hiddenInputs = (html: string): Record<string, string> =>
  Object.fromEntries([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!.replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c))).replace(/&amp;/g, "&").replace(/&quot;/g, '"')]));

const form = (fields: Record<string, string>): RequestInit => ({ method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() });

export interface SignInSteps {
  consent: { status: number; body: string };
  /** Where the consent sent the browser: Home Assistant's login page. */
  haLogin: string;
  /** Where the sign-in ended: the client's redirect URI with `code`, `state` and `iss` (or an error). */
  back: URL;
}

/** Opens the consent page and answers it; the answer's hop (a redirect to HA's login page, or to the client on deny). */
export async function answerConsent(browser: Browser, authorizeUrl: string, decision: "allow" | "deny" = "allow") {
  const consent = await browser.hop(authorizeUrl);
  if (consent.status !== 200) throw new Error(`the consent page answered ${consent.status}: ${consent.location ?? ""} ${consent.body.slice(0, 300)}`);
  const answered = await browser.hop(new URL("/oauth/authorize", authorizeUrl).toString(), form({ ...hiddenInputs(consent.body), decision }));
  if (answered.status !== 302 || !answered.location) throw new Error(`the consent answer got ${answered.status}: ${answered.body.slice(0, 300)}`);
  return { consent, location: answered.location };
}

/** Logs in on Home Assistant's login page; where HA sends the browser back (the add-on's callback with HA's code). */
export async function logInAtHa(browser: Browser, haLogin: string, login: { username: string; password: string } = DEMO_LOGIN): Promise<string> {
  const loginPage = await browser.hop(haLogin);
  if (loginPage.status !== 200) throw new Error(`Home Assistant's login page answered ${loginPage.status}: ${loginPage.body.slice(0, 300)}`);
  const loggedIn = await browser.hop(haLogin.split("?")[0]!, form({ ...hiddenInputs(loginPage.body), username: login.username, password: login.password }));
  if (loggedIn.status !== 302 || !loggedIn.location) throw new Error(`the login answered ${loggedIn.status}: ${loggedIn.body.slice(0, 300)}`);
  return loggedIn.location;
}

/**
 * Plays a person's browser through the sign-in: the consent page (allow or
 * deny), Home Assistant's login page with the demo user's password, and the
 * add-on's callback, following each redirect by hand, one browser throughout.
 */
export async function signInAsPerson(authorizeUrl: string, o: { decision?: "allow" | "deny"; login?: { username: string; password: string }; browser?: Browser } = {}): Promise<SignInSteps> {
  const browser = o.browser ?? new Browser();
  const { consent, location } = await answerConsent(browser, authorizeUrl, o.decision ?? "allow");
  if ((o.decision ?? "allow") === "deny") return { consent, haLogin: "", back: new URL(location) };
  const callbackUrl = await logInAtHa(browser, location, o.login);
  const callback = await browser.hop(callbackUrl);
  if (callback.status !== 302 || !callback.location) throw new Error(`the callback answered ${callback.status}: ${callback.body.slice(0, 300)}`);
  return { consent, haLogin: location, back: new URL(callback.location) };
}

type DiscoveryState = NonNullable<Awaited<ReturnType<NonNullable<OAuthClientProvider["discoveryState"]>>>>;

/** An MCP client's OAuth state kept in memory, as Claude Code or VS Code keep theirs; the browser is played by `signInAsPerson`. */
export class MemoryOAuthProvider implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  #client: Awaited<ReturnType<OAuthClientProvider["clientInformation"]>>;
  #tokens: Awaited<ReturnType<OAuthClientProvider["tokens"]>>;
  #verifier = "";
  #discovery: DiscoveryState | undefined;

  constructor(readonly redirect = "http://127.0.0.1:43118/callback", readonly name = "Test client") {}

  get redirectUrl(): string {
    return this.redirect;
  }
  get clientMetadata() {
    return { client_name: this.name, redirect_uris: [this.redirect], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none" };
  }
  clientInformation() {
    return this.#client;
  }
  saveClientInformation(info: Awaited<ReturnType<OAuthClientProvider["clientInformation"]>>) {
    this.#client = info;
  }
  tokens() {
    return this.#tokens;
  }
  saveTokens(tokens: Awaited<ReturnType<OAuthClientProvider["tokens"]>>) {
    this.#tokens = tokens;
  }
  // The add-on requires state, as Claude Code and VS Code send it.
  state() {
    return randomBytes(16).toString("base64url");
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.#verifier = verifier;
  }
  codeVerifier() {
    return this.#verifier;
  }
  // Kept with the code verifier, as real clients keep it: the SDK checks on the callback that the code comes from the server it was sent to.
  saveDiscoveryState(state: DiscoveryState) {
    this.#discovery = state;
  }
  discoveryState() {
    return this.#discovery;
  }
}
