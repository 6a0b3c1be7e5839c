/** Lines of context around each change, as `diff -u` gives them. */
const CONTEXT = 3;

type Op = { kind: " " | "-" | "+"; line: string };

/** The edit script from `a` to `b`: a longest common subsequence of lines, then what is taken out and put in. */
function editScript(a: readonly string[], b: readonly string[]): Op[] {
  const n = a.length;
  const m = b.length;
  // lcs[i * (m + 1) + j]: the longest common subsequence of a[i..] and b[j..]; configs are hundreds of lines at most.
  const lcs = new Uint32Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * (m + 1) + j] = a[i] === b[j] ? lcs[(i + 1) * (m + 1) + j + 1]! + 1 : Math.max(lcs[(i + 1) * (m + 1) + j]!, lcs[i * (m + 1) + j + 1]!);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      ops.push({ kind: " ", line: a[i]! });
      i++;
      j++;
    } else if (i < n && (j === m || lcs[(i + 1) * (m + 1) + j]! >= lcs[i * (m + 1) + j + 1]!)) ops.push({ kind: "-", line: a[i++]! });
    else ops.push({ kind: "+", line: b[j++]! });
  }
  return ops;
}

const range = (start: number, count: number) => (count === 1 ? `${start}` : `${count === 0 ? start - 1 : start},${count}`);

/**
 * A unified diff of two texts, line by line, with three lines of context,
 * as `diff -u` writes it; empty when they are the same.
 */
export function unifiedDiff(args: { before: string; after: string; beforeName: string; afterName: string }): string {
  const split = (text: string) => (text === "" ? [] : text.replace(/\n$/, "").split("\n"));
  const ops = editScript(split(args.before), split(args.after));
  if (ops.every((o) => o.kind === " ")) return "";
  const out = [`--- ${args.beforeName}`, `+++ ${args.afterName}`];
  let k = 0;
  // Line numbers (1-based) in each text where the op at index k stands.
  const lineA: number[] = [];
  const lineB: number[] = [];
  let la = 1;
  let lb = 1;
  for (const o of ops) {
    lineA.push(la);
    lineB.push(lb);
    if (o.kind !== "+") la++;
    if (o.kind !== "-") lb++;
  }
  while (k < ops.length) {
    if (ops[k]!.kind === " ") {
      k++;
      continue;
    }
    // A hunk: from CONTEXT lines before this change to CONTEXT lines after the last change closer than 2 * CONTEXT.
    const start = Math.max(0, k - CONTEXT);
    let end = k;
    for (let x = k; x < ops.length; x++) {
      if (ops[x]!.kind !== " ") end = x;
      else if (x - end > 2 * CONTEXT) break;
    }
    const stop = Math.min(ops.length, end + CONTEXT + 1);
    const hunk = ops.slice(start, stop);
    const countA = hunk.filter((o) => o.kind !== "+").length;
    const countB = hunk.filter((o) => o.kind !== "-").length;
    out.push(`@@ -${range(lineA[start]!, countA)} +${range(lineB[start]!, countB)} @@`);
    for (const o of hunk) out.push(`${o.kind}${o.line}`);
    k = stop;
  }
  return `${out.join("\n")}\n`;
}
