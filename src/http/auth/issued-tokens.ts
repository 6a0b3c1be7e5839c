import type { Principal } from "../../shared/index.js";
import { AuthUnavailableError } from "./errors.js";
import type { TokenVerifier } from "./token-verifier.js";

/** The tokens the add-on's own OAuth front issued, and how to check one. */
export interface IssuedTokenCheck {
  prefix: string;
  principalFor(token: string): Promise<Principal | undefined>;
  /** Whether an error from `principalFor` means Home Assistant could not be asked (503, retried), not a refusal. */
  isUnavailable(err: unknown): boolean;
}

/**
 * A verifier that checks the front's own tokens (by their prefix) against
 * their grants, and every other token with Home Assistant as before: pasted
 * long-lived tokens and Supervisor tokens work exactly as without the front.
 */
export function withIssuedTokens(verifier: TokenVerifier, issued: IssuedTokenCheck): TokenVerifier {
  return {
    async verify(token, from) {
      if (!token.startsWith(issued.prefix)) return verifier.verify(token, from);
      try {
        return await issued.principalFor(token);
      } catch (err) {
        // The error's detail (with HA's address) goes to the log; the caller only hears that HA cannot be asked.
        if (issued.isUnavailable(err)) throw new AuthUnavailableError(detailOf(err), { cause: err });
        throw err;
      }
    },
  };
}

function detailOf(err: unknown): string {
  const detail = (err as { detail?: unknown } | undefined)?.detail;
  if (typeof detail === "string") return detail;
  return err instanceof Error ? err.message : String(err);
}
