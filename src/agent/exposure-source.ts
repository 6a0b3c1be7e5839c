import type { HaClient } from "../ha/index.js";
import type { IndexedEntity } from "../indexer/index.js";
import type { Clock, Logger } from "../shared/index.js";
import { describeError } from "../shared/index.js";
import { isExposedToAssist, type AssistExposure } from "./exposure.js";

export interface ExposureSource {
  /** Whether the agent may see the entity; everything is visible while HA's settings are unknown. */
  visible(e: IndexedEntity): boolean;
  /** Reads HA's settings again when the last read is older than the cache time. */
  refresh(): Promise<void>;
  readonly status: "follows_assist" | "unavailable" | "not_read";
}

/**
 * Home Assistant's Assist exposure, read with `homeassistant/expose_entity/list`
 * and `expose_new_entities/get`. Both need an admin: the add-on's Supervisor
 * token is one; a standalone token of a non-admin user is not, and then the
 * agent sees every entity and says so once in the log.
 */
export function createExposureSource(deps: { ha: Pick<HaClient, "listExposedEntities" | "getExposeNewEntities">; clock: Clock; logger: Logger; ttlMs?: number }): ExposureSource {
  const ttlMs = deps.ttlMs ?? 60_000;
  let exposure: AssistExposure | undefined;
  let readAt = -Infinity;
  let status: ExposureSource["status"] = "not_read";
  let warned = false;
  return {
    get status() {
      return status;
    },
    visible: (e) => (exposure ? isExposedToAssist(exposure, e) : true),
    async refresh() {
      if (deps.clock.now() - readAt < ttlMs) return;
      readAt = deps.clock.now();
      try {
        const [list, settings] = await Promise.all([deps.ha.listExposedEntities(), deps.ha.getExposeNewEntities("conversation")]);
        const explicit = new Map<string, boolean>();
        for (const [id, assistants] of Object.entries(list.exposed_entities)) {
          const setting = Object.hasOwn(assistants, "conversation") ? assistants.conversation : undefined;
          if (typeof setting === "boolean") explicit.set(id, setting);
        }
        exposure = { explicit, exposeNew: settings.expose_new === true };
        status = "follows_assist";
      } catch (err) {
        exposure = undefined;
        status = "unavailable";
        if (!warned) {
          warned = true;
          deps.logger.info({ err: describeError(err) }, "Home Assistant's Assist exposure settings could not be read (they need an admin token); the agent sees every entity");
        }
      }
    },
  };
}
