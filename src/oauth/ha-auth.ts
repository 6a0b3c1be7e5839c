import { z } from "zod";
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

/** HA refused: the code or refresh token is unknown, spent or removed. */
export interface HaRefusal {
  refused: true;
  reason: string;
}

async function tokenRequest(options: HaAuthOptions, form: Record<string, string>): Promise<HaTokens | HaRefusal> {
  const url = `${options.coreUrl.replace(/\/+$/, "")}/auth/token`;
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form).toString(),
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
  } catch (err) {
    throw new HaUnreachableError(`${url} is unreachable`, { cause: err });
  }
  const text = await response.text();
  if (response.status >= 500 || response.status === 429) throw new HaUnreachableError(`${url} answered HTTP ${response.status}`);
  if (!response.ok) {
    let reason = `HTTP ${response.status}`;
    try {
      const body = JSON.parse(text) as { error?: string; error_description?: string };
      reason = [body.error, body.error_description].filter(Boolean).join(": ") || reason;
    } catch {
      // HA answers JSON; anything else keeps the status as the reason.
    }
    return { refused: true, reason };
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const parsed = TokenAnswerSchema.safeParse(body);
  if (!parsed.success) throw new HaUnreachableError(`${url} answered a token response HA Agent cannot read`);
  return { accessToken: parsed.data.access_token, refreshToken: parsed.data.refresh_token, expiresInSeconds: parsed.data.expires_in };
}

/** Trades the code HA's login page gave for HA's tokens. */
export function exchangeHaCode(options: HaAuthOptions & { clientId: string; code: string }): Promise<HaTokens | HaRefusal> {
  return tokenRequest(options, { grant_type: "authorization_code", code: options.code, client_id: options.clientId });
}

/** A new HA access token from the grant's HA refresh token; a refusal means the user removed it in their HA profile. */
export function refreshHaAccess(options: HaAuthOptions & { clientId: string; refreshToken: string }): Promise<HaTokens | HaRefusal> {
  return tokenRequest(options, { grant_type: "refresh_token", refresh_token: options.refreshToken, client_id: options.clientId });
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
    throw new HaUnreachableError(`${url} is unreachable`, { cause: err });
  }
  await response.body?.cancel();
  if (response.status === 200) return true;
  if (response.status === 401 || response.status === 403) return false;
  throw new HaUnreachableError(`${url} answered HTTP ${response.status}`);
}
