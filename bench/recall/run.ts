/**
 * `npm run bench:recall`: how often index_search finds what a request is
 * about, on the recall corpus (homes in several languages, requests drawn
 * from Home Assistant's sentence templates and written by hand), against a
 * naive word overlap in the same run. Prints recall@1, @5 and @10 per kind
 * of request, for the part the index was tuned on and the held-out part
 * apart, and writes bench-results/recall.json.
 *
 * `--misses` lists the tuned part's misses (never the held-out part's).
 */
import { mkdir, writeFile } from "node:fs/promises";
import { measure, type Outcome } from "./measure.js";
import { recallOf, type Recall } from "./score.js";

const pct = (x: number) => `${(x * 100).toFixed(1)}`.padStart(5);

function row(label: string, outcomes: Outcome[]): { label: string; ours: Recall; naive: Recall } {
  return { label, ours: recallOf(outcomes.map((o) => o.ours)), naive: recallOf(outcomes.map((o) => o.naive)) };
}

function printTable(title: string, rows: { label: string; ours: Recall; naive: Recall }[]): void {
  console.log(`\n${title}`);
  console.log(`${"".padEnd(34)} ${"n".padStart(5)} | ours @1   @5  @10 | naive @1  @5  @10`);
  for (const r of rows) {
    if (!r.ours.n) continue;
    console.log(`${r.label.padEnd(34)} ${String(r.ours.n).padStart(5)} |   ${pct(r.ours.at1)} ${pct(r.ours.at5)} ${pct(r.ours.at10)} |  ${pct(r.naive.at1)} ${pct(r.naive.at5)} ${pct(r.naive.at10)}`);
  }
}

function rowsFor(outcomes: Outcome[]) {
  const rows = [row("all", outcomes)];
  for (const source of ["template", "hand"] as const) {
    const part = outcomes.filter((o) => o.request.source === source);
    rows.push(row(`${source}`, part));
    for (const kind of ["command", "question", "underspecified"] as const) rows.push(row(`  ${source}, ${kind}`, part.filter((o) => o.request.kind === kind)));
  }
  for (const kind of ["command", "question", "underspecified"] as const) rows.push(row(`kind ${kind}`, outcomes.filter((o) => o.request.kind === kind)));
  const homes = [...new Set(outcomes.map((o) => o.home))];
  for (const h of homes) rows.push(row(`home ${h}`, outcomes.filter((o) => o.home === h)));
  return rows;
}

async function main(): Promise<void> {
  const showMisses = process.argv.includes("--misses");
  const only = process.argv.includes("--home") ? process.argv[process.argv.indexOf("--home") + 1] : undefined;
  const outcomes = await measure(only);
  const tuned = outcomes.filter((o) => !o.heldOut);
  const held = outcomes.filter((o) => o.heldOut);
  const tunedRows = rowsFor(tuned);
  const heldRows = rowsFor(held);
  printTable("Tuned on (recall in %)", tunedRows);
  printTable("Held out: not tuned to (recall in %)", heldRows);
  if (showMisses) {
    console.log("\nMisses at rank 5 in the tuned part:");
    for (const o of tuned) if (o.ours > 5) console.log(`  [${o.home}] ${o.request.kind}: "${o.request.text}"${o.request.near ? ` (in ${o.request.near})` : ""} → want ${o.request.targets.slice(0, 3).join(", ")}; got ${o.answer.slice(0, 5).join(", ") || "nothing"}`);
    console.log("\nSecond place or lower in the tuned part:");
    for (const o of tuned) if (o.ours > 1 && o.ours <= 5) console.log(`  [${o.home}] #${o.ours} "${o.request.text}"${o.request.near ? ` (in ${o.request.near})` : ""} → want ${o.request.targets.slice(0, 2).join(", ")}; got ${o.answer.slice(0, 3).join(", ")}`);
  }
  await mkdir("bench-results", { recursive: true });
  await writeFile("bench-results/recall.json", JSON.stringify({ tuned: tunedRows, heldOut: heldRows }, null, 1));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
