/**
 * How the agent crash test names its turns and the actions they take. Every
 * turn's number must be unique across all runs: the fake model derives the
 * turn's action from it, so two turns with one number would take one action
 * twice and look like a repeated action. A worker can send more than a
 * hundred turns before its kill on a quiet machine, so runs are far apart.
 */

/** Turns one worker run may send; far more than fit in its life before the kill. */
export const TURNS_PER_RUN = 100_000;

/** The number of run `run`'s `k`-th turn (k from 0). */
export function turnNumberFor(run: number, k: number): number {
  if (!Number.isInteger(k) || k < 0 || k >= TURNS_PER_RUN) throw new RangeError(`turn ${k} of run ${run} is outside 0..${TURNS_PER_RUN - 1}; numbers would collide with the next run's`);
  return run * TURNS_PER_RUN + k;
}

/** "crash turn 1203" → 1203. */
export function turnNumber(message: string): number | undefined {
  const m = /crash turn (\d+)/.exec(message);
  return m ? Number(m[1]) : undefined;
}

export interface LightAction {
  entity: string;
  brightness: number;
}

/**
 * Gives each turn number its own light action (entity and brightness), in the
 * order numbers are first seen, so that distinct turns never share an action.
 * The same number always gets the same action, which is what lets a repeated
 * turn show up as an action seen twice.
 */
export function createActionBook(lights: readonly string[]) {
  const indexOf = new Map<number, number>();
  const turnOf = new Map<string, number>();
  const keyOf = (a: LightAction) => `${a.entity} ${a.brightness}`;
  const capacity = lights.length * 254;
  return {
    actionOf(n: number): LightAction {
      let i = indexOf.get(n);
      if (i === undefined) {
        i = indexOf.size;
        if (i >= capacity) throw new RangeError(`more than ${capacity} turns: the house's ${lights.length} lights cannot give each a distinct action`);
        indexOf.set(n, i);
      }
      const action = { entity: lights[i % lights.length]!, brightness: 1 + (Math.floor(i / lights.length) % 254) };
      turnOf.set(keyOf(action), n);
      return action;
    },
    /** The turn whose action this is ("light.x 23"), if any turn was given it. */
    turnOf: (key: string): number | undefined => turnOf.get(key),
    keyOf,
  };
}
