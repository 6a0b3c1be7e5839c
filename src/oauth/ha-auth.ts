import { z } from "zod";
import { describeError } from "../shared/index.js";
import { HaUnreachableError } from "./ha-unreachable.js";

/**
 * Home Assistant's `/auth/token`, called server to server. HA keys a code by
 * the exact `client_id` string that asked for it, and its refresh grant needs
 * that same string again, so the caller keeps it with the grant.
 */
export interface HaAuthOptions {
  /** Core's base URL as the add-on reaches it (`http://homeassistant:8123`, `HA_URL`): never taken from a request. */
  coreUrl: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

const TokenAnswerSchema = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1).optional(),
  expires_in: z.number().positive(),
});

export interface HaTokens {
  accessToken: string;
  /** Only the code grant returns one; HA's refresh grant never rotates it. */
  refreshToken: string | undefined;
  expiresInSeconds: number;
}

/** HA's token view refused, in its own words: a 400 or 403 with an OAuth error code. */
export interface HaRefusal {
  refused: true;
  /** HA's `error`: `invalid_grant`, `invalid_request`, `access_denied`. */
  error: string;
  reason: string;
}

/** The refresh token is gone from Home Assistant: the person removed the login (or it expired unused). */
export interface HaEnded {
  ended: true;
  reason: string;
}

/** A hint for the log when HA answers 403 without its own error: its ban of this address (http/ban.py, ip_bans.yaml). */
const BANNED = "answered 403 without an OAuth error: Home Assistant has probably banned this add-on's address after failed logins (remove it from ip_bans.yaml in HA's configuration folder, or call http.unban)";

async function tokenRequest(options: HaAuthOptions, form: Record<string, string>): Promise<HaTokens | HaRefusal> {
  const url = `${options.coreUrl.replace(/\/+$/, "")}/auth/token`;
  let response: Response;
  let text: string;
  try {
    response = await (options.fetch ?? fetch)(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form).toString(),
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
    text = await response.text();
  } catch (err) {
    throw new HaUnreachableError(`${url} did not answer (${describeError(err)})`, { cause: err });
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (response.ok) {
    const parsed = TokenAnswerSchema.safeParse(body);
    if (!parsed.success) throw new HaUnreachableError(`${url} answered a token response HA Agent cannot read`);
    return { accessToken: parsed.data.access_token, refreshToken: parsed.data.refresh_token, expiresInSeconds: parsed.data.expires_in };
  }
  // HA's TokenView (components/auth/__init__.py) refuses with 400 or 403 and a JSON `error`. Anything else is
  // not HA refusing this token but HA not answering as itself: its ban middleware (a bare 403 for every
  // request from a banned address), a 5xx while it starts or stops, a proxy in front of it.
  const refusal = RefusalSchema.safeParse(body);
  if ((response.status === 400 || response.status === 403) && refusal.success) {
    return { refused: true, error: refusal.data.error, reason: [refusal.data.error, refusal.data.error_description].filter(Boolean).join(": ") };
  }
  throw new HaUnreachableError(response.status === 403 ? `${url} ${BANNED}` : `${url} answered HTTP ${response.status}`);
}

const RefusalSchema = z.object({ error: z.string().min(1), error_description: z.string().optional() });

/** Trades the code HA's login page gave for HA's tokens. */
export function exchangeHaCode(options: HaAuthOptions & { clientId: string; code: string }): Promise<HaTokens | HaRefusal> {
  return tokenRequest(options, { grant_type: "authorization_code", code: options.code, client_id: options.clientId });
}

/**
 * A new HA access token from the grant's HA refresh token. Only HA's
 * `invalid_grant` (the refresh token no longer exists: the person removed
 * the login) ends the sign-in. Every other refusal, a ban, a 5xx or no
 * answer throws HaUnreachableError: HA may answer again, and the sign-in
 * must still be there when it does.
 */
export async function refreshHaAccess(options: HaAuthOptions & { clientId: string; refreshToken: string }): Promise<HaTokens | HaEnded> {
  const answer = await tokenRequest(options, { grant_type: "refresh_token", refresh_token: options.refreshToken, client_id: options.clientId });
  if (!("refused" in answer)) return answer;
  if (answer.error === "invalid_grant") return { ended: true, reason: answer.reason };
  // access_denied: HA refuses the user for now (deactivated, or local-only and not local); it may let them in again.
  throw new HaUnreachableError(`Home Assistant refused to renew a sign-in for now (${answer.reason})`);
}

/** Tells HA to forget a refresh token (its login disappears from the user's profile). Best effort. */
export async function revokeAtHa(options: HaAuthOptions & { refreshToken: string }): Promise<void> {
  await (options.fetch ?? fetch)(`${options.coreUrl.replace(/\/+$/, "")}/auth/revoke`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token: options.refreshToken }).toString(),
    signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
  }).then((r) => r.body?.cancel());
}

/** Whether HA accepts an access token right now (`GET /api/`). */
export async function haAccepts(options: HaAuthOptions & { accessToken: string }): Promise<boolean> {
  const url = `${options.coreUrl.replace(/\/+$/, "")}/api/`;
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, { headers: { authorization: `Bearer ${options.accessToken}` }, signal: AbortSignal.timeout(options.timeoutMs ?? 5_000) });
  } catch (err) {
    throw new HaUnreachableError(`${url} did not answer (${describeError(err)})`, { cause: err });
  }
  await response.body?.cancel().catch(() => undefined);
  if (response.status === 200) return true;
  // A token HA does not accept is a 401; a 403 is HA refusing this add-on's address, not the token.
  if (response.status === 401) return false;
  throw new HaUnreachableError(response.status === 403 ? `${url} ${BANNED}` : `${url} answered HTTP ${response.status}`);
}
