// Scratch rows reused across calls: fuzzy lookup runs over thousands of terms per query.
let rowA = new Int32Array(64);
let rowB = new Int32Array(64);
let rowC = new Int32Array(64);

/**
 * Edit distance with adjacent transpositions ("kithcen" is one edit from
 * "kitchen"), giving up as soon as the distance must exceed `max`. Returns
 * `max + 1` when it is larger.
 */
export function editDistance(a: string, b: string, max: number): number {
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > max) return max + 1;
  if (rowA.length <= lb) {
    rowA = new Int32Array(lb + 1);
    rowB = new Int32Array(lb + 1);
    rowC = new Int32Array(lb + 1);
  }
  let prev2 = rowA;
  let prev = rowB;
  let cur = rowC;
  for (let j = 0; j <= lb; j++) prev[j] = j;
  for (let i = 1; i <= la; i++) {
    cur[0] = i;
    let rowMin = i;
    const ca = a.charCodeAt(i - 1);
    const caPrev = i > 1 ? a.charCodeAt(i - 2) : -1;
    for (let j = 1; j <= lb; j++) {
      const cb = b.charCodeAt(j - 1);
      let v = prev[j - 1]! + (ca === cb ? 0 : 1);
      const del = prev[j]! + 1;
      if (del < v) v = del;
      const ins = cur[j - 1]! + 1;
      if (ins < v) v = ins;
      if (j > 1 && ca === b.charCodeAt(j - 2) && caPrev === cb) {
        const swap = prev2[j - 2]! + 1;
        if (swap < v) v = swap;
      }
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    const t = prev2;
    prev2 = prev;
    prev = cur;
    cur = t;
  }
  return prev[lb]!;
}

/** How many edits a word of this length may have and still match: none under 4 letters. */
export function allowedEdits(length: number): number {
  if (length < 4) return 0;
  if (length < 7) return 1;
  return 2;
}
