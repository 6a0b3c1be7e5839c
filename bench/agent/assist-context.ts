import { stringify } from "yaml";
import { exposedByDefault } from "../../src/agent/index.js";
import type { IndexedEntity } from "../../src/indexer/index.js";

/**
 * The static context Home Assistant's Assist API puts in every prompt
 * (helpers/llm.py, `_get_exposed_entities` with include_state=False): one
 * YAML item per exposed entity with its names, domain and areas, sorted by
 * name, scripts and calendars left out. Area aliases are not in our index,
 * so this slightly understates HA's size, which makes our ratio stricter.
 */
export function assistStaticContext(entities: readonly IndexedEntity[]): string {
  const exposed = entities.filter((e) => e.state && exposedByDefault(e) && e.domain !== "script" && e.domain !== "calendar");
  exposed.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const items = exposed.map((e) => ({ names: [e.name, ...e.aliases].join(", "), domain: e.domain, ...(e.areaName ? { areas: e.areaName } : {}) }));
  return `Static Context: An overview of the areas and the devices in this smart home:\n${stringify(items)}`;
}
