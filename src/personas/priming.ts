import { estimateTokens } from "../models/index.js";

/** One part of the primed context; its lines are kept in order until the budget runs out. */
export interface PrimingSection {
  title: string;
  lines: string[];
  /** How to get what was left out of this section, e.g. `diagnose_entity with entity_id light.desk`. */
  more: string;
}

export interface FittedPriming {
  text: string;
  omitted: string[];
}

/**
 * Fits sections under `maxTokens` (the project's token estimate), most
 * important first: a section keeps whole lines while they fit, and what is
 * dropped is named at the end with the tool that gets it. The closing note
 * is counted in the budget too, so the text as sent never exceeds it.
 */
export function fitPriming(args: { heading: string; sections: PrimingSection[]; maxTokens: number }): FittedPriming {
  let reserve = 0;
  for (;;) {
    const fitted = fitOnce(args, reserve);
    if (estimateTokens(fitted.text) <= args.maxTokens || reserve >= args.maxTokens) return fitted;
    // The closing note took more room than was kept for it: keep that much more, and fit again.
    reserve = estimateTokens(fitted.text) - args.maxTokens + reserve + 8;
  }
}

function fitOnce(args: { heading: string; sections: PrimingSection[]; maxTokens: number }, reserve: number): FittedPriming {
  const limit = args.maxTokens - reserve;
  const parts = [args.heading];
  let used = estimateTokens(args.heading);
  const omitted: string[] = [];
  for (const section of args.sections) {
    if (!section.lines.length) continue;
    const header = `\n## ${section.title}`;
    let kept = 0;
    const cost = estimateTokens(header) + 1;
    if (used + cost <= limit) {
      const body: string[] = [];
      let size = used + cost;
      for (const line of section.lines) {
        const c = estimateTokens(line) + 1;
        if (size + c > limit) break;
        body.push(line);
        size += c;
        kept += 1;
      }
      if (kept) {
        parts.push(header, ...body);
        used = size;
      }
    }
    const left = section.lines.length - kept;
    if (left) omitted.push(`${section.title}: ${left} of ${section.lines.length} line${section.lines.length === 1 ? "" : "s"} left out; use ${section.more}`);
  }
  if (omitted.length) parts.push(`\n## Left out to stay within ${args.maxTokens} tokens`, ...omitted.map((o) => `- ${o}`));
  return { text: parts.join("\n"), omitted };
}
