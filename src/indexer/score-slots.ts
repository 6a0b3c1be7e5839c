/**
 * The search's scratch scores live in one array, four numbers a document:
 * a word's best score, the running total and the share of words matched sit
 * side by side, so each candidate costs one cache line, not three. A search
 * over thousands of candidates runs right after the MCP and HTTP code has
 * taken the caches; memory traffic, not arithmetic, is most of its time.
 */
export const STRIDE = 4;
export const BEST = 0;
export const TOTAL = 1;
export const MATCHED = 2;
