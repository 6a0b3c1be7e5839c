import type { IncomingMessage, ServerResponse } from "node:http";
import { describeError } from "../shared/index.js";
import { showConsent, takeConsent, type AuthorizeContext } from "./authorize-route.js";
import { readJson } from "./body.js";
import { finishLogin } from "./callback-route.js";
import { errorPage } from "./consent-page.js";
import { spend, type FrontDeps, type OAuthCaller } from "./context.js";
import { OAuthError } from "./errors.js";
import { HaUnreachableError } from "./ha-unreachable.js";
import { MCP_PATHS, mcpPathOf } from "../shared/index.js";
import { OAUTH_PATHS, authorizationServerMetadata, bearerChallenge, protectedResourceMetadata } from "./metadata.js";
import { requestOrigin } from "./origin.js";
import { createPendingLogins } from "./pending-logins.js";
import { sendHtml, sendJson, sendOAuthError } from "./respond.js";
import { issueTokens, revokeToken } from "./token-route.js";
import { createUsedForms } from "./used-forms.js";

type Route = (req: IncomingMessage, res: ServerResponse, origin: string, caller: OAuthCaller) => Promise<void>;

/** Seconds a caller is told to wait while Home Assistant cannot be asked. */
const HA_RETRY_AFTER_S = 5;

/**
 * The OAuth 2.1 front of `/mcp`: metadata, registration, authorize with
 * consent, Home Assistant's login, tokens and revocation. `handle` answers
 * the paths it owns and returns false for every other one.
 */
export function createOAuthFront(deps: FrontDeps) {
  const now = () => deps.clock.now();
  const ctx: AuthorizeContext = { deps, pending: createPendingLogins(now), usedForms: createUsedForms(now) };
  const document = (build: (origin: string) => unknown): Route => async (_req, res, origin, caller) => {
    spend(caller, undefined);
    sendJson(res, 200, await build(origin));
  };
  const routes = new Map<string, Partial<Record<string, Route>>>([
    [OAUTH_PATHS.protectedResource, { GET: document((origin) => protectedResourceMetadata(origin, MCP_PATHS.all)) }],
    [OAUTH_PATHS.protectedResourceMcp, { GET: document((origin) => protectedResourceMetadata(origin, MCP_PATHS.all)) }],
    [OAUTH_PATHS.protectedResourceAssist, { GET: document((origin) => protectedResourceMetadata(origin, MCP_PATHS.assist)) }],
    [OAUTH_PATHS.authorizationServer, { GET: document(async (origin) => authorizationServerMetadata(origin, await deps.signInOrigin(origin))) }],
    [
      OAUTH_PATHS.register,
      {
        POST: async (req, res, _origin, caller) => {
          spend(caller, undefined);
          const body = await readJson(req);
          sendJson(res, 201, deps.clients.register(body, new Set(await deps.homeHosts())));
        },
      },
    ],
    [OAUTH_PATHS.authorize, { GET: (req, res, origin, caller) => showConsent(ctx, req, res, origin, caller), POST: (req, res, origin, caller) => takeConsent(ctx, req, res, origin, caller) }],
    [OAUTH_PATHS.callback, { GET: (req, res, origin, caller) => finishLogin(ctx, req, res, origin, caller) }],
    [OAUTH_PATHS.token, { POST: (req, res, origin, caller) => issueTokens(deps, req, res, origin, caller) }],
    [OAUTH_PATHS.revoke, { POST: (req, res, _origin, caller) => revokeToken(deps, req, res, caller) }],
  ]);
  const pages = new Set<string>([OAUTH_PATHS.authorize, OAUTH_PATHS.callback]);

  return {
    /** Whether `path` belongs to the front (the listener rate-limits these). */
    owns: (path: string): boolean => routes.has(path),
    async handle(req: IncomingMessage, res: ServerResponse, path: string, caller: OAuthCaller): Promise<void> {
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
        await handler(req, res, origin, caller);
      } catch (err) {
        if (res.headersSent) return void res.end();
        if (err instanceof OAuthError && err.status === 413) res.setHeader("connection", "close");
        if (err instanceof HaUnreachableError) deps.logger.warn({ reason: err.detail, path }, "a sign-in step could not reach Home Assistant");
        // HA's address stays in the log: the person sees only that HA cannot be reached now.
        const known =
          err instanceof OAuthError ? err : err instanceof HaUnreachableError ? new OAuthError("temporarily_unavailable", err.message, 503, { retryAfterS: HA_RETRY_AFTER_S }) : undefined;
        if (!known) deps.logger.error({ err: describeError(err), path }, "an OAuth request failed");
        const error = known ?? new OAuthError("server_error", "The request failed inside HA Agent; the details are in its log.", 500);
        if (error.retryAfterS !== undefined) res.setHeader("retry-after", String(error.retryAfterS));
        if (pages.has(path) && method === "GET") return sendHtml(res, error.status, errorPage(error.message));
        sendOAuthError(res, error);
      }
    },
    /** The `WWW-Authenticate` value for a 401 on a request to this origin: it names the metadata of the MCP path asked for (`/events` falls under `/mcp`). */
    challenge(req: IncomingMessage, error?: { code: string; description: string }): string | undefined {
      const origin = requestOrigin(req, deps.publicUrl);
      const path = mcpPathOf(new URL(req.url ?? "/", "http://localhost").pathname) ?? MCP_PATHS.all;
      return origin ? bearerChallenge(origin, path, error) : undefined;
    },
  };
}

export type OAuthFront = ReturnType<typeof createOAuthFront>;
