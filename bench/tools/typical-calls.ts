/**
 * One typical call per tool, on the demo house, keyed by wire name. A tool
 * that is not registered is skipped, so a tool gets measured as soon as it is
 * served and has an entry here. An entry may read what earlier calls
 * answered (a trace needs a run id from the automation's runs); undefined
 * skips it.
 */
export type TypicalArgs = Record<string, unknown> | ((earlier: ReadonlyMap<string, Record<string, unknown>>) => Record<string, unknown> | undefined);

export const TYPICAL_CALLS = new Map<string, TypicalArgs>([
  // Reading the present.
  ["ha_agent_index_search", { query: "kitchen lights", limit: 10 }],
  ["ha_agent_state_query", { area: "kitchen" }],
  ["ha_agent_diagnose_entity", { entity_id: "switch.garden_fountain_pump" }],
  ["ha_agent_analyze_errors", {}],
  ["ha_agent_render_context", { area: "living_room" }],
  // Time: a day of a light and a sensor, a week of two meters by day, this week's energy, a template.
  ["ha_agent_history", { entity_ids: ["light.hallway_ceiling", "sensor.kitchen_temperature"], start: "-24h" }],
  ["ha_agent_statistics", { entity_ids: ["sensor.heat_pump_energy", "sensor.kitchen_temperature"], start: "-7d", period: "day" }],
  ["ha_agent_energy", { start: "today", period: "week" }],
  ["ha_agent_render_template", { template: "{{ states.light | selectattr('state', 'eq', 'on') | list | count }} lights are on" }],
  // Logic: the automation that stopped at its condition last night, its latest run, and a draft to check.
  ["ha_agent_automation_inspect", { automation: "automation.hall_light_at_night" }],
  [
    "ha_agent_trace",
    (earlier) => {
      const runs = earlier.get("ha_agent_automation_inspect")?.runs as { run_id?: string }[] | undefined;
      return runs?.[0]?.run_id ? { automation: "automation.hall_light_at_night", run_id: runs[0].run_id } : undefined;
    },
  ],
  [
    "ha_agent_automation_check",
    {
      config: {
        alias: "Porch light at dusk",
        triggers: [{ trigger: "sun", event: "sunset" }],
        conditions: [],
        actions: [{ action: "light.turn_on", target: { entity_id: "light.porch_light" } }],
      },
    },
  ],
]);
