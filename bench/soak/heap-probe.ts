import { writeFile } from "node:fs/promises";
import type { Readable } from "node:stream";
import { WebSocket } from "ws";

/**
 * The program's heap as seen through Node's inspector, for the soak bench
 * only: the program is started with `--inspect=127.0.0.1:0`, and this asks
 * V8 for a full garbage collection and then for the heap's size. What is
 * left after a full collection is what the program still holds; RSS also
 * counts garbage not yet collected and pages V8 or malloc keep for reuse.
 */
export interface HeapProbe {
  /** Forces a full GC, then reads `process.memoryUsage()` inside the program (MB). */
  afterGc(): Promise<{ heapUsedMb: number; externalMb: number; arrayBuffersMb: number }>;
  /** Live objects by constructor after a full GC, from a heap snapshot; the snapshot is also written to `saveTo` when given. */
  objectCounts(saveTo?: string): Promise<Map<string, { count: number; selfBytes: number }>>;
  close(): void;
}

/** Resolves with the inspector's WebSocket URL from the line Node writes to stderr at start. */
export function inspectorUrl(stderr: Readable): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    const onData = (d: Buffer) => {
      text += d.toString();
      const m = /Debugger listening on (ws:\/\/\S+)/.exec(text);
      if (m) {
        stderr.off("data", onData);
        resolve(m[1]!);
      }
    };
    stderr.on("data", onData);
  });
}

interface Reply {
  id?: number;
  method?: string;
  params?: { chunk?: string };
  result?: { result?: { value?: unknown } };
  error?: { message: string };
}

export async function connectHeapProbe(url: string): Promise<HeapProbe> {
  const ws = new WebSocket(url, { perMessageDeflate: false, maxPayload: 2 ** 31 });
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  let nextId = 1;
  const pending = new Map<number, { resolve: (r: Reply) => void; reject: (e: Error) => void }>();
  let chunks: string[] | undefined;
  ws.on("message", (data) => {
    const msg = JSON.parse(String(data)) as Reply;
    if (msg.method === "HeapProfiler.addHeapSnapshotChunk") chunks?.push(msg.params!.chunk!);
    if (msg.id === undefined) return;
    const p = pending.get(msg.id);
    pending.delete(msg.id);
    if (msg.error) p?.reject(new Error(msg.error.message));
    else p?.resolve(msg);
  });
  const send = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<Reply>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      ws.send(JSON.stringify({ id, method, params }));
    });
  const mb = (n: number) => n / 1048576;
  return {
    async afterGc() {
      await send("HeapProfiler.collectGarbage");
      const r = await send("Runtime.evaluate", { expression: "JSON.stringify(process.memoryUsage())", returnByValue: true });
      const u = JSON.parse(String(r.result?.result?.value)) as NodeJS.MemoryUsage;
      return { heapUsedMb: mb(u.heapUsed), externalMb: mb(u.external), arrayBuffersMb: mb(u.arrayBuffers) };
    },
    async objectCounts(saveTo) {
      chunks = [];
      // A snapshot holds only what a full collection leaves.
      await send("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
      const text = chunks.join("");
      chunks = undefined;
      if (saveTo) await writeFile(saveTo, text);
      const snapshot = JSON.parse(text) as HeapSnapshot;
      return countByConstructor(snapshot);
    },
    close: () => ws.close(),
  };
}

interface HeapSnapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

/** Instances and their own bytes per constructor (for objects) or per node type (strings, arrays, code). */
export function countByConstructor(s: HeapSnapshot): Map<string, { count: number; selfBytes: number }> {
  const fields = s.snapshot.meta.node_fields;
  const types = s.snapshot.meta.node_types[0];
  const [typeAt, nameAt, sizeAt] = ["type", "name", "self_size"].map((f) => fields.indexOf(f)) as [number, number, number];
  const out = new Map<string, { count: number; selfBytes: number }>();
  for (let i = 0; i < s.nodes.length; i += fields.length) {
    const type = types[s.nodes[i + typeAt]!]!;
    const key = type === "object" || type === "closure" ? `${type === "closure" ? "ƒ " : ""}${s.strings[s.nodes[i + nameAt]!]}` : `(${type})`;
    const e = out.get(key) ?? { count: 0, selfBytes: 0 };
    e.count++;
    e.selfBytes += s.nodes[i + sizeAt]!;
    out.set(key, e);
  }
  return out;
}
