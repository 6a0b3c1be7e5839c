import { nodeStoreFs, type StoreFs } from "../../../src/store/fs.js";

/**
 * A real fs that fails chosen operations with an errno, as a full SD card or
 * a read-only remount would.
 */
export function faultyFs(inner: StoreFs = nodeStoreFs): { fs: StoreFs; failWrites(code: string | undefined): void; failCuts(fail: boolean): void } {
  let code: string | undefined;
  let cutsFail = false;
  const boom = () => Object.assign(new Error(`${code}: injected failure`), { code });
  const fs: StoreFs = {
    ...inner,
    open: async (path, flags) => {
      if (code && flags !== "r") throw boom();
      const handle = await inner.open(path, flags);
      return {
        writeFile: async (data) => {
          if (code) {
            // A full disk often takes part of a write before refusing the rest.
            const part = typeof data === "string" ? data.slice(0, Math.floor(data.length / 2)) : data.subarray(0, Math.floor(data.byteLength / 2));
            await handle.writeFile(part);
            throw boom();
          }
          await handle.writeFile(data);
        },
        sync: () => handle.sync(),
        close: () => handle.close(),
      };
    },
    mkdir: async (path) => {
      if (code) throw boom();
      await inner.mkdir(path);
    },
    rename: async (from, to) => {
      if (code) throw boom();
      await inner.rename(from, to);
    },
    truncate: async (path, length) => {
      if (cutsFail) throw Object.assign(new Error("EIO: injected failure"), { code: "EIO" });
      await inner.truncate(path, length);
    },
  };
  return {
    fs,
    failWrites(next) {
      code = next;
    },
    /** Makes truncate fail too, so a partial write cannot be cut at once. */
    failCuts(fail) {
      cutsFail = fail;
    },
  };
}
