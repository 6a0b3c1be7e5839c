import type { AutomationRef } from "./resolve.js";
import { spokenTime } from "./when.js";

/** HA keeps this many runs per automation unless its config says otherwise (`trace: stored_traces`). */
export const DEFAULT_STORED_TRACES = 5;

const NO_ID =
  "It has no id, so Home Assistant files its runs under the id \"None\" with every other automation that lacks one, never finishes their traces and cannot keep them apart. Give it an id to fix that: open it in Home Assistant's automation editor and save it, or add a line id: '<any unique text>' to it in automations.yaml and reload automations.";

/**
 * Why an automation shows the runs it shows: no id (HA cannot keep its
 * traces properly), off, never triggered since its traces were kept, or as
 * many runs as HA keeps (older ones are gone). Empty when nothing needs
 * saying.
 */
export function diagnose(args: { ref: AutomationRef; config: Record<string, unknown> | null; runs: number; now: number; zone: string }): string[] {
  const { ref, config, runs } = args;
  const out: string[] = [];
  const noun = ref.domain === "script" ? "script" : "automation";
  if (ref.domain === "automation" && ref.id === null) out.push(NO_ID);
  if (ref.domain === "automation" && ref.state === "off") out.push(`It is off, so it does not trigger at all. Turn it on (automation.turn_on on ${ref.entityId}) for it to run again.`);
  if (ref.state === "unavailable") out.push(`Its ${noun} entity is unavailable: Home Assistant could not load its configuration. Check it with automation_check.`);
  if (runs === 0) {
    const last = ref.lastTriggered ? Date.parse(ref.lastTriggered) : NaN;
    if (Number.isNaN(last)) {
      out.push(
        ref.domain === "script"
          ? "It has no stored runs: it has not been run since Home Assistant last kept traces."
          : "It has no stored runs and has never triggered (last_triggered is empty): its triggers have not fired since Home Assistant started keeping them. A run stopped by a condition would still be stored, so its trigger is what did not happen.",
      );
    } else {
      out.push(`It last ran at ${spokenTime(last, args.now, args.zone)}, but Home Assistant holds no trace of it: traces live in memory and are saved only when Home Assistant stops cleanly.`);
    }
  }
  const trace = config?.trace;
  const kept = typeof trace === "object" && trace !== null && typeof (trace as { stored_traces?: unknown }).stored_traces === "number" ? (trace as { stored_traces: number }).stored_traces : DEFAULT_STORED_TRACES;
  if (runs > 0 && runs >= kept) {
    out.push(`Home Assistant keeps only the last ${kept} runs of each ${noun} (trace: stored_traces, default ${DEFAULT_STORED_TRACES}), and it holds ${runs}: older runs are gone. To keep more, add trace: {stored_traces: 20} to its configuration.`);
  }
  return out;
}
