import { z } from "zod";
import type { IndexedEntity } from "../../indexer/index.js";
import { definePersona, DEFAULT_MAX_TOKENS, maxTokensArgument, type PersonaSpec } from "../persona.js";
import { fitPriming } from "../priming.js";
import { stateLine, zoneOf } from "../targets.js";

const Args = z.object({
  goal: z.string().min(1).max(2_000).describe('What the automation should do, e.g. "turn on the porch light at sunset".'),
  max_tokens: maxTokensArgument,
});

const MATCHES = 15;

/** The services a draft most often needs, by domain; the model can read others' states with the tools. */
const SERVICES = new Map<string, string[]>(Object.entries({
  light: ["light.turn_on", "light.turn_off", "light.toggle"],
  switch: ["switch.turn_on", "switch.turn_off", "switch.toggle"],
  fan: ["fan.turn_on", "fan.turn_off", "fan.set_percentage"],
  cover: ["cover.open_cover", "cover.close_cover", "cover.set_cover_position"],
  climate: ["climate.set_temperature", "climate.set_hvac_mode"],
  lock: ["lock.lock", "lock.unlock"],
  media_player: ["media_player.media_play", "media_player.media_pause", "media_player.volume_set"],
  scene: ["scene.turn_on"],
  script: ["script.turn_on"],
  vacuum: ["vacuum.start", "vacuum.return_to_base"],
}));

const SYSTEM = [
  "You are HA Agent's automation helper for a Home Assistant home.",
  "Draft one Home Assistant automation in YAML (alias, description, triggers, conditions, actions) for the goal, using only entity ids that exist (the facts below, or index_search); render_template tries a template.",
  "Check every draft with automation_check and fix each problem it finds; show the user the YAML, explain each part in one line, and for a change to a saved automation show the diff it gives.",
  "Save with automation_save only when the user asks you to: the save waits for their yes to exactly that config, and is refused unless the add-on allows automation edits (allow_automation_edits) and the session asks for approvals (policy.approval \"ask\"); otherwise give them the YAML to paste into Settings > Automations > Edit in YAML.",
  "After a save, confirm from its answer that the automation exists and whether it is on, and say what the user should test.",
].join(" ");

/** `automation_helper`: drafts an automation, checks it with Home Assistant, and saves it only after a person's yes. */
export function automationHelper(): PersonaSpec {
  return definePersona({
    name: "automation_helper",
    title: "Automation helper",
    description: "Drafts a Home Assistant automation for a goal, checks it with Home Assistant and shows the diff; saves it only after a person's yes. Primed with the entities and services the goal names.",
    version: "2",
    arguments: Args,
    async resolve(args, ctx) {
      const now = ctx.clock.now();
      const zone = await zoneOf(ctx);
      const hits = ctx.index.search(args.goal, { limit: MATCHES });
      const entities = hits.map((h) => ctx.index.entity(h.entityId)).filter((e): e is IndexedEntity => e !== undefined);
      const domains = [...new Set(entities.map((e) => e.domain))];
      const fitted = fitPriming({
        heading: `# Entities and services for: ${args.goal}`,
        sections: [
          { title: "Entities the goal names, best match first", lines: entities.map((e) => stateLine(e, now, zone)), more: "index_search with the goal's words" },
          { title: "Services for them", lines: domains.flatMap((d) => SERVICES.get(d) ?? []).map((s) => `- ${s}`), more: "the Home Assistant docs for the domain" },
        ],
        maxTokens: args.max_tokens ?? DEFAULT_MAX_TOKENS,
      });
      return { systemPrompt: `${SYSTEM}\nThe goal: ${args.goal}`, priming: fitted.text, tools: ["index_search", "state_query", "automation_check", "automation_save", "render_template"], omitted: fitted.omitted };
    },
  });
}
