import type { HealthReport } from "./health.js";

export interface StatusInfo {
  version: string;
  mode: string;
  mcpPath: string;
  mcpPort: number;
  toolNames: string[];
}

const esc = (value: unknown): string =>
  String(value).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string);

function renderValue(value: unknown): string {
  if (value === null || value === undefined) return "–";
  if (Array.isArray(value)) return value.length ? esc(value.map((v) => (typeof v === "object" ? JSON.stringify(v) : String(v))).join(", ")) : "none";
  if (typeof value === "object") {
    const rows = Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `<tr><th>${esc(k)}</th><td>${renderValue(v)}</td></tr>`)
      .join("");
    return `<table>${rows}</table>`;
  }
  return esc(value);
}

/**
 * The sidebar page. Plain server-rendered HTML that refreshes itself: it
 * works behind ingress with no scripts and no extra requests.
 */
export function renderStatusPage(options: { health: HealthReport; info: StatusInfo; ingressPath: string; userName?: string }): string {
  const { health, info } = options;
  const ok = health.status === "ok";
  const components = Object.entries(health.components)
    .map(([name, value]) => `<section><h2>${esc(name)}</h2>${renderValue(value)}</section>`)
    .join("");
  const reasons = health.reasons.map((r) => `<li>${esc(r)}</li>`).join("");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="10"><base href="${esc(options.ingressPath)}/">
<title>HA Agent</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;padding:16px;background:#fafafa;color:#212121}
h1{font-size:1.4em;margin:0 0 8px}h2{font-size:1.05em;margin:16px 0 4px;text-transform:capitalize}
.badge{display:inline-block;padding:2px 10px;border-radius:12px;color:#fff;background:${ok ? "#2e7d32" : "#c62828"}}
section{background:#fff;border-radius:8px;padding:8px 12px;margin:8px 0;box-shadow:0 1px 2px rgba(0,0,0,.1)}
table{border-collapse:collapse}th{text-align:left;padding:2px 12px 2px 0;font-weight:500;color:#555;vertical-align:top}td{padding:2px 0}
code{background:#eee;padding:1px 4px;border-radius:4px}
</style></head><body>
<h1>HA Agent <span class="badge">${ok ? "ready" : "not ready"}</span></h1>
<p>Version ${esc(info.version)} · ${esc(info.mode)} mode · up ${esc(health.uptimeSeconds)} s${options.userName ? ` · signed in as ${esc(options.userName)}` : ""}</p>
${reasons ? `<section><h2>Why not ready</h2><ul>${reasons}</ul></section>` : ""}
<section><h2>Connect an MCP client</h2><p>Endpoint: <code>http://&lt;home-assistant-host&gt;:${esc(info.mcpPort)}${esc(info.mcpPath)}</code> with the header <code>Authorization: Bearer &lt;long-lived access token&gt;</code>.</p>
<p>Tools: ${esc(info.toolNames.join(", "))}</p></section>
${components}
</body></html>`;
}
