import type { SearchResult } from "./graph.js";

/** Scores this close to the best are as good as the best. */
const TIE = 0.97;
const SHOWN = 3;

const plural = (domain: string): string => {
  const words = domain.replace(/_/g, " ");
  return words.endsWith("s") || words.endsWith("h") ? `${words}es` : `${words}s`;
};

/**
 * One plain sentence about a search's answer when a caller needs more than
 * each result's `why`: that nothing in the request named a device (so these
 * are the entities of the kind it points at), that several fit equally, or
 * that nothing matched at all. Undefined when the best result is plainly the
 * one.
 */
export function searchNote(args: { query: string; results: SearchResult[]; nearArea?: string }): string | undefined {
  const { results } = args;
  if (!args.query.trim()) return undefined;
  if (results.length === 0) return "Nothing in the home matches these words; try the name of a device, an area, or a filter.";
  const top = results[0]!;
  const tied = results.filter((r) => r.score >= top.score * TIE);
  const kinds = [...new Set(results.slice(0, SHOWN).map((r) => r.domain))];
  const parts: string[] = [];
  if (!results.some((r) => r.named)) {
    const where = args.nearArea && top.area ? `, those in ${top.area} first` : "";
    parts.push(`No device is named: these are the ${kinds.map(plural).join(" and ")} the request points at${where}, best candidates first.`);
  }
  if (tied.length > 1) {
    const names = tied.slice(0, SHOWN).map((r) => `${r.name}${r.area ? ` (${r.area})` : ""}`);
    // Plain ASCII: one character beyond Latin-1 makes the whole answer a two-byte string, twice the memory to send.
    const more = tied.length > SHOWN ? ` and ${tied.length - SHOWN} more` : "";
    parts.push(`Ambiguous: ${tied.length} fit equally well (${names.join(", ")}${more}); ask which one is meant, or act on all if that is what was asked.`);
  }
  return parts.length ? parts.join(" ") : undefined;
}
