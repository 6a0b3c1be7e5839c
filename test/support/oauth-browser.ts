import { randomBytes } from "node:crypto";
import type { OAuthClientProvider } from "@modelcontextprotocol/client";
import { DEMO_LOGIN } from "../../src/simulator/index.js";

/** One HTTP hop, without following redirects, as a browser's network layer sees it. */
async function hop(url: string, init: RequestInit & { cookie?: string } = {}): Promise<{ status: number; location: string | undefined; body: string; setCookie: string | undefined }> {
  const res = await fetch(url, { ...init, redirect: "manual", headers: { ...(init.headers as Record<string, string>), ...(init.cookie ? { cookie: init.cookie } : {}) } });
  const location = res.headers.get("location") ?? undefined;
  return { status: res.status, location: location ? new URL(location, url).toString() : undefined, body: await res.text(), setCookie: res.headers.get("set-cookie") ?? undefined };
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

/**
 * Plays a person's browser through the sign-in: the consent page (allow or
 * deny), Home Assistant's login page with the demo user's password, and the
 * add-on's callback, following each redirect by hand.
 */
export async function signInAsPerson(authorizeUrl: string, o: { decision?: "allow" | "deny"; login?: { username: string; password: string } } = {}): Promise<SignInSteps> {
  const consent = await hop(authorizeUrl);
  if (consent.status !== 200) throw new Error(`the consent page answered ${consent.status}: ${consent.location ?? ""} ${consent.body.slice(0, 300)}`);
  const cookie = consent.setCookie?.split(";")[0];
  const answered = await hop(new URL("/oauth/authorize", authorizeUrl).toString(), { ...form({ ...hiddenInputs(consent.body), decision: o.decision ?? "allow" }), ...(cookie ? { cookie } : {}) });
  if (answered.status !== 302 || !answered.location) throw new Error(`the consent answer got ${answered.status}: ${answered.body.slice(0, 300)}`);
  if ((o.decision ?? "allow") === "deny") return { consent, haLogin: "", back: new URL(answered.location) };
  const loginPage = await hop(answered.location);
  if (loginPage.status !== 200) throw new Error(`Home Assistant's login page answered ${loginPage.status}: ${loginPage.body.slice(0, 300)}`);
  const login = o.login ?? DEMO_LOGIN;
  const loggedIn = await hop(answered.location.split("?")[0]!, form({ ...hiddenInputs(loginPage.body), username: login.username, password: login.password }));
  if (loggedIn.status !== 302 || !loggedIn.location) throw new Error(`the login answered ${loggedIn.status}: ${loggedIn.body.slice(0, 300)}`);
  const callback = await hop(loggedIn.location);
  if (callback.status !== 302 || !callback.location) throw new Error(`the callback answered ${callback.status}: ${callback.body.slice(0, 300)}`);
  return { consent, haLogin: answered.location, back: new URL(callback.location) };
}

/** An MCP client's OAuth state kept in memory, as Claude Code or VS Code keep theirs; the browser is played by `signInAsPerson`. */
export class MemoryOAuthProvider implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  #client: Awaited<ReturnType<OAuthClientProvider["clientInformation"]>>;
  #tokens: Awaited<ReturnType<OAuthClientProvider["tokens"]>>;
  #verifier = "";

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
}
