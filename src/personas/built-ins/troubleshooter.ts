import { z } from "zod";
import type { IndexedEntity } from "../../indexer/index.js";
import { PersonaError } from "../errors.js";
import { ground, type Diagnosis } from "../grounding.js";
import { definePersona, DEFAULT_MAX_TOKENS, maxTokensArgument, type PersonaContext, type PersonaSpec } from "../persona.js";
import { fitPriming, type PrimingSection } from "../priming.js";
import { diagnosisSections } from "../sections.js";
import { areaEntities, asOf, findDevice, isDown, stateLine, zoneOf } from "../targets.js";

const Args = z.object({
  entity: z.string().min(1).max(255).optional().describe('The entity that misbehaves, e.g. "light.hallway".'),
  device: z.string().min(1).max(255).optional().describe("The device that misbehaves, by name or id."),
  area: z.string().min(1).max(255).optional().describe("The area where something is wrong, by name or id."),
  max_tokens: maxTokensArgument,
});

/** Entities diagnosed in full for a device or an area; the others are listed by state. */
const DIAGNOSED = 3;

const SYSTEM = [
  "You are HA Agent's troubleshooter for a Home Assistant home.",
  "Find out what is wrong and why, from the facts given and the tools: say the likely cause first, the evidence (entity ids, times, log lines) next, then what the user can do.",
  "Never guess a cause the facts do not show; read more with diagnose_entity, state_query, history or analyze_errors when you need it.",
  "When something did not happen (\"why didn't the light turn on?\"), find the automation that should have done it (index_search with domain automation, or automation_inspect by name) and read its runs with automation_inspect:",
  "answer with the run that should have done it and the step that stopped it (the condition and the state it saw, or the error), or say that no run happened and why (its diagnostics). trace shows one run step by step.",
].join(" ");

/** `troubleshooter`: what is wrong with an entity, a device or an area, and why. */
export function troubleshooter(): PersonaSpec {
  return definePersona({
    name: "troubleshooter",
    title: "Troubleshooter",
    description: "Finds what is wrong with an entity, a device or an area, and why: primed with its state, recent changes, flaps, related entities, logbook and log lines; reads automations' runs to say why something did not happen.",
    version: "2",
    arguments: Args,
    kinds: { entity: "entity", device: "device", area: "area" },
    async resolve(args, ctx) {
      const given = [args.entity, args.device, args.area].filter(Boolean).length;
      if (given !== 1) throw new PersonaError("invalid_argument", "troubleshooter takes exactly one of entity, device or area; give the one that misbehaves.");
      const { label, entities } = targetOf(args, ctx);
      const now = ctx.clock.now();
      const zone = await zoneOf(ctx);
      // The ones down come first: that is most often where the trouble is.
      const suspects = [...entities.filter(isDown), ...entities.filter((e) => !isDown(e))].slice(0, DIAGNOSED);
      const diagnoses = await Promise.all(suspects.map((e) => ground<Diagnosis>(ctx, "diagnose_entity", { entity_id: e.entityId, hours: 24 })));
      const sections: PrimingSection[] = [];
      if (entities.length > 1) sections.push({ title: `Entities of ${label} now`, lines: entities.map((e) => stateLine(e, now, zone)), more: `state_query for ${label}` });
      for (const d of diagnoses) sections.push(...diagnosisSections(d, now, zone));
      const fitted = fitPriming({ heading: `# Troubleshooting ${label} ${asOf(now, zone)}`, sections, maxTokens: args.max_tokens ?? DEFAULT_MAX_TOKENS });
      return {
        systemPrompt: `${SYSTEM}\nThe user asks about ${label}.`,
        priming: fitted.text,
        tools: ["diagnose_entity", "state_query", "index_search", "analyze_errors", "automation_inspect", "trace", "history"],
        omitted: fitted.omitted,
      };
    },
  });
}

function targetOf(args: z.infer<typeof Args>, ctx: PersonaContext): { label: string; entities: IndexedEntity[] } {
  if (args.entity) {
    const e = ctx.index.entity(args.entity);
    if (!e) throw new PersonaError("not_found", `No entity "${args.entity}" that the agent may see (it must exist and be exposed to Assist). Use completion or index_search for its id.`);
    return { label: `${e.name} (${e.entityId})`, entities: [e] };
  }
  if (args.device) {
    const device = findDevice(ctx, args.device);
    const entities = ctx.index.entitiesOfDevice(device.deviceId).map((id) => ctx.index.entity(id)).filter((e): e is IndexedEntity => e !== undefined);
    if (!entities.length) throw new PersonaError("not_found", `Device "${device.name}" has no entity exposed to Assist; expose one in Home Assistant's voice assistant settings.`);
    return { label: `device ${device.name}`, entities };
  }
  const entities = areaEntities(ctx, args.area!);
  return { label: `area ${entities[0]?.areaName ?? args.area}`, entities };
}
