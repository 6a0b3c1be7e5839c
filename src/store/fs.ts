import * as fsp from "node:fs/promises";

/** The part of a FileHandle the store uses; `sync` is the fsync that makes data durable. */
export interface StoreFileHandle {
  writeFile(data: string | Uint8Array): Promise<void>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

export interface StoreStat {
  size: number;
  mtimeMs: number;
  /** The file type and permission bits, as stat(2) gives them. */
  mode: number;
  isDirectory(): boolean;
  isFile(): boolean;
  isSymbolicLink(): boolean;
}

/**
 * The subset of node:fs/promises the store needs. Injected so tests can fail
 * writes on purpose (ENOSPC, EACCES) and benchmarks can count fsyncs.
 */
export interface StoreFs {
  open(path: string, flags: "r" | "w" | "wx" | "a"): Promise<StoreFileHandle>;
  readFile(path: string): Promise<Buffer>;
  readdir(path: string): Promise<string[]>;
  mkdir(path: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  /** A hard link; fails with EEXIST when `to` exists, which makes it an atomic create of a complete file. */
  link(existing: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  rm(path: string): Promise<void>;
  truncate(path: string, length: number): Promise<void>;
  stat(path: string): Promise<StoreStat>;
  /** Like stat, but a symbolic link is reported as one and never followed. */
  lstat(path: string): Promise<StoreStat>;
  chmod(path: string, mode: number): Promise<void>;
}

/**
 * Everything under the data directory is readable by its owner alone: files
 * 0600, folders 0700. Sessions, turns and step logs hold what people asked
 * and what their home said; other users and processes on the machine have no
 * business reading them. The mode is given at creation, so no file is ever
 * looser for a moment (the umask can only narrow it further).
 */
export const OWNER_FILE_MODE = 0o600;
export const OWNER_DIR_MODE = 0o700;

export const nodeStoreFs: StoreFs = {
  // The mode only applies when the file is created; an existing one keeps its own (boot recovery tightens it).
  open: (path, flags) => fsp.open(path, flags, OWNER_FILE_MODE),
  readFile: (path) => fsp.readFile(path),
  readdir: (path) => fsp.readdir(path),
  mkdir: async (path) => {
    await fsp.mkdir(path, { recursive: true, mode: OWNER_DIR_MODE });
  },
  rename: (from, to) => fsp.rename(from, to),
  link: (existing, to) => fsp.link(existing, to),
  unlink: (path) => fsp.unlink(path),
  rm: (path) => fsp.rm(path, { recursive: true, force: true }),
  truncate: (path, length) => fsp.truncate(path, length),
  stat: (path) => fsp.stat(path),
  lstat: (path) => fsp.lstat(path),
  chmod: (path, mode) => fsp.chmod(path, mode),
};

export interface FsCounts {
  fsyncs: number;
  writes: number;
  bytesWritten: number;
  renames: number;
  /** Whole-file writes per file name, e.g. how often `session.json` was rewritten. */
  writesByName: Map<string, number>;
  /** fsyncs per name of the file or folder synced (a temp file counts under its temp name). */
  fsyncsByName: Map<string, number>;
}

/** Wraps a StoreFs and counts what reaches the disk: the SD-card wear figures. */
export function countingFs(inner: StoreFs): { fs: StoreFs; counts: FsCounts; reset(): void } {
  const counts: FsCounts = { fsyncs: 0, writes: 0, bytesWritten: 0, renames: 0, writesByName: new Map(), fsyncsByName: new Map() };
  const nameOf = (path: string) => path.slice(path.lastIndexOf("/") + 1);
  const fs: StoreFs = {
    ...inner,
    open: async (path, flags) => {
      const handle = await inner.open(path, flags);
      return {
        writeFile: async (data) => {
          counts.writes += 1;
          counts.bytesWritten += typeof data === "string" ? Buffer.byteLength(data) : data.byteLength;
          await handle.writeFile(data);
        },
        sync: async () => {
          counts.fsyncs += 1;
          counts.fsyncsByName.set(nameOf(path), (counts.fsyncsByName.get(nameOf(path)) ?? 0) + 1);
          await handle.sync();
        },
        close: () => handle.close(),
      };
    },
    rename: async (from, to) => {
      counts.renames += 1;
      const name = nameOf(to);
      counts.writesByName.set(name, (counts.writesByName.get(name) ?? 0) + 1);
      await inner.rename(from, to);
    },
  };
  const reset = () => {
    counts.fsyncs = 0;
    counts.writes = 0;
    counts.bytesWritten = 0;
    counts.renames = 0;
    counts.writesByName.clear();
    counts.fsyncsByName.clear();
  };
  return { fs, counts, reset };
}
