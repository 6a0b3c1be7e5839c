/**
 * A development aid: runs a few requests against one home of the corpus and
 * prints the answers with their reasons. Usage: node probe.js <home> "request" [near]…
 */
import { startLiveIndex } from "../../test/support/indexer/live-index.js";
import { HOMES } from "./homes/index.js";

async function main(): Promise<void> {
  const [homeId, ...rest] = process.argv.slice(2);
  const home = HOMES.find((h) => h.view.id === homeId);
  if (!home) throw new Error(`no home ${homeId}`);
  const live = await startLiveIndex(home.view.house);
  await live.index.whenIdle();
  for (const arg of rest) {
    const [text, near] = arg.split("@");
    console.log(`\n> ${text}${near ? ` (in ${near})` : ""}`);
    for (const h of live.index.search(text!, { limit: 6, ...(near ? { nearArea: near } : {}) })) console.log(`  ${h.score.toFixed(3)} ${h.entityId}${h.named ? "" : " ·"}  — ${h.why}`);
  }
  await live.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
