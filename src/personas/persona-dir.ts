import { watch as fsWatch, type FSWatcher } from "node:fs";
import { mkdir, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Logger } from "../shared/index.js";
import { describeError, HaAgentError } from "../shared/index.js";

const errnoOf = (err: unknown): string | undefined => (err as NodeJS.ErrnoException | undefined)?.code;
import type { PersonaRegistry } from "./registry.js";
import { describeProblem, parsePersonaFile, type PersonaFileProblem } from "./user-file.js";

export interface PersonaDir {
  /** Resolves once the folder has been read the first time. */
  ready: Promise<void>;
  /** Files that could not become personas, as of the last read. */
  problems(): PersonaFileProblem[];
  close(): void;
}

/** How long file events are collected before the folder is read again: an editor's save is several events. */
const DEBOUNCE_MS = 250;

const isPersonaFile = (name: string) => /\.ya?ml$/i.test(name) && !name.startsWith(".");

/**
 * User personas from a folder of YAML files, kept in step with it: the
 * folder is read at start and again shortly after any change, without a
 * restart. A bad file is reported (logged, and in `problems()`) and left
 * out; it never stops the program and never hides the other personas.
 */
export function watchPersonaDir(args: { dir: string; registry: PersonaRegistry; logger: Logger; debounceMs?: number }): PersonaDir {
  const { dir, registry, logger } = args;
  const loaded = new Set<string>();
  let problems: PersonaFileProblem[] = [];
  let watcher: FSWatcher | undefined;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  // One read at a time; a change during a read asks for one more.
  let reading: Promise<void> = Promise.resolve();
  let again = false;

  async function read(): Promise<void> {
    const found: PersonaFileProblem[] = [];
    const loadedNames: string[] = [];
    const unreadable = (file: string, err: unknown) => found.push({ file, line: undefined, field: undefined, message: `cannot be read (${describeError(err)}); check its permissions` });
    // A folder that is not there holds no personas; one that cannot be read is a problem to show.
    const listed = await readdir(dir).catch((err: unknown) => (errnoOf(err) === "ENOENT" ? [] : (unreadable(dir, err), [])));
    const files = await Promise.all(
      listed.filter(isPersonaFile).sort().map(async (name) => {
        const path = join(dir, name);
        const text = await readFile(path, "utf8").catch((err: unknown) => {
          // Removed between the listing and the read: the next event reads again.
          if (errnoOf(err) !== "ENOENT") unreadable(path, err);
          return undefined;
        });
        return { path, text };
      }),
    );
    if (closed) return;
    registry.batch(() => {
      for (const source of loaded) registry.unregisterSource(source);
      loaded.clear();
      for (const { path, text } of files) {
        if (text === undefined) continue;
        const parsed = parsePersonaFile(path, text);
        if (!parsed.ok) {
          found.push(parsed.problem);
          continue;
        }
        try {
          registry.register(parsed.spec, { source: path, ...(parsed.replaces ? { replaces: parsed.replaces } : {}) });
          loaded.add(path);
          loadedNames.push(parsed.spec.name);
        } catch (err) {
          if (!(err instanceof HaAgentError)) throw err;
          found.push({ file: path, line: undefined, field: "name", message: err.message });
        }
      }
    });
    const before = new Set(problems.map(describeProblem));
    problems = found;
    for (const p of found) if (!before.has(describeProblem(p))) logger.warn({ file: p.file, line: p.line, field: p.field }, `persona file left out: ${describeProblem(p)}`);
    logger.info({ dir, personas: loadedNames, problems: found.length }, `${loadedNames.length} user persona${loadedNames.length === 1 ? "" : "s"} loaded from ${dir}`);
  }

  function schedule(): void {
    if (closed) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      again = true;
      reading = reading.then(async () => {
        if (!again) return;
        again = false;
        await read().catch((err: unknown) => logger.warn({ err: describeError(err) }, `the personas folder ${dir} could not be read`));
      });
    }, args.debounceMs ?? DEBOUNCE_MS);
  }

  const ready = (async () => {
    try {
      await mkdir(dir, { recursive: true });
      watcher = fsWatch(dir, { persistent: false }, schedule);
      watcher.on("error", (err) => logger.warn({ err: describeError(err) }, `stopped watching the personas folder ${dir}; restart to pick up changes`));
    } catch (err) {
      problems = [{ file: dir, line: undefined, field: undefined, message: `the personas folder cannot be used: ${describeError(err)}` }];
      logger.warn({ dir, err: describeError(err) }, `the personas folder ${dir} cannot be used; only the built-in personas are offered`);
      return;
    }
    reading = read().catch((err: unknown) => logger.warn({ err: describeError(err) }, `the personas folder ${dir} could not be read`));
    await reading;
  })();

  return {
    ready,
    problems: () => [...problems],
    close() {
      closed = true;
      clearTimeout(timer);
      watcher?.close();
    },
  };
}
