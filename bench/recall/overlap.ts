import type { IndexedEntity } from "../../src/indexer/index.js";

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/** Lower-case words; a run of Chinese or Japanese characters counts each character as a word. */
function words(text: string): string[] {
  const out: string[] = [];
  for (const w of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (CJK.test(w)) out.push(...[...w]);
    else out.push(w);
  }
  return out;
}

/**
 * The naive search a first version would write: count the words a request
 * shares with each entity's name, area and device name, most shared first.
 * It exists only to measure the index against, in the same run.
 */
export class WordOverlap {
  readonly #docs: { id: string; words: Set<string> }[];

  constructor(entities: IndexedEntity[]) {
    this.#docs = entities.map((e) => ({ id: e.entityId, words: new Set(words([e.name, e.areaName ?? "", e.deviceName ?? ""].join(" "))) }));
  }

  search(query: string, limit: number): string[] {
    const q = [...new Set(words(query))];
    const scored: { id: string; score: number }[] = [];
    for (const d of this.#docs) {
      let score = 0;
      for (const w of q) if (d.words.has(w)) score++;
      if (score > 0) scored.push({ id: d.id, score });
    }
    scored.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
    return scored.slice(0, limit).map((s) => s.id);
  }
}
