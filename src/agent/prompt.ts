import type { IndexedEntity } from "../indexer/index.js";
import type { ContentProvider, SessionRegister } from "./content-provider.js";

const HEADINGS: Record<SessionRegister, string> = {
  persona: "Your role",
  policy: "What you may do",
  tool_guidance: "How to use the tools",
  home_overview: "The home",
  rolling_summary: "Earlier in this conversation",
  facts: "Facts to remember",
  pins: "Pinned by the user",
};

const ORDER: SessionRegister[] = ["persona", "policy", "tool_guidance", "home_overview", "pins", "facts", "rolling_summary"];

/** The system instruction: the session registers, in a fixed order, under plain headings. */
export function composeSystem(provider: ContentProvider): string {
  const parts = ["You are HA Agent, an assistant inside a Home Assistant installation. Answer from what the tools show, and cite the entity ids you used."];
  for (const register of ORDER) {
    const lines = provider.lines(register);
    if (lines.length) parts.push(`## ${HEADINGS[register]}\n${lines.join("\n")}`);
  }
  return parts.join("\n\n");
}

/** What the agent may and may not do, stated plainly for the model. */
export function policyLines(args: { actuation: "allowed" | "refused"; allowlist: readonly string[]; allowTools: boolean; asks?: boolean; saves?: boolean }): string[] {
  const lines = ["- Never reveal tokens, keys or passwords; you are never given any."];
  if (!args.allowTools) lines.push("- Tools are off for this message: answer from the conversation alone.");
  else if (args.actuation === "refused") lines.push("- You may read the home but not change it. If asked to change something, say that the add-on owner must allow actuation.");
  else {
    const scope = args.allowlist.length ? ` limited to: ${args.allowlist.join(", ")}` : "";
    lines.push(`- You may change the home with call_service${scope}. Act only when the user asked for it, and say exactly what you changed.`);
  }
  if (args.allowTools && args.saves) lines.push("- You may save an automation with automation_save, after automation_check finds no problem and only when the user asks for it; each save waits for a person's yes to the exact config.");
  if (args.allowTools && (args.asks || args.saves)) {
    lines.push("- Some calls wait for a person to approve them first. If one is denied (approval_denied), nothing was done: say so plainly, give their reason if any, and do not retry it.");
  }
  return lines;
}

export const TOOL_GUIDANCE = [
  "- Find entities with index_search before reading or changing them; never guess entity ids.",
  "- Ask for several independent things at once: calls in one step run in parallel.",
  "- For \"why\" questions use diagnose_entity and analyze_errors; for why something did not happen, the runs of the automation that should have done it (automation_inspect).",
  "- Keep answers short and plain, and name each entity with its id, e.g. Kitchen ceiling (light.kitchen_ceiling).",
];

/**
 * A compact overview of the home for the system instruction: floors, the
 * areas on each, and how many entities of each main domain there are. It
 * never lists entities, so it stays small in a home of 10,000.
 */
export function homeOverview(entities: readonly IndexedEntity[]): string[] {
  const floors = new Map<string, Set<string>>();
  const domains = new Map<string, number>();
  for (const e of entities) {
    if (e.hidden || e.disabled) continue;
    domains.set(e.domain, (domains.get(e.domain) ?? 0) + 1);
    if (!e.areaName) continue;
    const floor = e.floorName ?? "No floor";
    let areas = floors.get(floor);
    if (!areas) floors.set(floor, (areas = new Set()));
    areas.add(e.areaName);
  }
  const lines = [...floors].sort(([a], [b]) => a.localeCompare(b)).map(([floor, areas]) => `- ${floor}: ${[...areas].sort().join(", ")}`);
  const top = [...domains].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([d, n]) => `${d} ${n}`);
  if (top.length) lines.push(`- Most entities: ${top.join(", ")}`);
  return lines;
}
