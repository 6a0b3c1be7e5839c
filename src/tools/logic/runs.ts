import type { CallerHa, HassServices } from "../../ha/index.js";
import { sameConfig } from "./normalize.js";
import type { AutomationRef } from "./resolve.js";
import { closestService } from "./references.js";
import { tellRun, type RunStory, type StoryContext } from "./story.js";
import { getRun, listRuns, type TraceDetail } from "./traces.js";

/** How many runs filed under "None" are read to find those of one automation without an id. */
const NONE_SCAN = 20;

/**
 * The newest runs of an automation or script, each read whole and told.
 * An automation without an id has its runs filed under "None" with every
 * other one that lacks an id: they are told apart by the config each trace
 * carries.
 */
export async function recentRuns(args: { ha: CallerHa; ref: AutomationRef; config: Record<string, unknown> | null; count: number; story: StoryContext }): Promise<{ stories: RunStory[]; traces: TraceDetail[] }> {
  const { ha, ref } = args;
  const itemId = ref.id ?? "None";
  const summaries = await listRuns(ha, ref.domain, itemId);
  const scan = summaries.slice(0, ref.id === null ? NONE_SCAN : args.count);
  const read = await Promise.all(scan.map((s) => getRun(ha, ref.domain, itemId, s.run_id)));
  const mine = read.filter((t): t is TraceDetail => t !== undefined && (ref.id !== null || belongs(t, ref, args.config))).slice(0, args.count);
  const stories = mine.map((t) => tellRun(t, { ...args.story, noId: ref.id === null }));
  await suggestServices(ha, stories);
  return { stories, traces: mine };
}

function belongs(trace: TraceDetail, ref: AutomationRef, config: Record<string, unknown> | null): boolean {
  if (config && trace.config) return sameConfig(trace.config, config);
  return trace.config?.alias === ref.alias;
}

/** A run that failed on a service Home Assistant does not have gets the closest one it has, when one is close: a typo is the usual cause. */
async function suggestServices(ha: CallerHa, stories: RunStory[]): Promise<void> {
  const missing = stories.filter((s) => s.outcome === "error" && /^Action \S+ not found\.?$/.test(s.error ?? ""));
  if (!missing.length) return;
  let services: HassServices;
  try {
    services = await ha.getServices();
  } catch {
    return;
  }
  for (const story of missing) {
    const name = /^Action (\S+?) not found/.exec(story.error!)![1]!;
    const close = closestService(services, name);
    if (close) story.narrative += ` Home Assistant has no ${name}, but it has ${close}: the automation probably means that one.`;
  }
}
