import type { ContinuationRecord } from "./continuation-schema.js";
import { isOpenStatus, type MessageRef, type SessionMemory, type SessionRecord } from "./session-schema.js";
import { addUsage } from "./stats.js";

function refOf(record: ContinuationRecord): MessageRef {
  return { continuationId: record.id, status: record.status, createdAt: record.createdAt, updatedAt: record.updatedAt, preview: record.request.message.slice(0, 80) };
}

/**
 * A session as boot recovery rebuilds it from its turns: references, lost
 * finishes and idempotency keys. Every change marks it for rewriting.
 */
export class SessionDraft {
  changed = false;
  /** A memory was restored from a final line: it must reach disk, or be held until it can. */
  memoryRedone = false;
  /** What session.json said, before any change. */
  readonly disk: { open: Set<string>; updatedAt: number };
  private readonly lostFinishes: Array<{ record: ContinuationRecord; memory: SessionMemory | undefined }> = [];
  private readonly adoptedKeys: Array<{ key: string; continuationId: string }> = [];

  constructor(public session: SessionRecord) {
    this.disk = { open: new Set(session.openContinuations), updatedAt: session.updatedAt };
  }

  private change(next: SessionRecord): void {
    this.session = next;
    this.changed = true;
  }

  /** Forgets a turn that is gone: its reference, open entry and key. */
  dropRef(contId: string): void {
    const s = this.session;
    this.change({
      ...s,
      openContinuations: s.openContinuations.filter((id) => id !== contId),
      messages: s.messages.filter((m) => m.continuationId !== contId),
      idempotencyKeys: s.idempotencyKeys.filter((k) => k.continuationId !== contId),
    });
  }

  /**
   * Lists the turn as it stands now, keeping the preview already shown. A
   * turn still open after recovery (one that waits for a person) is listed
   * open too, even when session.json never learnt of it: the next boot reads
   * only the turns listed open, and would otherwise leave it waiting where
   * no answer can be journaled.
   */
  setRef(record: ContinuationRecord): void {
    const s = this.session;
    const ref = refOf(record);
    const has = s.messages.some((m) => m.continuationId === record.id);
    const messages = has ? s.messages.map((m) => (m.continuationId === record.id ? { ...ref, preview: m.preview } : m)) : [...s.messages, ref];
    const listedOpen = s.openContinuations.includes(record.id);
    const open = isOpenStatus(record.status);
    const openContinuations = open === listedOpen ? s.openContinuations : open ? [...s.openContinuations, record.id] : s.openContinuations.filter((id) => id !== record.id);
    this.change({ ...s, messages, openContinuations });
  }

  /** A finish whose session.json write was lost; redone by `settle`. */
  addLostFinish(record: ContinuationRecord, memory: SessionMemory | undefined): void {
    this.lostFinishes.push({ record, memory });
  }

  /** A turn session.json did not list brings its idempotency key back; `settle` decides who keeps it. */
  adoptKey(key: string, continuationId: string): void {
    this.adoptedKeys.push({ key, continuationId });
  }

  /** After every turn was read: redoes lost finishes, then puts the keys right. Returns the listed turns. */
  settle(): Set<string> {
    if (this.lostFinishes.length > 0) this.redoFinishes();
    // Keys must point at continuations the session still lists.
    const listed = new Set(this.session.messages.map((m) => m.continuationId));
    if (this.session.idempotencyKeys.some((k) => !listed.has(k.continuationId))) {
      this.change({ ...this.session, idempotencyKeys: this.session.idempotencyKeys.filter((k) => listed.has(k.continuationId)) });
    }
    // When an adopted key leads to another turn too, the later turn wins: create gives a used key to
    // a new turn only when the first one can no longer be read, and ULIDs sort by creation time.
    for (const entry of this.adoptedKeys.sort((a, b) => (a.continuationId < b.continuationId ? -1 : 1))) {
      const other = this.session.idempotencyKeys.find((k) => k.key === entry.key);
      if (listed.has(entry.continuationId) && (!other || other.continuationId < entry.continuationId)) {
        this.change({ ...this.session, idempotencyKeys: [...this.session.idempotencyKeys.filter((k) => k.key !== entry.key), entry] });
      }
    }
    return listed;
  }

  /**
   * The record to write back. Every lost session.json write was a finish (all other writes fsync
   * the folder) and each is redone, so this version is above any the callers were shown before
   * the power cut.
   */
  final(now: number): SessionRecord {
    return { ...this.session, version: this.session.version + 1 + this.lostFinishes.length, updatedAt: now };
  }

  private redoFinishes(): void {
    const s = this.session;
    let stats = s.stats;
    for (const { record } of this.lostFinishes) stats = addUsage(stats, record.usage);
    const withMemory = this.lostFinishes
      .filter((f) => f.memory !== undefined)
      .sort((a, b) => a.record.updatedAt - b.record.updatedAt || (a.record.id < b.record.id ? -1 : 1));
    const memory = withMemory.at(-1)?.memory;
    const lastActivityAt = Math.max(s.lastActivityAt, ...this.lostFinishes.map((f) => f.record.updatedAt));
    this.change({ ...s, stats, lastActivityAt, ...(memory ? { memory } : {}) });
    this.memoryRedone ||= memory !== undefined;
  }
}
