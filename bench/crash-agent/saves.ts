import type { Store } from "../../src/store/index.js";
import { allSessions, OWNER } from "./protocol.js";

/** Every fourth turn also saves an automation, which always waits for a yes: the worker gives it. */
export const isSaveTurn = (n: number): boolean => n % 4 === 2;

/** The save a turn asks for: a new automation named after the turn, so each turn's save is its own. */
export const saveCall = (n: number, entity: string) => ({
  name: "automation_save",
  args: { config: { alias: `Crash save ${n}`, triggers: [{ trigger: "time", at: "03:00:00" }], actions: [{ action: "light.turn_on", target: { entity_id: entity } }] } },
});

/**
 * Checks the approved saves against the config POSTs Home Assistant
 * received (by path, `…/automation/config/<id>`): no save reached it twice,
 * every one that reached it was approved and has its intent journaled, and,
 * at the end, every approved save reached it exactly once.
 */
export async function checkSaves(args: { store: Store; posts: readonly string[]; final: boolean; violations: string[] }): Promise<{ saves: number }> {
  const posted = new Map<string, number>();
  for (const path of args.posts) {
    const id = decodeURIComponent(path.split("/").at(-1) ?? "");
    posted.set(id, (posted.get(id) ?? 0) + 1);
  }
  // Approved saves by config id, and whether their call's intent was journaled.
  const approved = new Map<string, { intent: boolean; turn: string }>();
  for (const s of allSessions(args.store)) {
    for (const ref of s.messages) {
      const lines = await args.store.steps.read(OWNER.id, ref.continuationId);
      const asked = new Map<string, { id: string; at: string }>();
      const intents = new Set<string>();
      for (const line of lines) {
        const d = line.detail as { id?: string; approvalId?: string; decision?: string; step?: number; index?: number; call?: { kind?: string; id?: string; name?: string } };
        if (line.type === "approval_request" && d.call?.kind === "automation_save") asked.set(d.id!, { id: d.call.id!, at: `${d.step}:${d.index}` });
        if (line.type === "tool_call" && d.call?.name === "automation_save") intents.add(`${d.step}:${d.index}`);
        if (line.type === "approval_decision" && d.decision === "approve" && asked.has(d.approvalId!)) approved.set(asked.get(d.approvalId!)!.id, { intent: false, turn: ref.continuationId });
      }
      for (const { id, at } of asked.values()) if (approved.has(id) && intents.has(at)) approved.get(id)!.intent = true;
    }
  }
  for (const [id, count] of posted) {
    if (count > 1) args.violations.push(`the save of automation ${id} reached Home Assistant ${count} times`);
    const save = approved.get(id);
    if (!save) args.violations.push(`Home Assistant received a save of automation ${id} that no one approved`);
    else if (!save.intent) args.violations.push(`Home Assistant received the save of automation ${id} (turn ${save.turn}), but its intent is not in the journal`);
  }
  if (args.final) for (const [id, save] of approved) if (posted.get(id) !== 1) args.violations.push(`the approved save of automation ${id} (turn ${save.turn}) reached Home Assistant ${posted.get(id) ?? 0} times, not once`);
  return { saves: approved.size };
}
