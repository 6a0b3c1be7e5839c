import type { IncomingMessage, ServerResponse } from "node:http";
import type { Principal } from "../../shared/index.js";
import { describeError } from "../../shared/index.js";
import { sendJson } from "../respond.js";
import { AuthUnavailableError } from "./errors.js";
import type { TokenVerifier } from "./token-verifier.js";

const REALM = 'Bearer realm="ha-agent"';

/**
 * Resolves the caller of a request, or answers it: 401 with
 * `WWW-Authenticate` for a missing or rejected token, 503 when Home Assistant
 * cannot be asked. Returns undefined when the response has been sent.
 */
export async function authenticate(req: IncomingMessage, res: ServerResponse, verifier: TokenVerifier): Promise<Principal | undefined> {
  const header = req.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (!match?.[1]) {
    res.setHeader("WWW-Authenticate", REALM);
    sendJson(res, 401, {
      error: "unauthorized",
      message: "Send the header 'Authorization: Bearer <token>' with a Home Assistant long-lived access token (Profile → Security in Home Assistant).",
    });
    return undefined;
  }
  try {
    const principal = await verifier.verify(match[1]);
    if (principal) return principal;
  } catch (err) {
    if (err instanceof AuthUnavailableError) {
      res.setHeader("Retry-After", "5");
      sendJson(res, 503, { error: "auth_unavailable", message: err.message });
      return undefined;
    }
    sendJson(res, 500, { error: "internal", message: `Checking the token failed: ${describeError(err)}` });
    return undefined;
  }
  res.setHeader("WWW-Authenticate", `${REALM}, error="invalid_token", error_description="Home Assistant does not accept this token"`);
  sendJson(res, 401, { error: "invalid_token", message: "Home Assistant does not accept this token. Create a new long-lived access token in your Home Assistant profile and use it." });
  return undefined;
}
