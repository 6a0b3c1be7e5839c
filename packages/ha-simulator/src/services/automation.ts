import { dict, own } from "../common/index.js";
import { isoTime } from "../time.js";
import { each, numberField, onOffServices, stateOf, stringField, update, validationError, attr, type ServiceCall, type ServiceTable } from "./service.js";

/** Scenes, scripts, automations and helper entities. */

const nowIso = (c: ServiceCall) => isoTime(c.home.now());

/** Applies a scene's member states through the members' own services, as HA's reproduce_state does. */
function activateScene(c: ServiceCall, sceneId: string): void {
  const members = c.home.definitions.get(sceneId)?.scene ?? {};
  for (const [entityId, spec] of Object.entries(members)) {
    const { state, ...attrs } = spec as { state?: string } & Record<string, unknown>;
    const domain = entityId.slice(0, entityId.indexOf("."));
    const target = { entity_id: entityId };
    if (domain === "light") c.call("light", state === "off" ? "turn_off" : "turn_on", state === "off" ? {} : pick(attrs, ["brightness", "color_temp_kelvin", "rgb_color"]), target);
    else if (domain === "cover" && typeof attrs.current_position === "number") c.call("cover", "set_cover_position", { position: attrs.current_position }, target);
    else if ((domain === "switch" || domain === "fan" || domain === "input_boolean") && (state === "on" || state === "off")) c.call(domain, `turn_${state}`, {}, target);
    else update(c, entityId, state, attrs);
  }
  update(c, sceneId, nowIso(c));
}

/** Runs a script's sequence in order; the script is "on" while it runs. The automation engine runs it with a trace when it has it. */
function runScript(c: ServiceCall, scriptId: string): void {
  const variables = typeof c.data.variables === "object" && c.data.variables !== null ? (c.data.variables as Record<string, unknown>) : {};
  if (c.home.automations?.runScript(scriptId, variables, c.context)) return;
  const def = c.home.definitions.get(scriptId);
  if (!def) return;
  update(c, scriptId, "on", { last_triggered: nowIso(c), current: 1 });
  for (const step of def.sequence ?? []) {
    const [domain, service] = step.action.split(".") as [string, string];
    c.call(domain, service, { ...(step.data ?? {}) }, step.target);
  }
  update(c, scriptId, "off", { current: 0 });
}

function pick(o: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => own(o, k) !== undefined).map((k) => [k, o[k]]));
}

function setOption(c: ServiceCall, id: string): void {
  const option = stringField(c.data, "option", true)!;
  const options = (attr(c, id, "options") as string[] | undefined) ?? [];
  if (!options.includes(option)) throw validationError(`Option ${option} is not valid for entity ${id}, valid options are: ${options.join(", ")}`);
  update(c, id, option);
}

function setNumber(c: ServiceCall, id: string): void {
  const min = Number(attr(c, id, "min") ?? 0);
  const max = Number(attr(c, id, "max") ?? 100);
  const value = numberField(c.data, "value", -1e9, 1e9, true)!;
  if (value < min || value > max) throw validationError(`Value ${value} for ${id} is outside valid range ${min} - ${max}`);
  update(c, id, String(value));
}

const counterStep = (c: ServiceCall, id: string, sign: number) => {
  const step = Number(attr(c, id, "step") ?? 1);
  update(c, id, String(Number(stateOf(c, id) ?? 0) + sign * step));
};

const optionField = { option: { description: "Option to be selected.", required: true, selector: { text: {} } } };
const valueField = { value: { description: "The target value.", required: true, selector: { number: {} } } };

export const automationServices: ServiceTable = {
  scene: {
    turn_on: { name: "Activate", description: "Activates a scene.", target: true, run: each(activateScene) },
  },
  script: {
    turn_on: { name: "Turn on", description: "Runs the sequence of actions defined in a script.", target: true, run: each(runScript) },
    turn_off: { name: "Turn off", description: "Stops a running script.", target: true, run: each((c, id) => update(c, id, "off", { current: 0 })) },
    toggle: { name: "Toggle", description: "Toggle a script.", target: true, run: each(runScript) },
  },
  automation: {
    ...onOffServices("automation", "automation"),
    trigger: {
      name: "Trigger", description: "Triggers the actions of an automation.", target: true,
      fields: { skip_condition: { description: "Defines whether or not the conditions will be skipped.", selector: { boolean: {} } } },
      // automation/__init__.py: `skip_condition` defaults to true; the run happens within the call.
      run: each((c, id) => {
        const ran = c.home.automations?.trigger(id, { skipCondition: c.data.skip_condition !== false, variables: (c.data.variables as Record<string, unknown> | undefined) ?? {}, context: c.context });
        if (!ran) update(c, id, undefined, { last_triggered: nowIso(c) });
      }),
    },
    reload: {
      name: "Reload", description: "Reloads the automation configuration.",
      run: (c) => c.home.automations?.reload(typeof c.data.id === "string" ? c.data.id : undefined),
    },
  },
  input_select: { select_option: { name: "Select", description: "Selects an option.", target: true, fields: optionField, run: each(setOption) } },
  select: { select_option: { name: "Select", description: "Selects an option.", target: true, fields: optionField, run: each(setOption) } },
  input_number: { set_value: { name: "Set", description: "Sets the value.", target: true, fields: valueField, run: each(setNumber) } },
  number: { set_value: { name: "Set", description: "Sets the value of a number.", target: true, fields: valueField, run: each(setNumber) } },
  counter: {
    increment: { name: "Increment", description: "Increments a counter.", target: true, run: each((c, id) => counterStep(c, id, 1)) },
    decrement: { name: "Decrement", description: "Decrements a counter.", target: true, run: each((c, id) => counterStep(c, id, -1)) },
    reset: { name: "Reset", description: "Resets a counter.", target: true, run: each((c, id) => update(c, id, String(attr(c, id, "initial") ?? 0))) },
  },
  button: { press: { name: "Press", description: "Press the button entity.", target: true, run: each((c, id) => update(c, id, nowIso(c))) } },
  weather: {
    get_forecasts: {
      name: "Get forecasts", description: "Get weather forecasts.", target: true, response: "only",
      fields: { type: { description: "Forecast type: daily, hourly or twice_daily.", required: true, selector: { select: { options: ["daily", "hourly", "twice_daily"] } } } },
      run: (c) => {
        const type = stringField(c.data, "type", true)!;
        const out = dict<unknown>();
        for (const id of c.entityIds) {
          const base = Number(attr(c, id, "temperature") ?? 10);
          const stepMs = type === "hourly" ? 3_600_000 : 86_400_000;
          out[id] = {
            forecast: Array.from({ length: type === "hourly" ? 24 : 5 }, (_, i) => ({
              datetime: isoTime(c.home.now() + (i + 1) * stepMs),
              condition: ["cloudy", "partlycloudy", "rainy", "sunny"][i % 4],
              temperature: Math.round((base + Math.sin(i) * 3) * 10) / 10,
              templow: Math.round((base - 4 + Math.cos(i)) * 10) / 10,
              precipitation: i % 4 === 2 ? 2.4 : 0,
              humidity: 70 + (i % 3) * 5,
            })),
          };
        }
        return out;
      },
    },
  },
  todo: {
    get_items: {
      name: "Get to-do list items", description: "Gets items on a to-do list.", target: true, response: "only",
      run: (c) => Object.fromEntries(c.entityIds.map((id) => [id, { items: [
        { summary: "Milk", uid: "a1", status: "needs_action" },
        { summary: "Coffee beans", uid: "a2", status: "needs_action" },
        { summary: "Batteries (AAA)", uid: "a3", status: "needs_action" },
        { summary: "Bin bags", uid: "a4", status: "needs_action" },
      ] }])),
    },
  },
};

export { runScript };
