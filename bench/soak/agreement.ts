import type { Client } from "@modelcontextprotocol/client";
import type { Simulator } from "@ha-agent/ha-simulator";

/**
 * The entities whose answers are compared with HA after a restart. While HA
 * is down some of them change state, some are removed and new ones are
 * added, so an index that kept its picture from before the restart
 * disagrees. The steady changes of the run never touch them, so a
 * disagreement is the index's and not a race with the load.
 */
export interface AgreementSample {
  changed: string[];
  removed: string[];
  unchanged: string[];
}

export interface Check {
  agree: number;
  total: number;
  /** The answer said stale (HA away, or the index catching up). */
  stale: boolean;
  /** Why, when stale: `ha_unreachable` or `catching_up`. */
  reason?: string;
  /** The first few disagreements, as `id: answered ≠ HA's`. */
  wrong: string[];
}

/** What HA changes while it is down for restart number `round`: the sample's entities change, go, and come back new. */
export function whileDown(sim: Simulator, sample: AgreementSample, round: number): string[] {
  const home = sim.home;
  for (const id of sample.changed) home.setState(id, `soak-${round}`);
  const added: string[] = [];
  for (const id of sample.removed) {
    const old = home.getState(id);
    if (old) home.removeEntity(id);
    // Back under a new id, as an integration renamed after an update does.
    const fresh = `${id}_r${round}`;
    home.addEntity({ entity_id: fresh, state: `new-${round}`, attributes: old?.attributes ?? {} });
    added.push(fresh);
  }
  return added;
}

/** Compares the program's state_query for `ids` with the simulator's states now. */
export async function compare(client: Client, sim: Simulator, ids: string[]): Promise<Check> {
  const result = await client.callTool({ name: "ha_agent_state_query", arguments: { entity_ids: ids, limit: 1000 } });
  const value = result.structuredContent as { stale?: true; stale_reason?: string; entities: { entity_id: string; state: string | null }[]; missing: string[] };
  const answered = new Map(value.entities.map((e) => [e.entity_id, e.state]));
  let agree = 0;
  const wrong: string[] = [];
  for (const id of ids) {
    const ha = sim.home.getState(id)?.state;
    // Gone from HA: the program must not name it with a state.
    if (ha === undefined ? (answered.get(id) ?? null) === null : answered.get(id) === ha) agree++;
    else if (wrong.length < 3) wrong.push(`${id}: ${String(answered.get(id))} ≠ ${String(ha)}`);
  }
  return { agree, total: ids.length, stale: value.stale === true, ...(value.stale_reason ? { reason: value.stale_reason } : {}), wrong };
}
