import type { IndexedEntity } from "../../src/indexer/model.js";

/**
 * The naive search a first version would write: lower-case every entity's
 * text into one string and count how many query words occur in it as
 * substrings. It exists only to measure the real index against.
 */
export class SubstringScan {
  readonly #docs: { id: string; text: string }[];

  constructor(entities: IndexedEntity[]) {
    this.#docs = entities.map((e) => ({
      id: e.entityId,
      text: [e.entityId, e.name, ...e.aliases, e.areaName, e.floorName, e.deviceName, e.manufacturer, e.model, ...e.labelNames, e.domain, e.deviceClass, e.platform]
        .filter(Boolean)
        .join(" ")
        .toLowerCase(),
    }));
  }

  search(query: string, limit: number): string[] {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    const scored: { id: string; score: number }[] = [];
    for (const d of this.#docs) {
      let score = 0;
      for (const w of words) if (d.text.includes(w)) score++;
      if (score > 0) scored.push({ id: d.id, score });
    }
    scored.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
    return scored.slice(0, limit).map((s) => s.id);
  }
}
