import type { SearchResult } from "./graph.js";
import { asksAboutSet, pluralOf } from "./set-question.js";

/** Scores this close to the best are as good as the best. */
const TIE = 0.97;
const SHOWN = 3;
/** A request put as a question, rather than a command. */
const QUESTION = /\?\s*$|^\s*(is|are|was|were|which|what|how|do|does|did|has|have|any)\b/i;

const plural = (domain: string): string => {
  const words = domain.replace(/_/g, " ");
  return words.endsWith("s") || words.endsWith("h") ? `${words}es` : `${words}s`;
};

/**
 * One plain sentence about a search's answer when a caller needs more than
 * each result's `why`: that nothing in the request named a device (so these
 * are the entities of the kind it points at), that several fit equally, or
 * that nothing matched at all. Several equal fits are ambiguous only when the
 * request means one thing ("the kitchen light"); a question about a set ("is
 * any window open?", "which lights are on?") is answered by all of them.
 * Undefined when the best result is plainly the one.
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
  const set = tied.length > 1 ? asksAboutSet(args.query, tied) : undefined;
  if (set?.set) {
    parts.push(`${tied.length} ${set.plural ?? kindOf(tied)} match; the ${QUESTION.test(args.query) ? "question" : "request"} is about all of them.`);
  } else if (tied.length > 1) {
    const names = tied.slice(0, SHOWN).map((r) => `${r.name}${r.area ? ` (${r.area})` : ""}`);
    // Plain ASCII: one character beyond Latin-1 makes the whole answer a two-byte string, twice the memory to send.
    const more = tied.length > SHOWN ? ` and ${tied.length - SHOWN} more` : "";
    parts.push(`Ambiguous: ${tied.length} fit equally well (${names.join(", ")}${more}); ask which one is meant, or act on all if that is what was asked.`);
  }
  return parts.length ? parts.join(" ") : undefined;
}

/** What a set of results is, in the plural: their shared device class, else their shared domain ("windows", "lights"), else "entities". */
function kindOf(results: SearchResult[]): string {
  const shared = (of: (r: SearchResult) => string | null) => {
    const first = of(results[0]!);
    return first && results.every((r) => of(r) === first) ? first : undefined;
  };
  const kind = shared((r) => r.deviceClass) ?? shared((r) => r.domain);
  return kind ? pluralOf(kind.replace(/_/g, " ")) : "entities";
}
