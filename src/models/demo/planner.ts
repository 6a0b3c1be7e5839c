import type { PlannerReply, PlannerRequest } from "./gemini-port.js";
import { planEnergyAnswer } from "./energy-answer.js";
import { canShow, shownState, stateWord } from "./state-words.js";
import { whyNotPlan } from "./why-not.js";

interface Hit {
  entity_id: string;
  name: string;
  domain?: string;
  area?: string | null;
  state?: string | null;
  /** Asked of state_query for the device class, which decides how a binary sensor's state reads. */
  attributes?: Record<string, unknown>;
  /** The unit state_query gives with a reading ("°C"), shown after it as HA shows it. */
  unit?: string | null;
}

const INTRO = "I'm the demo model: I look things up with simple rules, not an AI.";
const WHY = /\b(why|wrong|problem|broken|flicker\w*|unavailable|fail\w*|error\w*|offline)\b/i;
/** A request to change the home ("Turn on the kitchen lights", "could you lock the door"): the verb and its particle. */
const ACT =
  /^\s*(?:please\s+|(?:can|could|would|will)\s+you\s+(?:please\s+)?)?(turn|switch|set|open|close|lock|unlock|dim|brighten|start|stop|activate|deactivate|toggle|play|pause|arm|disarm|trigger|raise|lower|increase|decrease)\b(\s+(?:on|off|up|down)\b)?/i;
const REAL_MODEL =
  "To let it act, turn on allow_actuation (ALLOW_ACTUATION) and start a session whose policy allows actions or asks you to approve them (policy.approval \"ask\"). For an AI instead of rules, connect a real model: set gemini_api_key (GEMINI_API_KEY), or model_provider (MODEL_PROVIDER) to openai with openai_base_url (OPENAI_BASE_URL).";

type Part = Record<string, unknown>;

/** The last message the user typed, and the function responses of this turn, read from the request alone. */
function readTurn(body: PlannerRequest): { message: string; responses: { name: string; response: Record<string, unknown> }[] } {
  const contents = body.contents ?? [];
  let userAt = -1;
  let message = "";
  contents.forEach((c, i) => {
    const text = (c.parts ?? []).find((p: Part) => typeof p.text === "string")?.text as string | undefined;
    // The index matches that prime the first call are context, not the user's words.
    if (c.role !== "model" && text !== undefined && !text.startsWith("Index matches for the next message")) {
      userAt = i;
      message = text;
    }
  });
  const responses = contents
    .slice(userAt + 1)
    .flatMap((c) => (c.parts ?? []).map((p: Part) => p.functionResponse as { name: string; response: Record<string, unknown> } | undefined))
    .filter((r): r is { name: string; response: Record<string, unknown> } => r !== undefined);
  return { message, responses };
}

const offered = (body: PlannerRequest, name: string) => (body.tools ?? []).some((t) => (t.functionDeclarations ?? []).some((d) => d.name === name));
const cite = (e: Hit) => `${e.name} (${e.entity_id})`;
const isNow = (e: Hit) => `${cite(e)} is ${shownState(e)}`;
/** The state a question asks about ("which windows are open?"), in the words HA shows. */
const WANTED = /\b(on|off|open|closed|locked|unlocked|detected|clear)\b/i;

/**
 * The demo model's whole mind, deterministic and honest about it: search
 * the home with the user's words, read the states (and diagnose when asked
 * why) of the best matches in parallel, then answer in plain sentences that
 * cite every entity id it used.
 */
export function demoPlan(body: PlannerRequest): PlannerReply {
  const { message, responses } = readTurn(body);
  const whyNot = whyNotPlan({ message, responses, intro: INTRO }, (name) => offered(body, name));
  if (whyNot) return whyNot;
  const energy = planEnergyAnswer({ message, responses, offered: (tool) => offered(body, tool) });
  if (energy) return energy;
  const searched = responses.find((r) => r.name === "index_search");
  const read = responses.filter((r) => r.name === "state_query" || r.name === "diagnose_entity");

  if (!searched && offered(body, "index_search")) {
    return { thought: "First I search the home for the words of the question.", calls: [{ name: "index_search", args: { query: message.slice(0, 400), limit: 6 } }] };
  }
  const hits = narrow(message, ((searched?.response.results as Hit[] | undefined) ?? []).slice(0, 6));
  if (searched && read.length === 0 && hits.length && offered(body, "state_query")) {
    const calls: PlannerReply["calls"] = [];
    const byDomain = new Map<string, string[]>();
    for (const h of hits) byDomain.set(h.domain ?? h.entity_id.split(".")[0]!, [...(byDomain.get(h.domain ?? h.entity_id.split(".")[0]!) ?? []), h.entity_id]);
    for (const ids of byDomain.values()) calls.push({ name: "state_query", args: { entity_ids: ids, attributes: ["device_class"] } });
    if (WHY.test(message) && offered(body, "diagnose_entity")) calls.push({ name: "diagnose_entity", args: { entity_id: hits[0]!.entity_id } });
    return { thought: "Now I read the current state of the best matches, in parallel.", calls };
  }
  const acted = responses.find((r) => r.name === "call_service");
  if (acted) return { text: actedAnswer(acted.response, read.flatMap((r) => (r.response.entities as Hit[] | undefined) ?? [])) };
  const act = ACT.exec(message);
  if (read.length && act && offered(body, "call_service")) {
    const call = serviceCall(`${act[1]!}${act[2] ?? ""}`, named(message, narrow(message, read.flatMap((r) => ((r.response.entities as Hit[] | undefined) ?? [])))));
    if (call) return { thought: `The user asked me to act: I call ${call.domain}.${call.service} on what the question names.`, calls: [{ name: "call_service", args: call }] };
  }
  return { text: answer(message, hits, read) };
}

/** The entities the request names by their whole name ("the kitchen ceiling light"), when it names any: an action takes no more than asked. */
function named(message: string, entities: Hit[]): Hit[] {
  const text = message.toLowerCase();
  const exact = entities.filter((e) => text.includes(e.name.toLowerCase()));
  return exact.length ? exact : entities;
}

/** The services the demo model can call, by the request's verb; other verbs it declines. */
const VERB_SERVICES: Record<string, string> = { "turn on": "turn_on", "switch on": "turn_on", "turn off": "turn_off", "switch off": "turn_off", toggle: "toggle", lock: "lock", unlock: "unlock" };

/** One call on the matches of the first match's domain, when the verb names a service the demo knows. */
function serviceCall(verb: string, entities: Hit[]): { domain: string; service: string; entity_id: string[] } | undefined {
  const service = VERB_SERVICES[verb.toLowerCase().replace(/\s+/g, " ")];
  const first = entities[0];
  if (!service || !first) return undefined;
  const domain = first.domain ?? first.entity_id.split(".")[0]!;
  const ids = entities.filter((e) => (e.domain ?? e.entity_id.split(".")[0]) === domain).map((e) => e.entity_id);
  return { domain, service, entity_id: ids };
}

/** What the call did, as the tool said it: done, refused, denied by a person, or not answered; each target by the name the states it read give. */
function actedAnswer(response: Record<string, unknown>, known: Hit[]): string {
  const error = response.error as { code?: string; message?: string } | undefined;
  if (error) return `${INTRO} I asked for it, and it was not done (${error.code ?? "error"}): ${error.message ?? "no reason given"}`;
  const targets = ((response.targets as string[] | undefined) ?? []).map((id) => {
    const e = known.find((k) => k.entity_id === id);
    return e ? cite(e) : id;
  });
  return `${INTRO} Done: I called ${String(response.service)} on ${targets.join(", ") || "the home"}.`;
}

/** Whether a text names a kind ("window", "garage_door") in the singular or a simple English plural. */
function namesKind(text: string, kind: string): boolean {
  const noun = kind.replace(/_/g, " ");
  const forms = [noun, `${noun}s`, `${noun}es`, ...(/[^aeiou]y$/.test(noun) ? [`${noun.slice(0, -1)}ies`] : [])];
  return forms.some((f) => new RegExp(`\\b${f}\\b`).test(text));
}

/**
 * Keeps the hits the question is about: those in an area it names, those
 * that can be in the state it asks about ("locked": a lock, not a motion
 * sensor), and those of a kind it names, by domain or device class
 * ("lights" → light, "windows" → a window sensor, not a door contact). A
 * search ranks by words, so a lamp in another room may follow the
 * kitchen's, and a door contact follows the windows; the question rules
 * them out. Each rule applies only when something passes it.
 */
function narrow(message: string, hits: Hit[]): Hit[] {
  const text = message.toLowerCase();
  const keep = (list: Hit[], rule: (h: Hit) => boolean) => {
    const passed = list.filter(rule);
    return passed.length ? passed : list;
  };
  let kept = keep(hits, (h) => !!h.area && text.includes(h.area.toLowerCase()));
  const wanted = WANTED.exec(message)?.[1]?.toLowerCase();
  if (wanted) kept = keep(kept, (h) => canShow(h, wanted) !== false);
  const deviceClass = (h: Hit) => (typeof h.attributes?.device_class === "string" ? h.attributes.device_class : undefined);
  kept = keep(kept, (h) => [h.domain ?? h.entity_id.split(".")[0]!, deviceClass(h)].some((k) => k !== undefined && namesKind(text, k)));
  return kept;
}

function answer(message: string, hits: Hit[], read: { name: string; response: Record<string, unknown> }[]): string {
  const entities = narrow(message, read.flatMap((r) => ((r.response.entities as Hit[] | undefined) ?? [])));
  const known = entities.length ? entities : hits;
  const act = ACT.exec(message);
  if (act) return refuseToAct(`${act[1]!}${act[2] ?? ""}`.toLowerCase(), known);
  if (!known.length) return `${INTRO} I found nothing in this home that matches "${message}". Try other words, such as a room or a device name.`;
  const sentences = [INTRO];
  const wanted = WANTED.exec(message)?.[1]?.toLowerCase();
  if (wanted) {
    const match = known.filter((e) => stateWord(e) === wanted);
    const other = known.filter((e) => stateWord(e) !== wanted);
    sentences.push(match.length ? `These are ${wanted}: ${match.map(cite).join(", ")}.` : `None of the matches is ${wanted}.`);
    if (other.length) sentences.push(`Not ${wanted}: ${other.map(isNow).join("; ")}.`);
  } else {
    sentences.push(`Here is what I found: ${known.map(isNow).join("; ")}.`);
  }
  for (const r of read.filter((x) => x.name === "diagnose_entity")) {
    const findings = (r.response.findings as string[] | undefined) ?? [];
    if (findings.length) sentences.push(`For ${String(r.response.entity_id ?? "it")}: ${findings.slice(0, 3).join(" ")}`);
  }
  return sentences.join(" ");
}

/**
 * Asked to act where it may not call a service (the add-on or the session
 * does not allow it, or the verb is not one it knows), the demo model says
 * so rather than answer as if it had, names what the request matched as it
 * is now, and which options let it act.
 */
function refuseToAct(verb: string, known: Hit[]): string {
  const sentences = [INTRO, `I cannot change your home here, only read it, so I did not ${verb.replace(/\s+/g, " ")} anything.`];
  if (known.length) sentences.push(`Right now: ${known.map(isNow).join("; ")}.`);
  sentences.push(REAL_MODEL);
  return sentences.join(" ");
}
