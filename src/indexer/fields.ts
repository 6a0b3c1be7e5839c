/**
 * The searchable fields of an entity and how much a match in each one counts.
 * Area, domain and device class weigh slightly more than the name, so that
 * "bedroom lights" ranks lights *in* the bedroom above lights merely named
 * "bedroom".
 */
export const FIELDS = [
  { key: "name", weight: 3.0 },
  { key: "alias", weight: 3.0 },
  { key: "entityId", weight: 2.4 },
  { key: "area", weight: 3.2 },
  { key: "floor", weight: 2.8 },
  { key: "device", weight: 2.2 },
  { key: "maker", weight: 2.4 },
  { key: "label", weight: 2.8 },
  { key: "domain", weight: 3.1 },
  { key: "deviceClass", weight: 3.0 },
  { key: "integration", weight: 2.2 },
  // What the device is (domain, device class), reached through the vocabulary: "pause" → media players.
  { key: "kind", weight: 3.0 },
] as const;

export type FieldKey = (typeof FIELDS)[number]["key"];
export const FIELD_COUNT = FIELDS.length;
export const FIELD_BIT: Record<FieldKey, number> = Object.fromEntries(FIELDS.map((f, i) => [f.key, 1 << i])) as Record<FieldKey, number>;

/** A match in more than one field adds a little on top of the best one. */
const EXTRA_FIELD_BONUS = 0.15;

/** Score and best field for every possible set of fields, computed once. */
export const MASK_SCORE = new Float64Array(1 << FIELD_COUNT);
export const MASK_BEST = new Uint8Array(1 << FIELD_COUNT);
for (let mask = 1; mask < 1 << FIELD_COUNT; mask++) {
  let best = 0;
  let bestIndex = 0;
  let count = 0;
  for (let i = 0; i < FIELD_COUNT; i++) {
    if (mask & (1 << i)) {
      count++;
      if (FIELDS[i]!.weight > best) {
        best = FIELDS[i]!.weight;
        bestIndex = i;
      }
    }
  }
  MASK_SCORE[mask] = best + EXTRA_FIELD_BONUS * (count - 1);
  MASK_BEST[mask] = bestIndex;
}

/** The best score any set of fields has: a bound for skipping candidates. */
export const MASK_SCORE_MAX = MASK_SCORE.reduce((a, b) => Math.max(a, b), 0);

/** The text of each field for one entity; the index tokenizes it. */
export type DocFields = Record<FieldKey, string[]>;
