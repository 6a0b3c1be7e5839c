import { readFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { z } from "zod";

/** What `scripts/build-web.mjs` writes beside the assets: the hashed names of the entry's files. */
export const WebManifestSchema = z.object({ js: z.string().regex(/^assets\/[\w.-]+\.js$/), css: z.string().regex(/^assets\/[\w.-]+\.css$/) });
export type WebManifest = z.infer<typeof WebManifestSchema>;

const TYPES: Record<string, string> = { ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8", ".map": "application/json" };
const ASSET_PATH = /^\/assets\/([\w.-]+\.(js|css))$/;

/** Ingress puts the add-on behind a path prefix; it must look like a path so it cannot inject markup. */
export function ingressPath(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value && /^\/[\w\-/]*$/.test(value) ? value.replace(/\/$/, "") : "";
}

/**
 * The built page: its hashed files, each with a gzip and a brotli copy, are
 * read into memory once (they are small) and served with a year's cache,
 * since a new build has new names. The HTML names them under the ingress
 * path, and nothing else.
 */
export async function loadAssets(dir: string): Promise<{ manifest: WebManifest; files: Map<string, { raw: Buffer; gzip?: Buffer; br?: Buffer }>; favicon: Buffer | undefined } | undefined> {
  const text = await readFile(join(dir, "manifest.json"), "utf8").catch(() => undefined);
  if (text === undefined) return undefined;
  const manifest = WebManifestSchema.parse(JSON.parse(text));
  const files = new Map<string, { raw: Buffer; gzip?: Buffer; br?: Buffer }>();
  for (const path of [manifest.js, manifest.css]) {
    const raw = await readFile(join(dir, path));
    const gzip = await readFile(join(dir, `${path}.gz`)).catch(() => undefined);
    const br = await readFile(join(dir, `${path}.br`)).catch(() => undefined);
    files.set(path.slice("assets/".length), { raw, ...(gzip ? { gzip } : {}), ...(br ? { br } : {}) });
  }
  return { manifest, files, favicon: await readFile(join(dir, "favicon.ico")).catch(() => undefined) };
}

export type Assets = NonNullable<Awaited<ReturnType<typeof loadAssets>>>;

/** The page's HTML: no inline script or style, every URL relative to the ingress path. */
export function pageHtml(assets: Assets | undefined, base: string): string {
  const head = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<base href="${base}/"><title>HA Agent</title><meta name="color-scheme" content="light dark">`;
  if (!assets) return `${head}</head><body><main><h1>HA Agent</h1><p>The console's files are not built. Run <code>npm run build</code>, then reload.</p><p><a href="api/health">The health report as JSON</a></p></main></body></html>`;
  return `${head}
<link rel="icon" href="favicon.ico"><link rel="stylesheet" href="${assets.manifest.css}"><script type="module" src="${assets.manifest.js}"></script></head>
<body><ha-agent-console></ha-agent-console><noscript>The console needs JavaScript. The health report is at <a href="api/health">api/health</a>.</noscript></body></html>`;
}

/** `/favicon.ico`, which browsers fetch at every load: kept a day, since its name never changes. */
export function serveFavicon(req: IncomingMessage, res: ServerResponse, assets: Assets | undefined): boolean {
  if (!assets?.favicon) return false;
  res.writeHead(200, { "content-type": "image/x-icon", "content-length": assets.favicon.length, "cache-control": "public, max-age=86400" });
  res.end(req.method === "HEAD" ? undefined : assets.favicon);
  return true;
}

/** Serves one hashed asset, compressed as the browser prefers; false when the path is not one. */
export function serveAsset(req: IncomingMessage, res: ServerResponse, assets: Assets | undefined, path: string): boolean {
  const match = ASSET_PATH.exec(path);
  const file = match && assets?.files.get(match[1]!);
  if (!match || !file) return false;
  const accepts = String(req.headers["accept-encoding"] ?? "");
  const [body, encoding] = file.br && /\bbr\b/.test(accepts) ? [file.br, "br"] : file.gzip && /\bgzip\b/.test(accepts) ? [file.gzip, "gzip"] : [file.raw, undefined];
  res.writeHead(200, {
    "content-type": TYPES[`.${match[2]}`] ?? "application/octet-stream",
    "content-length": body.length,
    "cache-control": "public, max-age=31536000, immutable",
    vary: "accept-encoding",
    ...(encoding ? { "content-encoding": encoding } : {}),
  });
  res.end(req.method === "HEAD" ? undefined : body);
  return true;
}
