import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { HaClient } from "../ha/index.js";
import type { HomeIndex } from "../indexer/index.js";
import { definePersona, PersonaRegistry } from "../personas/index.js";
import { manualClock, silentLogger, type Principal } from "../shared/index.js";
import { ContentProvider } from "./content-provider.js";
import type { JournalEntry, TurnJournal } from "./journal.js";
import { composeSystem } from "./prompt.js";
import { takeOnPersona } from "./turn-persona.js";

function memoryJournal(): TurnJournal & { lines: JournalEntry[] } {
  const lines: JournalEntry[] = [];
  return { lines, append: async (e) => void lines.push({ type: e.type, detail: e.detail }), read: async () => lines };
}

const guide = (version: string, prompt: string) =>
  definePersona({ name: "guide", title: "Guide", description: "d", version, arguments: z.object({ room: z.string() }), resolve: async (args) => ({ systemPrompt: `${prompt} ${args.room}`, priming: `primed ${version}`, tools: ["state_query"] }) });

const OWNER: Principal = { id: "alice", name: "Alice", kind: "user", isAdmin: true };

describe("a turn's persona", () => {
  const personas = (registry: PersonaRegistry) => ({ registry, context: { index: {} as HomeIndex, ha: {} as HaClient, clock: manualClock(0), logger: silentLogger } });

  it("is resolved and journaled at the start, and a resume keeps the journaled one after the file changed", async () => {
    const registry = new PersonaRegistry();
    registry.register(guide("1", "Guide the user through"), { source: "/p/guide.yaml" });
    const journal = memoryJournal();
    const context = new ContentProvider();
    const first = await takeOnPersona({ choice: { name: "guide", args: { room: "the hall" } }, personas: personas(registry), journal, context, caller: OWNER });
    expect(first).toEqual({ ok: true, persona: { name: "guide", version: "1", systemPrompt: "Guide the user through the hall", tools: ["state_query"] } });
    expect(journal.lines).toEqual([{ type: "persona", detail: first.ok && first.persona }]);
    expect(context.pending("retrieval")).toEqual(["primed 1"]);
    expect(composeSystem(context)).toContain("## Your role\nGuide the user through the hall");

    registry.register(guide("2", "Something else for"), { source: "/p/guide.yaml" });
    const resumed = new ContentProvider();
    const again = await takeOnPersona({ choice: { name: "guide", args: { room: "the hall" } }, personas: personas(registry), journal, context: resumed, caller: OWNER });
    expect(again).toEqual(first);
    expect(composeSystem(resumed)).toContain("Guide the user through the hall");
    expect(journal.lines).toHaveLength(1);
  });

  it("an unknown persona or bad arguments end the turn with the persona's code", async () => {
    const registry = new PersonaRegistry();
    registry.register(guide("1", "x"));
    const ctx = { personas: personas(registry), journal: memoryJournal(), context: new ContentProvider(), caller: OWNER };
    expect(await takeOnPersona({ ...ctx, choice: { name: "nobody", args: {} } })).toMatchObject({ ok: false, error: { code: "unknown_persona" } });
    expect(await takeOnPersona({ ...ctx, choice: { name: "guide", args: {} } })).toMatchObject({ ok: false, error: { code: "invalid_argument", message: expect.stringMatching(/room/) } });
  });
});
