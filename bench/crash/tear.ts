import { appendFile, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * SIGKILL never tears a write, but a power cut can leave half a group commit
 * at the end of a log. This fakes that on one unfinished turn so recovery's
 * cutting is exercised in the crash loop too.
 */
export async function tearRandomLog(dataDir: string, rnd: () => number): Promise<void> {
  const sessionsDir = join(dataDir, "sessions");
  const candidates: string[] = [];
  // Unfinished turns are found from their turn files: a new turn is not in session.json yet.
  for (const id of await readdir(sessionsDir).catch(() => [])) {
    for (const name of await readdir(join(sessionsDir, id, "turns")).catch(() => [])) {
      if (!name.endsWith(".json")) continue;
      const raw = await readFile(join(sessionsDir, id, "turns", name), "utf8").catch(() => "");
      let status: unknown;
      try {
        status = (JSON.parse(raw) as { status?: unknown }).status;
      } catch {
        continue;
      }
      if (status === "pending" || status === "running" || status === "streaming") candidates.push(join(sessionsDir, id, "logs", `${name.slice(0, -5)}.log`));
    }
  }
  if (candidates.length === 0) return;
  const path = candidates[Math.floor(rnd() * candidates.length)] as string;
  const exists = await readFile(path).then(() => true, () => false);
  if (!exists) return;
  const partial = `{"seq":999999,"ts":1,"type":"plan","detail":{"marker":"torn"},"crc":"0000`.slice(0, 10 + Math.floor(rnd() * 60));
  await appendFile(path, partial);
}
