/** One part of the program that must be working before HA Agent reports itself ready. */
export interface HealthCheck {
  name: string;
  /** `degraded`: not ok, but the program still serves what does not need this part. */
  check(): { ok: boolean; degraded?: boolean; reason?: string; details?: unknown };
}

export interface HealthReport {
  /** `degraded` still answers 200 on /healthz: the MCP server works, without some part (say, sessions). */
  status: "ok" | "degraded" | "unavailable";
  /** Why the program is not ready, in words; empty when it is. */
  reasons: string[];
  uptimeSeconds: number;
  components: Record<string, unknown>;
}

/** Runs every check; the program is ready when all of them pass. */
export function healthReport(checks: HealthCheck[], startedAt: number, now: number): HealthReport {
  const reasons: string[] = [];
  let blocking = false;
  const components: Record<string, unknown> = {};
  for (const c of checks) {
    let result: ReturnType<HealthCheck["check"]>;
    try {
      result = c.check();
    } catch (err) {
      result = { ok: false, reason: `${c.name} check failed: ${err instanceof Error ? err.message : String(err)}` };
    }
    // A part that works is never degraded, whatever its check says.
    const degraded = !result.ok && result.degraded === true;
    components[c.name] = { ok: result.ok, ...(degraded ? { degraded: true } : {}), ...(result.details !== undefined ? { details: result.details } : {}) };
    if (!result.ok) {
      reasons.push(result.reason ?? `${c.name} is not ready`);
      if (!degraded) blocking = true;
    }
  }
  return { status: blocking ? "unavailable" : reasons.length ? "degraded" : "ok", reasons, uptimeSeconds: Math.round((now - startedAt) / 1000), components };
}
