import type { ActuationPolicyView } from "./wire.js";

/** The add-on's actuation options, as the agent reads them. */
export interface ActuationOptions {
  allow: boolean;
  allowlist: readonly string[];
  approvalRequired?: readonly string[];
}

const list = (patterns: readonly string[]) => patterns.map((p) => p.replace(/\.\*$/, " (any service)")).join(", ");

/** The actuation policy in plain words: what the agent may do, what asks a person first, what never happens. */
export function describePolicy(options: ActuationOptions): ActuationPolicyView {
  const always = ["read the states, areas and history of the entities you exposed to Assist", "answer questions about your home"];
  if (!options.allow) {
    return {
      mayAct: false,
      may: always,
      asks: [],
      never: ["change anything in your home: turning on actuation is the option allow_actuation (ALLOW_ACTUATION=true outside the add-on)"],
    };
  }
  const asks = options.approvalRequired ?? [];
  return {
    mayAct: true,
    may: [...always, options.allowlist.length ? `call these services: ${list(options.allowlist)}` : "call any Home Assistant service on the entities you exposed"],
    asks: [
      ...(asks.length ? [`${list(asks)} always waits for a person's yes (the option approval_required)`] : []),
      "in a session started with approval \"ask\", every action waits for its owner's yes",
    ],
    never: [
      ...(options.allowlist.length ? ["call a service outside the list above (the option actuation_allowlist)"] : []),
      "touch an entity you did not expose to Assist",
      "act on more than 50 entities in one call",
    ],
  };
}
