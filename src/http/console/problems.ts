import type { HealthView, Problem } from "./wire.js";

/** Free space below this share of the disk is a problem to fix before writes fail. */
const DISK_NEARLY_FULL = 0.05;

/** What is wrong, in plain words, with what to do about it; empty when all is well. */
export function findProblems(health: HealthView, mode: string): Problem[] {
  const problems: Problem[] = [];
  const settings = mode === "addon" ? "the add-on's Configuration tab" : "the environment";
  if (health.model.status === "not configured") {
    problems.push({ code: "no_model", title: "No model is configured, so the agent cannot answer.", fix: `Set a model provider and its key in ${settings} (model_provider with gemini_api_key, or openai_base_url), then restart HA Agent.` });
  }
  if (health.ha.status !== "connected") {
    problems.push({
      code: "ha_unreachable",
      title: health.ha.status === "auth_failed" ? "Home Assistant rejected HA Agent's token." : `Home Assistant is not reachable (${health.ha.status.replace(/_/g, " ")}).`,
      fix: health.ha.status === "auth_failed" ? `Create a new long-lived access token and set it in ${settings}.` : "Check that Home Assistant runs; HA Agent reconnects by itself once it answers.",
    });
  } else if (!health.index.ready) {
    problems.push({ code: "index_building", title: "The index of your home is still being built.", fix: "Wait a moment: searches work once it is done." });
  }
  const { freeBytes, totalBytes } = health.store;
  if (freeBytes !== null && totalBytes && freeBytes / totalBytes < DISK_NEARLY_FULL) {
    problems.push({ code: "disk_nearly_full", title: `The disk is nearly full (${Math.round(freeBytes / 1_048_576)} MB free).`, fix: "Free some space (old backups, logs or media) before sessions can no longer be saved." });
  }
  if (!health.store.writable) {
    problems.push({ code: "store_unwritable", title: "Sessions cannot be saved.", fix: "Free disk space or fix the data folder's permissions; HA Agent retries on its own." });
  }
  if (health.store.quarantined > 0) {
    problems.push({ code: "quarantined_files", title: `${health.store.quarantined} damaged file(s) were set aside at start.`, fix: "Nothing else is affected. Run `npm run fsck` (or read the add-on log) to see which, then delete the quarantine folder's files you do not need." });
  }
  if (health.model.rateLimitedLastHour > 0) {
    problems.push({ code: "rate_limited", title: `The model provider limited HA Agent's rate ${health.model.rateLimitedLastHour} time(s) in the last hour.`, fix: "Turns wait and retry by themselves. If it keeps happening, raise your plan's quota or lower max_concurrent_model_calls." });
  } else if (health.model.lastError) {
    problems.push({ code: "model_failing", title: `The model's last call failed: ${health.model.lastError.message}`, fix: "Check the model name and key; `npm run model:check` (or the add-on log) says what the provider answered." });
  }
  return problems;
}
