import type { Clock } from "../../shared/index.js";
import type { UserDirectory } from "./viewer.js";

interface HaUserEntry {
  id: string;
  name: string | null;
  group_ids?: string[];
}

/** How long HA's answer is used before it is asked again. */
const TTL_MS = 60_000;

/**
 * HA's user list (`config/auth/list`, an admin command the add-on's own
 * connection may send), cached for a minute. When HA cannot answer, nobody
 * counts as an admin: the console then shows each person only their own.
 */
export function createUserDirectory(options: { command: <T>(message: { type: string }) => Promise<T>; clock: Clock }): UserDirectory {
  let cached: { at: number; users: Map<string, { name: string; isAdmin: boolean }> } | undefined;
  let asking: Promise<Map<string, { name: string; isAdmin: boolean }>> | undefined;
  const load = async () => {
    const list = await options.command<HaUserEntry[]>({ type: "config/auth/list" }).catch(() => [] as HaUserEntry[]);
    const users = new Map(list.map((u) => [u.id, { name: u.name ?? u.id, isAdmin: (u.group_ids ?? []).includes("system-admin") }]));
    cached = { at: options.clock.now(), users };
    return users;
  };
  return {
    async lookup(userId) {
      const fresh = cached && options.clock.now() - cached.at < TTL_MS ? cached.users : undefined;
      // Concurrent page loads share one question to HA.
      const users = fresh ?? (await (asking ??= load().finally(() => (asking = undefined))));
      return users.get(userId);
    },
  };
}
