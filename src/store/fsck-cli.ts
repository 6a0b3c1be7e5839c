import { readFile, stat } from "node:fs/promises";
import { describeError } from "../shared/index.js";
import { DataDirInUseError } from "./data-lock.js";
import { FORMAT_TOO_NEW_EXIT_CODE, FormatTooNewError } from "./format-too-new.js";
import { runFsck } from "./fsck.js";

const USAGE = "usage: npm run fsck -- --data DIR [--repair]";

const HELP = `${USAGE}

Checks an HA Agent data directory and explains what is wrong: damaged or
torn files, unfinished turns, leftovers of interrupted writes. Stop HA Agent
first: fsck holds the data directory's lock while it runs, and refuses to run
while HA Agent holds it.

Options:
  --data DIR   the data directory (the add-on's /data, or DATA_DIR)
  --repair     apply the fixes boot recovery would apply, then check again
  -h, --help   show this help

Exit codes: 0 clean (or clean after --repair), 1 problems found (or left), 2 bad usage,
3 HA Agent is running on this data directory, 4 the data was written by a newer
HA Agent (nothing is checked or changed).
The storage format is described in docs/storage.md.
Example: npm run fsck -- --data ./data --repair`;

/** Exit codes: 0 clean (or clean after --repair), 1 problems found (or left), 2 bad usage, 3 data directory in use, 4 data of a newer HA Agent. */
async function main(argv: string[]): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    console.log(HELP);
    return 0;
  }
  const dataIndex = argv.indexOf("--data");
  const dataDir = dataIndex === -1 ? undefined : argv[dataIndex + 1];
  const unknown = argv.filter((a, i) => a.startsWith("--") && a !== "--data" && a !== "--repair" && (dataIndex === -1 || i !== dataIndex + 1));
  if (!dataDir || dataDir.startsWith("--") || unknown.length > 0) {
    console.error(`${unknown.length ? `unknown option ${unknown[0]}` : "--data DIR is required"}\n${USAGE}\nRun with --help for more.`);
    return 2;
  }
  const isDir = await stat(dataDir).then((s) => s.isDirectory(), () => false);
  if (!isDir) {
    console.error(`${dataDir} is not a directory. Pass the add-on's data directory, e.g. --data /data.\n${USAGE}`);
    return 2;
  }
  const repair = argv.includes("--repair");
  const { report, findings } = await runFsck({ dataDir, repair, ...(await packageVersion()) });
  console.log(`Checked ${dataDir}: ${report.sessions} sessions, ${report.continuations} continuations, in ${report.durationMs} ms.`);
  if (findings.length === 0) {
    console.log("No problems found.");
    return 0;
  }
  console.log(`${findings.length} finding(s):`);
  for (const f of findings) console.log(`  - ${f}`);
  for (const q of report.quarantined.filter((q) => q.movedTo)) console.log(`  quarantined: ${q.path} -> ${q.movedTo}`);
  if (!repair) {
    console.log("Run again with --repair to fix what can be fixed.");
    return 1;
  }
  const after = await runFsck({ dataDir, repair: false });
  if (after.findings.length === 0) {
    console.log("Repaired. A second check found nothing left to fix.");
    return 0;
  }
  console.log(`${after.findings.length} finding(s) need a person:`);
  for (const f of after.findings) console.log(`  - ${f}`);
  return 1;
}

/** The version in package.json (beside dist/ in the image and in a clone), recorded in format.json when --repair migrates. */
async function packageVersion(): Promise<{ appVersion?: string }> {
  try {
    const { version } = JSON.parse(await readFile(new URL("../../package.json", import.meta.url), "utf8")) as { version?: unknown };
    return typeof version === "string" ? { appVersion: version } : {};
  } catch {
    return {};
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof DataDirInUseError) {
      console.error(`fsck did not run: ${err.message}`);
      process.exit(3);
    }
    if (err instanceof FormatTooNewError) {
      console.error(`fsck did not run: ${err.message}`);
      process.exit(FORMAT_TOO_NEW_EXIT_CODE);
    }
    console.error(`fsck could not finish: ${describeError(err)}`);
    process.exit(1);
  },
);
