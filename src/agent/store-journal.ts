import type { Store } from "../store/index.js";
import type { JournalEntry, TurnJournal } from "./journal.js";

/**
 * A continuation's step log in the store. Details too big to keep inline
 * were moved to artifacts by the store; reading puts them back, so replay
 * sees every model turn and tool result whole.
 */
export function storeJournal(store: Store, owner: string, continuationId: string): TurnJournal {
  return {
    async append(entry, options) {
      await store.steps.append(owner, continuationId, entry, options);
    },
    async read() {
      const lines = await store.steps.read(owner, continuationId);
      const out: JournalEntry[] = [];
      for (const line of lines) {
        const moved = line.artifact && (line.detail as { movedToArtifact?: unknown } | null)?.movedToArtifact === true;
        if (!moved) {
          out.push({ type: line.type, detail: line.detail });
          continue;
        }
        const artifact = await store.artifacts.get(owner, line.artifact!.id);
        // A lost artifact leaves the line unreadable; the reader skips it like any line it cannot parse.
        out.push({ type: line.type, detail: artifact ? safeJson(artifact.content.toString("utf8")) : undefined });
      }
      return out;
    },
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
