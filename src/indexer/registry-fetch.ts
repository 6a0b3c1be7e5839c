import type { HaClient } from "../ha/index.js";
import { describeError, dict, type Logger } from "../shared/index.js";
import type { ConfigEntryInfo, Registries } from "./model.js";

/** Ids per `get_entries` call: small enough that state changes keep flowing on the socket between slices. */
export const EXTENDED_SLICE = 2000;

/**
 * The five registry lists and the config entries, fetched in parallel. Floors,
 * labels and config entries are optional (older HA, restricted users). The
 * extended entries are not fetched here; `extended` is carried over.
 */
export async function fetchRegistries(args: { ha: HaClient; logger: Logger; extended: Registries["extended"] }): Promise<Registries> {
  const { ha, logger } = args;
  const optional = <T>(list: Promise<T[]>, without: string): Promise<T[]> =>
    list.catch((err: unknown) => {
      logger.debug({ err: describeError(err) }, without);
      return [];
    });
  const [entities, devices, areas, floors, labels, configEntries] = await Promise.all([
    ha.listEntityRegistry(),
    ha.listDeviceRegistry(),
    ha.listAreaRegistry(),
    optional(ha.listFloorRegistry(), "floor registry unavailable; searching without floors"),
    optional(ha.listLabelRegistry(), "label registry unavailable; searching without labels"),
    optional(ha.sendCommand<ConfigEntryInfo[]>({ type: "config_entries/get" }), "config entries unavailable; integrations are named by platform only"),
  ]);
  return { entities, extended: args.extended, devices, areas, floors, labels, configEntries };
}

/**
 * Aliases and device-class overrides for `ids`, from `get_entries` in slices,
 * merged over `base` (entries for `ids` are replaced, others kept). Only
 * entries that say something are kept: most entities have neither.
 */
export async function fetchExtended(args: {
  ha: HaClient;
  ids: string[];
  base: Registries["extended"];
  stopped: () => boolean;
}): Promise<Registries["extended"]> {
  const extended: Registries["extended"] = dict(args.base);
  for (const id of args.ids) delete extended[id];
  for (let i = 0; i < args.ids.length && !args.stopped(); i += EXTENDED_SLICE) {
    const slice = await args.ha.getEntityRegistryEntries(args.ids.slice(i, i + EXTENDED_SLICE));
    for (const [id, e] of Object.entries(slice)) {
      if (e && (e.aliases?.length || e.device_class)) extended[id] = { aliases: e.aliases ?? [], device_class: e.device_class, original_device_class: e.original_device_class };
    }
  }
  return extended;
}
