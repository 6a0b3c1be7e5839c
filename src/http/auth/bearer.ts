import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger, Principal } from "../../shared/index.js";
import { describeError } from "../../shared/index.js";
import { sendJson } from "../respond.js";
import { AuthUnavailableError, TooManyTokenChecksError } from "./errors.js";
import type { TokenVerifier } from "./token-verifier.js";

const REALM = 'Bearer realm="ha-agent"';

/** Where a caller finds a token: HA's profile page, or, in demo mode, the banner. */
export const TOKEN_HINTS = {
  homeAssistant: "a Home Assistant long-lived access token (Profile → Security in Home Assistant), or sign in with Home Assistant through your MCP client",
  demo: "the demo token HA Agent printed when it started (or set DEMO_TOKEN for a fixed one), or sign in with Home Assistant through your MCP client",
} as const;

export interface AuthenticateOptions {
  req: IncomingMessage;
  res: ServerResponse;
  verifier: TokenVerifier;
  logger?: Logger | undefined;
  tokenHint?: string | undefined;
  /**
   * The `WWW-Authenticate` value of a 401 when the OAuth front is on: it
   * points the client at the protected-resource metadata, so it can sign in.
   */
  challenge?: ((req: IncomingMessage, error?: { code: string; description: string }) => string | undefined) | undefined;
}

/**
 * Resolves the caller of a request, or answers it: 401 with
 * `WWW-Authenticate` for a missing or rejected token, 503 when Home Assistant
 * cannot be asked. Returns undefined when the response has been sent.
 */
export async function authenticate(options: AuthenticateOptions): Promise<Principal | undefined> {
  const { req, res, verifier, logger, tokenHint = TOKEN_HINTS.homeAssistant } = options;
  const wwwAuthenticate = (error?: { code: string; description: string }) =>
    options.challenge?.(req, error) ?? (error ? `${REALM}, error="${error.code}", error_description="${error.description}"` : REALM);
  const header = req.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (!match?.[1]) {
    res.setHeader("WWW-Authenticate", wwwAuthenticate());
    sendJson(res, 401, {
      error: "unauthorized",
      message: `Send the header 'Authorization: Bearer <token>' with ${tokenHint}.`,
    });
    return undefined;
  }
  try {
    const principal = await verifier.verify(match[1], req.socket.remoteAddress ?? "unknown");
    if (principal) return principal;
  } catch (err) {
    if (err instanceof TooManyTokenChecksError) {
      res.setHeader("Retry-After", String(Math.ceil(err.retryAfterMs / 1000)));
      sendJson(res, 429, { error: "too_many_token_checks", message: err.message });
      return undefined;
    }
    if (err instanceof AuthUnavailableError) {
      // The detail names HA's internal address: it goes to the log, not to whoever called.
      logger?.warn({ reason: err.detail }, "a token could not be checked with Home Assistant");
      res.setHeader("Retry-After", "5");
      sendJson(res, 503, { error: "auth_unavailable", message: "HA Agent cannot check the token with Home Assistant right now. Try again in a few seconds." });
      return undefined;
    }
    logger?.error({ err: describeError(err) }, "checking a token failed");
    sendJson(res, 500, { error: "internal", message: "Checking the token failed inside HA Agent; the details are in its log." });
    return undefined;
  }
  res.setHeader("WWW-Authenticate", wwwAuthenticate({ code: "invalid_token", description: "Home Assistant does not accept this token" }));
  sendJson(res, 401, { error: "invalid_token", message: `Home Assistant does not accept this token. Use ${tokenHint}.` });
  return undefined;
}
