import type { Reading } from "./reading.js";

/** One hit, best first. `why` says in words which parts of the query matched what. */
export interface SearchHit {
  entityId: string;
  score: number;
  why: string;
  /** Some word of the request matched the entity's own name, alias, device or id, not only its kind or place. */
  named: boolean;
}

export interface SearchRequest {
  reading: Reading;
  limit: number;
  /** The area the request was spoken in, and its floor, as the index numbers them; -1 for none. */
  nearArea: number;
  nearFloor: number;
  /** Its name, for `why`. */
  nearAreaName?: string;
}

/** What one search cost: the documents some word reached, and how many of them were scored. */
export interface SearchCost {
  candidates: number;
  scored: number;
}

export interface SearchEngineOptions {
  /** Score every candidate instead of skipping those that cannot reach the top: slower, the same answers. For checking the skipping. */
  exhaustive?: boolean;
  /** Told what each search cost; for tests and benchmarks. */
  observe?: (cost: SearchCost) => void;
}
