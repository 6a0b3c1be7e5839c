import type { SessionActuation } from "../tool.js";
import type { ActuationCeiling } from "./actuation-policy.js";

/**
 * What the agent may do in the home, in plain sentences: what it does
 * without asking, what waits for a person's yes, and what is refused. The
 * same rules as decideActuation, read out for people: a session with
 * `approval: "ask"` and `allow_actuation: false` can still act after a yes,
 * and says so here.
 */
export interface ActuationSummary {
  may: string[];
  asksFirst: string[];
  refused: string[];
}

const READS = ["read the states, areas and history of the entities exposed to Assist", "answer questions about the home"];
const LIMITS = ["touch an entity not exposed to Assist", "act on more than 50 entities in one call"];

/** `light.*, switch.turn_off` as "light (any service), switch.turn_off". */
const list = (patterns: readonly string[]) => patterns.map((p) => p.replace(/\.\*$/, " (any service)")).join(", ");

/**
 * The summary for one session, or, without `session`, for the add-on as a
 * whole (the console's policy card): what its options allow any session.
 */
export function describeActuation(ceiling: ActuationCeiling, session?: Pick<SessionActuation, "allowActuation" | "allowlistedServices" | "approval">): ActuationSummary {
  if (!ceiling.allow) {
    return { may: READS, asksFirst: [], refused: ["change anything in the home: the add-on's option allow_actuation is off (ALLOW_ACTUATION=true outside the add-on)"] };
  }
  const addOn = ceiling.allowlist.length ? list(ceiling.allowlist) : "any service";
  const alwaysAsks = ceiling.approvalRequired ?? [];
  const outsideAddOn = ceiling.allowlist.length ? [`call a service outside the add-on's actuation_allowlist (${list(ceiling.allowlist)})`] : [];
  const except = alwaysAsks.length ? `, except ${list(alwaysAsks)}` : "";
  if (!session) {
    return {
      may: [...READS, `call ${addOn}${except}: in a session whose policy allows it, or for an MCP client with ha_agent_call_service`],
      asksFirst: [
        ...(alwaysAsks.length ? [`${list(alwaysAsks)}: always waits for a person's yes (the option approval_required), and is refused where no one can be asked`] : []),
        `in a session started with approval "ask", every action its policy does not allow outright waits for the owner's yes`,
      ],
      refused: [...outsideAddOn, ...LIMITS],
    };
  }
  const asks = session.approval === "ask";
  const own = session.allowlistedServices.length ? list(session.allowlistedServices) : undefined;
  const may = session.allowActuation ? [`call ${own ?? addOn}${own && ceiling.allowlist.length ? ` (within the add-on's ${addOn})` : ""} without asking${except}`] : [];
  const asksFirst = asks
    ? [
        ...(session.allowActuation && own ? [`any other service the add-on allows (${addOn}): each call waits for the owner's yes`] : []),
        ...(!session.allowActuation ? [`every call of ${addOn}: each waits for the owner's yes`] : []),
        ...(alwaysAsks.length ? [`${list(alwaysAsks)}: always, whatever the session allows (the add-on's approval_required)`] : []),
      ]
    : [];
  if (!session.allowActuation && !asks) {
    return { may: READS, asksFirst: [], refused: ['change anything in the home: this session is read-only (policy.allow_actuation true acts without asking; policy.approval "ask" acts after a yes)'] };
  }
  const refused = [
    ...(session.allowActuation && own && !asks ? [`call a service outside ${own} (this session's allowlisted_services)`] : []),
    ...(session.allowActuation && !asks && alwaysAsks.length ? [`call ${list(alwaysAsks)}: it always needs a person's yes, and this session does not ask (policy.approval "refuse")`] : []),
    ...outsideAddOn,
    ...LIMITS,
  ];
  return { may: [...READS, ...may], asksFirst, refused };
}
