import type { IncomingMessage, ServerResponse } from "node:http";
import type { ServerContext } from "./context.js";
import { CommandError } from "./command-error.js";
import { errorLogText } from "./logs.js";
import { handleConfigView } from "./rest-config.js";
import { callService } from "./services/index.js";
import { renderTemplate, TemplateError } from "./template/index.js";

/**
 * HA's REST API, the parts clients use to check a token, read states, call
 * services and render templates.
 * Every route needs `Authorization: Bearer <token>`; HA answers 401 otherwise.
 */
export function handleRest(ctx: ServerContext, req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? "/", "http://localhost");
  const path = url.pathname;
  if (!path.startsWith("/api/") && path !== "/api") {
    send(res, 404, "text/plain; charset=utf-8", "404: Not Found");
    return;
  }
  const header = req.headers.authorization ?? "";
  const token = header.startsWith("Bearer ") ? header.slice(7).trim() : "";
  const user = ctx.faults.refuseAuth ? undefined : ctx.auth.userForToken(token);
  if (!user) {
    send(res, 401, "text/plain; charset=utf-8", "401: Unauthorized");
    return;
  }
  const home = ctx.home;
  const body = () => new Promise<unknown>((resolve) => readBody(req, resolve));
  if (handleConfigView({ home, user, req, res, path, body, json })) return;
  // HA's APITemplateView and APIErrorLog are for administrators only (`@require_admin`).
  if ((path === "/api/template" || path === "/api/error_log") && !user.isAdmin) {
    send(res, 401, "text/plain; charset=utf-8", "401: Unauthorized");
    return;
  }
  if (req.method === "POST" && (path.startsWith("/api/services/") || path === "/api/template")) {
    readJson(req, (body) => {
      try {
        if (body === undefined) return json(res, 400, { message: "Data should be valid JSON." });
        if (path === "/api/template") return postTemplate(ctx, body, res);
        const [domain, service] = path.slice("/api/services/".length).split("/");
        postService(ctx, { domain: domain ?? "", service: service ?? "", body, returnResponse: url.searchParams.has("return_response"), userId: user.id }, res);
      } catch (err) {
        ctx.logger.error({ err }, "REST request failed");
        if (!res.headersSent) send(res, 500, "text/plain; charset=utf-8", "500: Internal Server Error");
      }
    });
    return;
  }
  if (req.method !== "GET") {
    send(res, 405, "text/plain; charset=utf-8", "405: Method Not Allowed");
    return;
  }
  if (path === "/api/" || path === "/api") return json(res, 200, { message: "API running." });
  if (path === "/api/states") return json(res, 200, home.states());
  if (path.startsWith("/api/states/")) {
    const state = home.getState(decodeURIComponent(path.slice("/api/states/".length)));
    return state ? json(res, 200, state) : json(res, 404, { message: "Entity not found." });
  }
  if (path === "/api/config") return json(res, 200, home.config(ctx.haVersion));
  if (path === "/api/error_log") return send(res, 200, "text/plain; charset=utf-8", errorLogText(home));
  if (path === "/api/events") return json(res, 200, home.bus.listenerCounts());
  json(res, 404, { message: "Not found" });
}

/** `POST /api/services/{domain}/{service}`: the states the call changed, or those plus the response. */
function postService(
  ctx: ServerContext,
  o: { domain: string; service: string; body: Record<string, unknown>; returnResponse: boolean; userId: string },
  res: ServerResponse,
): void {
  try {
    const result = callService(ctx.home, { domain: o.domain, service: o.service, serviceData: o.body, returnResponse: o.returnResponse, userId: o.userId });
    const id = result.context.id;
    const changed = ctx.home.states().filter((s) => s.context.id === id || s.context.parent_id === id);
    json(res, 200, o.returnResponse ? { changed_states: changed, service_response: result.response } : changed);
  } catch (err) {
    if (!(err instanceof CommandError)) throw err;
    // HA's REST API answers an unknown service with 400, and validation problems with 400 as well.
    json(res, 400, { message: err.message });
  }
}

/** `POST /api/template`: the rendered text. */
function postTemplate(ctx: ServerContext, body: Record<string, unknown>, res: ServerResponse): void {
  try {
    const home = ctx.home;
    const rendered = renderTemplate(String(body.template ?? ""), (id) => home.getState(id), (body.variables as Record<string, unknown>) ?? {}, {
      nowMs: home.now(),
      timeZone: home.house.config.time_zone,
      allStates: () => home.states(),
    });
    send(res, 200, "text/plain; charset=utf-8", typeof rendered.result === "string" ? rendered.result : JSON.stringify(rendered.result));
  } catch (err) {
    if (!(err instanceof TemplateError)) throw err;
    json(res, 400, { message: `Error rendering template: ${err.message}` });
  }
}

function readJson(req: IncomingMessage, done: (body: Record<string, unknown> | undefined) => void): void {
  readBody(req, (parsed) => done(typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined));
}

/** The JSON body (an empty one reads as `{}`), or undefined when it is not JSON. */
function readBody(req: IncomingMessage, done: (body: unknown) => void): void {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const text = Buffer.concat(chunks).toString("utf8");
    try {
      done(text.trim() === "" ? {} : JSON.parse(text));
    } catch {
      done(undefined);
    }
  });
}

function json(res: ServerResponse, status: number, body: unknown): void {
  send(res, status, "application/json", JSON.stringify(body));
}

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, { "Content-Type": contentType, "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}
