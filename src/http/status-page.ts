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

/** `lastSyncAt` → "Last sync at", `heapUsedBytes` → "Heap used". */
function humanize(key: string): string {
  // The unit moves into the value (see formatNumber), so it leaves the label.
  const words = key.replace(/(Ms|Bytes)$/, "").replace(/_/g, " ").replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const TITLES: Record<string, string> = { home_assistant: "Home Assistant", index: "Home index", store: "Session store", model: "Model" };

/** Numbers read better with their unit, judged from the key's name. */
function formatNumber(key: string, value: number): string {
  if (/At$/.test(key) && value > 1e12) return new Date(value).toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC");
  if (/Bytes$/.test(key)) return `${(value / 1_048_576).toFixed(1)} MB`;
  if (/Ms$/.test(key)) return `${value} ms`;
  return value.toLocaleString("en-US");
}

function renderValue(key: string, value: unknown): string {
  if (value === null || value === undefined) return "–";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "number") return esc(formatNumber(key, value));
  if (Array.isArray(value)) return value.length ? esc(value.map((v) => (typeof v === "object" ? JSON.stringify(v) : String(v))).join(", ")) : "none";
  if (typeof value === "object") {
    const rows = Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `<tr><th>${esc(humanize(k))}</th><td>${renderValue(k, v)}</td></tr>`)
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
  const badge = { ok: ["ready", "#2e7d32"], degraded: ["degraded", "#ef6c00"], unavailable: ["not ready", "#c62828"] }[health.status];
  const components = Object.entries(health.components)
    .map(([name, value]) => {
      const { ok: healthy, details } = value as { ok?: boolean; details?: unknown };
      return `<section><h2>${esc(TITLES[name] ?? humanize(name))} <span class="dot ${healthy ? "up" : "down"}"></span></h2>${renderValue(name, details)}</section>`;
    })
    .join("");
  const reasons = health.reasons.map((r) => `<li>${esc(r)}</li>`).join("");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="10"><base href="${esc(options.ingressPath)}/">
<title>HA Agent</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;padding:16px;background:#fafafa;color:#212121}
h1{font-size:1.4em;margin:0 0 8px}h2{font-size:1.05em;margin:8px 0 4px}
.dot{display:inline-block;width:.6em;height:.6em;border-radius:50%}.up{background:#2e7d32}.down{background:#c62828}
.badge{display:inline-block;padding:2px 10px;border-radius:12px;color:#fff;background:${badge[1]}}
section{background:#fff;border-radius:8px;padding:8px 12px;margin:8px 0;box-shadow:0 1px 2px rgba(0,0,0,.1)}
table{border-collapse:collapse}th{text-align:left;padding:2px 12px 2px 0;font-weight:500;color:#555;vertical-align:top}td{padding:2px 0}
code{background:#eee;padding:1px 4px;border-radius:4px}
</style></head><body>
<h1>HA Agent <span class="badge">${badge[0]}</span></h1>
<p>Version ${esc(info.version)} · ${esc(info.mode)} mode · up ${esc(health.uptimeSeconds)} s${options.userName ? ` · signed in as ${esc(options.userName)}` : ""}</p>
${reasons ? `<section><h2>${ok ? "" : health.status === "degraded" ? "What does not work" : "Why not ready"}</h2><ul>${reasons}</ul></section>` : ""}
<section><h2>Connect an MCP client</h2><p>Endpoint: <code>http://${info.mode === "demo" ? "127.0.0.1" : "&lt;home-assistant-host&gt;"}:${esc(info.mcpPort)}${esc(info.mcpPath)}</code> with the header <code>Authorization: Bearer &lt;${info.mode === "demo" ? "the demo token printed when HA Agent started" : "long-lived access token"}&gt;</code>.</p>
<p>Tools: ${esc(info.toolNames.join(", "))}</p></section>
${components}
</body></html>`;
}
