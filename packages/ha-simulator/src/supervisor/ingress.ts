import { request, type IncomingMessage, type ServerResponse } from "node:http";
import { dict } from "../common/index.js";
import type { SimAddon } from "./addons.js";

/** The person whose Home Assistant session opened the panel; ingress names them to the add-on. */
export interface IngressUser {
  id: string;
  /** The login name (`X-Remote-User-Name`). */
  username: string;
  /** The name HA shows (`X-Remote-User-Display-Name`). */
  name: string;
}

/** Headers that belong to one hop and are not passed on, as the Supervisor leaves them out. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "host", "x-hass-source", "x-ingress-path", "x-remote-user-id", "x-remote-user-name", "x-remote-user-display-name", "x-forwarded-for", "x-forwarded-host", "x-forwarded-proto"]);

/**
 * One request to an add-on's panel, as Home Assistant's ingress carries it:
 * Core's `/api/hassio_ingress/{token}/{path}` and the Supervisor's proxy in
 * one (supervisor/api/ingress.py), since the simulated Home Assistant has no
 * frontend. The add-on gets the path without the prefix, `X-Ingress-Path`,
 * `X-Hass-Source: core.ingress` and the signed-in person's `X-Remote-User-*`
 * headers; answers stream back, event streams included.
 */
export function proxyIngress(o: { req: IncomingMessage; res: ServerResponse; addon: SimAddon; prefix: string; path: string; user: IngressUser | undefined }): void {
  const { req, res } = o;
  const headers = dict<string | string[]>();
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
  Object.assign(headers, {
    host: `${o.addon.hostname}:${o.addon.ingressPort}`,
    "x-hass-source": "core.ingress",
    "x-ingress-path": o.prefix,
    "x-forwarded-for": req.socket.remoteAddress ?? "",
    // The name the person opened Home Assistant by, which the add-on checks a page's Origin against.
    ...(req.headers.host ? { "x-forwarded-host": req.headers.host } : {}),
    "x-forwarded-proto": "http",
    ...(o.user ? { "x-remote-user-id": o.user.id, "x-remote-user-name": o.user.username, "x-remote-user-display-name": o.user.name } : {}),
  });
  const upstream = request({ host: o.addon.hostname, port: o.addon.ingressPort, path: o.path, method: req.method, headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  upstream.on("error", () => {
    // The add-on is not running: the Supervisor answers 502.
    if (res.headersSent) res.destroy();
    else res.writeHead(502, { "content-type": "text/plain; charset=utf-8" }).end(`502: Bad Gateway. Is HA Agent running, with STATUS_PORT=${o.addon.ingressPort}?\n`);
  });
  // A browser that leaves (an event stream closed) ends the request to the add-on too.
  res.on("close", () => upstream.destroy());
  req.pipe(upstream);
}
