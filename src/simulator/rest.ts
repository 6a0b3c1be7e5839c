import type { IncomingMessage, ServerResponse } from "node:http";
import type { ServerContext } from "./context.js";
import { errorLogText } from "./logs.js";

/**
 * HA's REST API, the parts clients use to check a token and read states.
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
  if (ctx.faults.refuseAuth || !ctx.users.byToken(token)) {
    send(res, 401, "text/plain; charset=utf-8", "401: Unauthorized");
    return;
  }
  if (req.method !== "GET") {
    send(res, 405, "text/plain; charset=utf-8", "405: Method Not Allowed");
    return;
  }
  const home = ctx.home;
  if (path === "/api/" || path === "/api") return json(res, 200, { message: "API running." });
  if (path === "/api/states") return json(res, 200, home.states());
  if (path.startsWith("/api/states/")) {
    const state = home.getState(decodeURIComponent(path.slice("/api/states/".length)));
    return state ? json(res, 200, state) : json(res, 404, { message: "Entity not found." });
  }
  if (path === "/api/config") return json(res, 200, home.config(ctx.haVersion));
  if (path === "/api/error_log") return send(res, 200, "text/plain; charset=utf-8", errorLogText(home));
  if (path === "/api/events") return json(res, 200, []);
  json(res, 404, { message: "Not found" });
}

function json(res: ServerResponse, status: number, body: unknown): void {
  send(res, status, "application/json", JSON.stringify(body));
}

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, { "Content-Type": contentType, "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}
