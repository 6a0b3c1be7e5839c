/**
 * The recall corpus: requests to a home, each with the entities a good
 * answer names. Template requests are drawn from Home Assistant's sentence
 * templates (generate.ts) and stored as JSON; hand-written ones are written
 * in TypeScript beside the homes.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** command: does something; question: asks about something; underspecified: names no device, area or floor. */
export type RequestKind = "command" | "question" | "underspecified";

export interface Request {
  text: string;
  /** A good answer has one of these; "first" and "top 5" count the best-placed one. */
  targets: string[];
  kind: RequestKind;
  /** The area the request was spoken in, when the evaluation passes one (a satellite's area, a pin). */
  near?: string;
  source: "template" | "hand";
  /** The intent of the template it was drawn from. */
  intent?: string;
}

/** The corpus folder in the source tree, whether this runs compiled (dist-bench/) or from source. */
function findCorpusDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, "package.json"))) return join(dir, "bench", "recall", "corpus") + "/";
    dir = dirname(dir);
  }
  throw new Error("bench/recall/corpus not found above " + import.meta.url);
}

const corpusDir = findCorpusDir();

/** The template requests generated for a home, or none when they were never generated. */
export function templateRequests(homeId: string): Request[] {
  try {
    return JSON.parse(readFileSync(`${corpusDir}${homeId}.json`, "utf8")) as Request[];
  } catch {
    return [];
  }
}

export const corpusPath = (homeId: string): string => `${corpusDir}${homeId}.json`;

/** Shorthand for hand-written requests. */
export const hand = (kind: RequestKind, text: string, targets: string[], near?: string): Request => ({ text, targets, kind, source: "hand", ...(near ? { near } : {}) });
