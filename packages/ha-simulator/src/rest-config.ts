import type { IncomingMessage, ServerResponse } from "node:http";
import type { HomeModel } from "./home.js";
import type { SimUser } from "./users.js";

type Send = (res: ServerResponse, status: number, body: unknown) => void;

const PATH = /^\/api\/config\/(automation|script)\/config\/([^/]+)$/;
const SLUG = /^[a-z0-9_]+$/;

/** HA's `cv.slug` for a script key: "invalid slug Goodnight Now (try goodnight_now)". */
function slugError(key: string): string | undefined {
  if (SLUG.test(key)) return undefined;
  const suggestion = key.toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "");
  return `invalid slug ${key} (try ${suggestion})`;
}

/**
 * The automation and script config views (`config/view.py`,
 * `config/automation.py`, `config/script.py`), all for administrators
 * (`@require_admin`: anyone else gets 401):
 * - GET answers the config as automations.yaml / scripts.yaml holds it, or 404
 *   `{"message": "Resource not found"}`;
 * - POST validates (400 `{"message": "Message malformed: <error>"}`, or
 *   "Invalid JSON specified"), writes, answers `{"result": "ok"}`, and only then
 *   reloads, as HA's post-write hook runs as a task after the answer: the entity
 *   appears or changes a moment later;
 * - DELETE removes the config and the entity's registry entry, or answers 400
 *   `{"message": "Resource not found"}`.
 * Returns false for any other path.
 */
export function handleConfigView(o: { home: HomeModel; user: SimUser; req: IncomingMessage; res: ServerResponse; path: string; body: () => Promise<unknown>; json: Send }): boolean {
  const m = PATH.exec(o.path);
  if (!m) return false;
  const kind = m[1] as "automation" | "script";
  const key = decodeURIComponent(m[2]!);
  const engine = o.home.automations;
  const { res, json } = o;
  if (!o.user.isAdmin || !engine) {
    res.writeHead(401, { "Content-Type": "text/plain; charset=utf-8" }).end("401: Unauthorized");
    return true;
  }
  const method = o.req.method ?? "GET";
  if (method === "GET") {
    const config = kind === "automation" ? engine.automationConfig(key) : engine.scriptConfig(key);
    json(res, config ? 200 : 404, config ?? { message: "Resource not found" });
    return true;
  }
  if (method === "DELETE") {
    const removed = kind === "automation" ? engine.deleteAutomation(key) : engine.deleteScript(key);
    if (!removed) {
      json(res, 400, { message: "Resource not found" });
      return true;
    }
    json(res, 200, { result: "ok" });
    setImmediate(() => (kind === "automation" ? engine.forgetAutomation(key) : engine.forgetScript(key)));
    return true;
  }
  if (method !== "POST") {
    res.writeHead(405, { "Content-Type": "text/plain; charset=utf-8" }).end("405: Method Not Allowed");
    return true;
  }
  void o.body().then((body) => {
    if (typeof body !== "object" || body === null || Array.isArray(body)) return json(res, 400, { message: "Invalid JSON specified" });
    const badKey = kind === "script" ? slugError(key) : undefined;
    if (badKey) return json(res, 400, { message: `Key malformed: ${badKey}` });
    const error = kind === "automation" ? engine.saveAutomation(key, body as Record<string, unknown>) : engine.saveScript(key, body as Record<string, unknown>);
    if (error !== undefined) return json(res, 400, { message: `Message malformed: ${error}` });
    json(res, 200, { result: "ok" });
    // config/automation.py reloads just this automation; config/script.py reloads every script.
    setImmediate(() => (kind === "automation" ? engine.reload(key) : engine.reloadScripts()));
  });
  return true;
}
