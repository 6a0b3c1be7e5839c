import type { HassState } from "./common/index.js";
import { AutomationEngine, type AutomationHost, type ServiceFailure } from "./automations/index.js";
import { CommandError } from "./command-error.js";
import { historyOf } from "./history/index.js";
import type { HomeModel } from "./home.js";
import { hexId } from "./random.js";
import { callService, serviceExists } from "./services/index.js";
import { isoTime } from "./time.js";

/**
 * What a failing service call says inside a run. A missing service is HA's
 * ServiceNotFound, whose text is "Action <domain>.<service> not found."
 * (`homeassistant/strings.json`); `call_service` words it differently for its
 * own error, so the trace shows the exception's text, not the command's.
 */
function failure(err: unknown, domain: string, service: string): ServiceFailure {
  if (err instanceof CommandError && err.code === "not_found") return { message: `Action ${domain}.${service} not found.` };
  if (err instanceof CommandError) return { message: err.message.replace(/^Validation error: /, "") };
  throw err;
}

/** The home as the automation engine sees it. */
function hostFor(home: HomeModel): AutomationHost {
  return {
    house: home.house,
    now: () => home.now(),
    getState: (id) => home.getState(id),
    stateAt: (id, ms) => stateAt(home, id, ms),
    setState: (id, state, attributes, context) => void home.applyState(id, state, attributes, context),
    newContext: (userId, parentId) => home.newContext(userId ?? null, parentId ?? null),
    fireEvent: (type, data, context) => home.fireEvent(type, data, context),
    callService: ({ domain, service, data, target, context }) => {
      try {
        callService(home, { domain, service, serviceData: data, target, userId: null, context });
        return undefined;
      } catch (err) {
        return failure(err, domain, service);
      }
    },
    checkService: (domain, service) => (serviceExists(home, domain, service) ? undefined : { message: `Action ${domain}.${service} not found.` }),
    registeredEntityId: (platform, uniqueId) => {
      for (const e of home.registries.entities.values()) if (e.platform === platform && e.unique_id === uniqueId) return e.entity_id;
      return undefined;
    },
    knows: (id) => home.knows(id),
    addEntity: (e) => home.addEntity(e),
    register: (id, platform, uniqueId, originalName) => home.registerEntity(id, { platform, unique_id: uniqueId, original_name: originalName }),
    unload: (id) => home.unloadEntity(id),
    removeEntity: (id) => home.removeEntity(id),
  };
}

/** The recorded state at `ms`, as a state object (the latest change at or before it). */
function stateAt(home: HomeModel, entityId: string, ms: number): HassState | undefined {
  let found;
  for (const p of historyOf(home).series(entityId)) {
    if (p.updatedMs > ms) break;
    found = p;
  }
  if (!found) return undefined;
  return {
    entity_id: entityId,
    state: found.state,
    attributes: found.attributes,
    last_changed: isoTime(found.changedMs),
    last_reported: isoTime(found.updatedMs),
    last_updated: isoTime(found.updatedMs),
    context: found.context ?? { id: hexId(`ctx:${entityId}:${found.updatedMs}`, 26).toUpperCase(), parent_id: null, user_id: null },
  };
}

/** Sets up automations and scripts in a home: the engine hears every state change and event, and replays the house's past runs. */
export function startAutomations(home: HomeModel): AutomationEngine {
  const engine = new AutomationEngine(hostFor(home), {
    listen: (type, listener) => home.bus.listen(type, (ev) => listener({ eventType: ev.eventType, data: ev.data, context: ev.context, timeFiredMs: ev.timeFiredMs })),
  });
  home.automations = engine;
  engine.start();
  return engine;
}
