import * as fsp from "node:fs/promises";
import { join } from "node:path";
import type { Logger } from "../../shared/index.js";
import { ownerOnlyFs, writeJsonAtomic } from "../../store/index.js";
import { GRANTS_FORMAT_VERSION, GrantsFileSchema, type Grant } from "./schema.js";

const FILE_NAME = "grants.json";

/** `<dataDir>/oauth`, owner-only: the file in it holds Home Assistant refresh tokens. */
export function grantsDir(dataDir: string): string {
  return join(dataDir, "oauth");
}

/**
 * Makes the folder (0700, also when it already existed looser), removes temp
 * files a crash left behind, and reads the grants. A file that cannot be
 * used is moved aside and the store starts empty: losing sign-ins only makes
 * clients sign in again, while refusing to start would take the add-on down.
 */
export async function loadGrants(options: { dir: string; now: number; logger: Logger }): Promise<Grant[]> {
  const { dir, logger } = options;
  await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
  await fsp.chmod(dir, 0o700);
  // Temp files live beside the file (same folder, same mode), so they are cleared here rather than by the store's boot.
  for (const name of await fsp.readdir(dir)) {
    if (name.startsWith(`${FILE_NAME}.`) && name.endsWith(".tmp")) await fsp.unlink(join(dir, name)).catch(() => undefined);
  }
  const path = join(dir, FILE_NAME);
  let text: string;
  try {
    text = await fsp.readFile(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
  await fsp.chmod(path, 0o600);
  const parsed = parseGrantsFile(text);
  if (parsed.ok) return parsed.grants;
  const { problem } = parsed;
  const aside = `${FILE_NAME}.damaged-${new Date(options.now).toISOString().replace(/[:.]/g, "-")}`;
  await fsp.rename(path, join(dir, aside));
  logger.warn(
    { file: `oauth/${FILE_NAME}`, movedTo: `oauth/${aside}`, problem },
    `oauth/${FILE_NAME} cannot be used (${problem}); it was moved to oauth/${aside} and the sign-ins start empty: every MCP client that signed in through OAuth must sign in again`,
  );
  return [];
}

/** The grants, or why the text is not a grants file. The problem never quotes the text: it holds secrets. */
function parseGrantsFile(text: string): { ok: true; grants: Grant[] } | { ok: false; problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: "not valid JSON" };
  }
  const version = (value as { formatVersion?: unknown } | null)?.formatVersion;
  if (version !== GRANTS_FORMAT_VERSION) {
    const found = typeof version === "number" ? `format version ${version}` : "no format version";
    return { ok: false, problem: `${found}, expected ${GRANTS_FORMAT_VERSION}` };
  }
  const result = GrantsFileSchema.safeParse(value);
  if (result.success) return { ok: true, grants: result.data.grants };
  const issue = result.error.issues[0];
  return { ok: false, problem: `${issue?.path.map(String).join(".") || "file"}: ${issue?.message ?? "invalid"}` };
}

/** Writes every grant, crash-safe (temp file, fsync, rename, fsync the folder), as a 0600 file. */
export async function saveGrants(options: { dir: string; grants: Grant[] }): Promise<void> {
  await writeJsonAtomic({
    fs: ownerOnlyFs,
    tmpDir: options.dir,
    path: join(options.dir, FILE_NAME),
    value: { formatVersion: GRANTS_FORMAT_VERSION, grants: options.grants },
  });
}
