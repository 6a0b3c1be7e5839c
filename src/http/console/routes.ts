import type { IncomingMessage, ServerResponse } from "node:http";
import type { AgentEvent, JournalRecord } from "../../agent/index.js";
import { createPerPrincipalLimit, type Logger, type Principal } from "../../shared/index.js";
import type { ApprovalAnswer } from "../../tools/index.js";
import { BodyError, readJsonBody } from "../body.js";
import { sendJson } from "../respond.js";
import { pageHtml, serveAsset, serveFavicon, ingressPath, type Assets } from "./assets.js";
import { isSameOrigin, remoteAccess, securityHeaders } from "./guard.js";
import { buildOverview, visibleSessions, type OverviewSources } from "./overview.js";
import { ConsoleStream } from "./stream.js";
import { buildTimeline } from "./timeline.js";
import { usageReport } from "./usage.js";
import { isTrustedAddress, viewerOf, type ViewerRules } from "./viewer.js";
import { ApproveBodySchema, CancelBodySchema, OverviewSchema, TimelineSchema, UsageReportSchema, type Viewer } from "./wire.js";

/** What the console asks of the agent: the owner's own calls, as every other channel makes them. */
export interface ConsoleAgent {
  approve(principal: Principal, answer: ApprovalAnswer): Promise<unknown>;
  cancel(principal: Principal, continuationId: string, reason?: string): Promise<unknown>;
  watch(principal: Principal, args: { sessionId: string; lastEventId?: string; listener: (event: AgentEvent) => void }): Promise<(() => void) | undefined>;
  journal(owner: string, continuationId: string): Promise<JournalRecord[]>;
}

export interface ConsoleOptions extends OverviewSources, Omit<ViewerRules, "users"> {
  agent: ConsoleAgent;
  assets: Assets | undefined;
  /** Outside ingress: the token other hosts open the console with (STATUS_TOKEN). */
  remoteToken: string | undefined;
  logger: Logger;
  /** How often an open stream checks whether the overview changed (default 2 s). */
  overviewIntervalMs?: number;
}

const TURN_PATH = /^\/api\/turns\/([0-9A-HJKMNP-TV-Z]{26})(?:\/(cancel|approve))?$/i;
/** Streams one person may hold open: a few tabs and phones. */
const STREAMS_PER_VIEWER = 8;

const principalOf = (viewer: Viewer, id = viewer.id): Principal => ({ id, name: viewer.name, kind: id.startsWith("addon:") ? "addon" : "user", isAdmin: viewer.isAdmin });

const isLoopback = (address: string | undefined) => !!address && (address === "::1" || address.startsWith("127.") || address.startsWith("::ffff:127."));

/** The console's routes on the status listener; answers false for a path that is not one of them. */
export function createConsole(options: ConsoleOptions) {
  const rules: ViewerRules = { trustedProxies: options.trustedProxies, users: options.users, ...(options.demoUser ? { demoUser: options.demoUser } : {}) };
  const streams = new Set<ConsoleStream>();
  // The overview reads open turns' journals for what they have spent so far.
  const sources: OverviewSources = { ...options, journal: (owner, id) => options.agent.journal(owner, id) };
  const limit = createPerPrincipalLimit(STREAMS_PER_VIEWER);

  /** A turn the viewer may see, with its owner; undefined otherwise, as if it did not exist. */
  const findTurn = (viewer: Viewer | undefined, continuationId: string) => {
    for (const s of visibleSessions(options, viewer)) if (s.messages.some((m) => m.continuationId === continuationId)) return { owner: s.owner, sessionId: s.id };
    return undefined;
  };

  async function timeline(res: ServerResponse, viewer: Viewer | undefined, id: string) {
    const found = findTurn(viewer, id);
    const record = found && (await options.store.continuations.get(found.owner, id));
    if (!found || !record) return sendJson(res, 404, { error: "not_found", message: `No turn ${id} that you may see. Pick one from the sessions list.` });
    const journal = await options.agent.journal(found.owner, id);
    sendJson(res, 200, TimelineSchema.parse(buildTimeline(record, journal, found.owner === viewer?.id)));
  }

  async function act(req: IncomingMessage, res: ServerResponse, viewer: Viewer | undefined, id: string, action: "cancel" | "approve") {
    if (req.method !== "POST") return sendJson(res, 405, { error: "method_not_allowed", message: `Send ${action} with POST.` });
    // Another site's page must not act through a signed-in person's browser.
    if (!isSameOrigin(req)) return sendJson(res, 403, { error: "cross_site", message: "This request came from another site; act from the HA Agent page itself." });
    const found = findTurn(viewer, id);
    if (!viewer || !found) return sendJson(res, 404, { error: "not_found", message: `No turn ${id} that you may see. Pick one from the sessions list.` });
    if (found.owner !== viewer.id) return sendJson(res, 403, { error: "not_owner", message: `Only the session's owner can ${action} this turn.` });
    const raw = await readJsonBody(req, 16_384);
    const principal = principalOf(viewer);
    try {
      if (action === "cancel") {
        const body = CancelBodySchema.safeParse(raw ?? {});
        if (!body.success) return sendJson(res, 400, { error: "invalid_body", message: body.error.issues.map((i) => i.message).join("; ") });
        await options.agent.cancel(principal, id, body.data.reason ?? "cancelled from the console");
      } else {
        const body = ApproveBodySchema.safeParse(raw ?? {});
        if (!body.success) return sendJson(res, 400, { error: "invalid_body", message: body.error.issues.map((i) => i.message).join("; ") });
        await options.agent.approve(principal, { continuationId: id, approvalId: body.data.approvalId, decision: body.data.decision, via: "console", ...(body.data.reason ? { reason: body.data.reason } : {}) });
      }
    } catch (err) {
      const e = err as { code?: string; message?: string };
      return sendJson(res, 409, { error: e.code ?? "refused", message: e.message ?? String(err) });
    }
    sendJson(res, 200, { ok: true });
  }

  async function stream(req: IncomingMessage, res: ServerResponse, viewer: Viewer | undefined, url: URL) {
    const key = viewer?.id ?? `address:${req.socket.remoteAddress ?? "?"}`;
    const release = limit.tryEnter(key);
    if (!release) return sendJson(res, 429, { error: "too_many_streams", message: `${STREAMS_PER_VIEWER} console streams are open already; close a tab and retry.` });
    let unwatch: (() => void) | undefined;
    const ticker: { timer?: NodeJS.Timeout } = {};
    const live = new ConsoleStream(res, () => {
      clearInterval(ticker.timer);
      unwatch?.();
      release();
      streams.delete(live);
    });
    streams.add(live);
    const push = () => buildOverview(sources, viewer).then((o) => live.overview(OverviewSchema.parse(o)), (err: unknown) => options.logger.warn({ err: String(err) }, "the console's overview failed"));
    await push();
    // The stream may have closed while the first overview was built.
    if (!live.closed) ticker.timer = setInterval(() => void push(), options.overviewIntervalMs ?? 2_000);
    const sessionId = url.searchParams.get("session")?.toUpperCase();
    const session = sessionId ? visibleSessions(options, viewer).find((s) => s.id === sessionId) : undefined;
    if (viewer && session) {
      const lastEventId = req.headers["last-event-id"];
      const off = await options.agent.watch(principalOf(viewer, session.owner), { sessionId: session.id, ...(typeof lastEventId === "string" ? { lastEventId } : {}), listener: (e) => live.turn(e) });
      if (live.closed) off?.();
      else unwatch = off;
    }
  }

  return {
    async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
      const url = new URL(req.url ?? "/", "http://localhost");
      const path = url.pathname;
      securityHeaders(res);
      const address = req.socket.remoteAddress;
      const access = remoteAccess(req, res, { token: options.remoteToken, isLocal: isLoopback(address) || isTrustedAddress(address, options.trustedProxies) });
      if (access === "redirected") return;
      if (access === "refused") return sendJson(res, 401, { error: "token_required", message: "Open the console from another host as http://<host>:<STATUS_PORT>/?token=<STATUS_TOKEN> once; the browser keeps it." });
      if (path === "/" || path === "/index.html") {
        if (req.method !== "GET" && req.method !== "HEAD") return sendJson(res, 405, { error: "method_not_allowed", message: "Open the page with GET." });
        res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
        res.end(req.method === "HEAD" ? undefined : pageHtml(options.assets, ingressPath(req.headers["x-ingress-path"])));
        return;
      }
      if (path === "/favicon.ico") {
        if (!serveFavicon(req, res, options.assets)) sendJson(res, 404, { error: "not_found", message: "The console's files are not built; run npm run build." });
        return;
      }
      if (path.startsWith("/assets/")) {
        if (!serveAsset(req, res, options.assets, path)) sendJson(res, 404, { error: "not_found", message: "No such file; reload the page to get the current ones." });
        return;
      }
      if (path === "/api/health") return sendJson(res, 200, options.health());
      const viewer = await viewerOf(req, rules);
      const turn = TURN_PATH.exec(path);
      try {
        if (turn?.[2]) return await act(req, res, viewer, turn[1]!.toUpperCase(), turn[2].toLowerCase() as "cancel" | "approve");
        if (req.method !== "GET" && req.method !== "HEAD") return sendJson(res, 405, { error: "method_not_allowed", message: "Read with GET." });
        if (turn) return await timeline(res, viewer, turn[1]!.toUpperCase());
        if (path === "/api/console") return sendJson(res, 200, OverviewSchema.parse(await buildOverview(sources, viewer)));
        if (path === "/api/usage") {
          const slots = viewer ? options.store.usage.slots(viewer.isAdmin ? undefined : viewer.id) : [];
          return sendJson(res, 200, UsageReportSchema.parse(usageReport(slots, { now: options.now(), timeZone: (await options.timeZone?.()) ?? "UTC" })));
        }
        if (path === "/api/stream") return await stream(req, res, viewer, url);
      } catch (err) {
        if (err instanceof BodyError) return sendJson(res, err.status, { error: err.code, message: err.message });
        throw err;
      }
      sendJson(res, 404, { error: "not_found", message: "No such page. The console is at the listener's root." });
    },
    /** Ends every open stream, saying why. */
    closeAll(reason: string): void {
      for (const s of [...streams]) s.close(reason);
    },
  };
}

export type Console = ReturnType<typeof createConsole>;
