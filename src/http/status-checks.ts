import type { HealthCheck } from "./health.js";

/** What the checks read; structural, so the HTTP layer does not depend on how each part is built. */
export interface StatusSources {
  ha: { readonly status: string; readonly haVersion: string | undefined };
  index: { readonly ready: boolean; readonly catchingUpSince?: number | null; stats(): object };
  store: { readonly recovery: { readonly awaitingApproval: readonly unknown[] }; readonly unwritable: string | undefined };
  model?: { describe(): { status: string; provider: string; model: string; label?: string } };
  /** User persona files that could not be loaded, one line each naming the file, line and field. */
  personas?: { problems(): string[] };
  /** Add-on mode: telling Home Assistant about the MCP server (Supervisor discovery); `problem` is set while it fails. */
  discovery?: { status(): { state: string; problem?: string } };
}

const HA_REASONS: Record<string, string> = {
  connecting: "connecting to Home Assistant",
  reconnecting: "the connection to Home Assistant was lost; reconnecting",
  auth_failed: "Home Assistant rejected the token this add-on uses",
  closed: "the connection to Home Assistant is closed",
};

/** The checks behind `/healthz` and the status page: HA connected, index searchable, store open. */
export function createStatusChecks(sources: StatusSources): HealthCheck[] {
  const model = sources.model;
  const personas = sources.personas;
  const discovery = sources.discovery;
  return [
    {
      name: "home_assistant",
      check: () => ({
        ok: sources.ha.status === "connected",
        reason: HA_REASONS[sources.ha.status] ?? `Home Assistant connection is ${sources.ha.status}`,
        details: { status: sources.ha.status, version: sources.ha.haVersion ?? null },
      }),
    },
    { name: "index", check: () => indexCheck(sources.index) },
    {
      name: "store",
      check: () => ({
        ok: sources.store.unwritable === undefined,
        // Degraded only while it cannot write: the rest of the program still serves then.
        degraded: sources.store.unwritable !== undefined,
        reason: sources.store.unwritable,
        // Who waits for an approval is nobody's business on an open endpoint: only how many.
        details: { writable: sources.store.unwritable === undefined, recovery: { ...sources.store.recovery, awaitingApproval: sources.store.recovery.awaitingApproval.length } },
      }),
    },
    // Never blocks readiness: without a model everything but the agent works.
    ...(model ? [{ name: "model", check: () => ({ ok: true, details: model.describe() }) }] : []),
    // A bad persona file leaves only that persona out: degraded, never failing.
    ...(personas ? [{ name: "personas", check: () => personasCheck(personas.problems()) }] : []),
    // Failing to announce leaves every client working: degraded, never failing.
    ...(discovery ? [{ name: "discovery", check: () => discoveryCheck(discovery.status()) }] : []),
  ];
}

/**
 * Before the first build the program has nothing to answer from: not ready.
 * Catching up after a reconnect it answers, each answer marked stale, for the
 * few seconds the resync takes: degraded, still 200. A 503 there would turn
 * every HA restart into a readiness flap, and a watchdog that restarts the
 * add-on for it would throw away the index it is about to refresh.
 */
function indexCheck(index: StatusSources["index"]) {
  if (!index.ready) return { ok: false, reason: "the index of the home is still being built", details: index.stats() };
  const since = index.catchingUpSince ?? null;
  if (since === null) return { ok: true, details: index.stats() };
  return {
    ok: false,
    degraded: true,
    reason: `the index is catching up with Home Assistant after the connection came back (lost at ${new Date(since).toISOString()}); answers are marked stale until it has`,
    details: { ...index.stats(), catchingUp: true },
  };
}

function personasCheck(problems: string[]) {
  const bad = problems.length > 0;
  return { ok: !bad, degraded: bad, reason: bad ? `persona file${problems.length === 1 ? "" : "s"} left out: ${problems.join("; ")}` : undefined, details: { problems } };
}

function discoveryCheck(status: { state: string; problem?: string }) {
  const { problem, ...details } = status;
  return { ok: problem === undefined, degraded: problem !== undefined, reason: problem, details };
}
