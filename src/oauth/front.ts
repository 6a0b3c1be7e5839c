import type { IncomingMessage, ServerResponse } from "node:http";
import { describeError } from "../shared/index.js";
import { showConsent, takeConsent, type AuthorizeContext } from "./authorize-route.js";
import { readJson } from "./body.js";
import { finishLogin } from "./callback-route.js";
import { errorPage } from "./consent-page.js";
import type { FrontDeps } from "./context.js";
import { OAuthError } from "./errors.js";
import { HaUnreachableError } from "./ha-unreachable.js";
import { OAUTH_PATHS, authorizationServerMetadata, bearerChallenge, protectedResourceMetadata } from "./metadata.js";
import { requestOrigin } from "./origin.js";
import { createPendingLogins } from "./pending-logins.js";
import { sendHtml, sendJson, sendOAuthError } from "./respond.js";
import { issueTokens, revokeToken } from "./token-route.js";

type Route = (req: IncomingMessage, res: ServerResponse, origin: string) => Promise<void>;

/**
 * The OAuth 2.1 front of `/mcp`: metadata, registration, authorize with
 * consent, Home Assistant's login, tokens and revocation. `handle` answers
 * the paths it owns and returns false for every other one.
 */
export function createOAuthFront(deps: FrontDeps) {
  const ctx: AuthorizeContext = { deps, pending: createPendingLogins(() => deps.clock.now()) };
  const routes = new Map<string, Partial<Record<string, Route>>>([
    [OAUTH_PATHS.protectedResource, { GET: async (_q, res, origin) => sendJson(res, 200, protectedResourceMetadata(origin)) }],
    [OAUTH_PATHS.protectedResourceMcp, { GET: async (_q, res, origin) => sendJson(res, 200, protectedResourceMetadata(origin)) }],
    [OAUTH_PATHS.authorizationServer, { GET: async (_q, res, origin) => sendJson(res, 200, authorizationServerMetadata(origin)) }],
    [OAUTH_PATHS.register, { POST: async (req, res) => sendJson(res, 201, deps.clients.register(await readJson(req))) }],
    [OAUTH_PATHS.authorize, { GET: (req, res, origin) => showConsent(ctx, req, res, origin), POST: (req, res, origin) => takeConsent(ctx, req, res, origin) }],
    [OAUTH_PATHS.callback, { GET: (req, res, origin) => finishLogin(ctx, req, res, origin) }],
    [OAUTH_PATHS.token, { POST: (req, res, origin) => issueTokens(deps, req, res, origin) }],
    [OAUTH_PATHS.revoke, { POST: (req, res) => revokeToken(deps, req, res) }],
  ]);
  const pages = new Set<string>([OAUTH_PATHS.authorize, OAUTH_PATHS.callback]);

  return {
    /** Whether `path` belongs to the front (the listener rate-limits these). */
    owns: (path: string): boolean => routes.has(path),
    async handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
      const route = routes.get(path);
      if (!route) throw new Error(`${path} is not an OAuth path`);
      const origin = requestOrigin(req, deps.publicUrl);
      const method = req.method === "HEAD" ? "GET" : (req.method ?? "GET");
      const handler = route[method];
      try {
        if (!origin) throw new OAuthError("invalid_request", "The request's Host header is not a host name.");
        if (!handler) {
          res.setHeader("allow", Object.keys(route).join(", "));
          throw new OAuthError("invalid_request", `${path} takes ${Object.keys(route).join(" or ")}.`, 405);
        }
        await handler(req, res, origin);
      } catch (err) {
        if (res.headersSent) return void res.end();
        if (err instanceof OAuthError && err.status === 413) res.setHeader("connection", "close");
        const known = err instanceof OAuthError ? err : err instanceof HaUnreachableError ? new OAuthError("temporarily_unavailable", err.message, 503) : undefined;
        if (!known) deps.logger.error({ err: describeError(err), path }, "an OAuth request failed");
        const error = known ?? new OAuthError("server_error", "The request failed inside HA Agent; the details are in its log.", 500);
        if (pages.has(path) && method === "GET") return sendHtml(res, error.status, errorPage(error.message));
        sendOAuthError(res, error);
      }
    },
    /** The `WWW-Authenticate` value for a 401 on a request to this origin. */
    challenge(req: IncomingMessage, error?: { code: string; description: string }): string | undefined {
      const origin = requestOrigin(req, deps.publicUrl);
      return origin ? bearerChallenge(origin, error) : undefined;
    },
  };
}

export type OAuthFront = ReturnType<typeof createOAuthFront>;
