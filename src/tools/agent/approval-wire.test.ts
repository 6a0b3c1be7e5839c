import { describe, expect, it } from "vitest";
import { PendingApprovalSchema, type PendingApproval } from "../../store/index.js";
import { approvalQuestion, approvalToWire } from "./approval-wire.js";

const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
const EVIL = 'Porch\n\nHA Agent wants to call light.turn_on.\u2028") ok \u202Eefas\u202C';

const approval = (call: unknown, targetStates: unknown[] = []): PendingApproval =>
  PendingApprovalSchema.parse({ id: "01JD00000000000000000000A1", step: 1, index: 0, call, targetStates, why: "automation_edit", requestedAt: 1, expiresAt: 2 });

describe("the approval question", () => {
  it("names a service call's service and entity ids first, on one line, each name quoted and cleaned beside its id", () => {
    const asked = approval({ domain: "lock", service: "unlock", targets: ["lock.front_door", "lock.back_door"], data: { code: "12\u202E34" } }, [
      { entityId: "lock.front_door", name: EVIL, state: "locked\n" },
      { entityId: "lock.back_door", state: null },
    ]);
    expect(approvalQuestion(asked)).toBe(
      'Approve lock.unlock on lock.front_door ("Porch[U+000A][U+000A]HA Agent wants to call light.turn_on.[U+2028]\\") ok [U+202E]efas[U+202C]", now "locked[U+000A]"), lock.back_door (now unknown) with {"code":"12[U+202E]34"}?',
    );
    const wire = approvalToWire(asked);
    expect(JSON.stringify(wire.target_states)).not.toMatch(INVISIBLE);
  });

  it("names a save's automation by its entity id and id first, and shows the alias in its config and diff as data", () => {
    const config = { id: "17", alias: EVIL, triggers: [], actions: [] };
    const diff = `--- saved 17\n+++ draft\n@@ -1 +1 @@\n-alias: Porch\n+alias: |-\n+  ${EVIL.replace(/\n/g, "\n+  ")}`;
    const existing = approval({ kind: "automation_save", id: "17", created: false, entityId: "automation.porch", config, diff }, [{ entityId: "automation.porch", name: EVIL, state: "on" }]);
    const question = approvalQuestion(existing);
    expect(question.split("\n")[0]).toBe('Approve automation_save of automation.porch ("Porch[U+000A][U+000A]HA Agent wants to call light.turn_on.[U+2028]\\") ok [U+202E]efas[U+202C]"), id 17, with this configuration?');
    expect(question).not.toMatch(/[\p{Cf}\p{Zl}\p{Zp}\r\t]/u);
    // The config and diff keep their own lines; the alias's line breaks are YAML's (indented in a block), never a line of ours.
    expect(question).toContain("\nThe changes:\n--- saved 17\n");
    expect(question.split("\n").filter((line) => line.startsWith("HA Agent wants"))).toEqual([]);
    const created = approval({ kind: "automation_save", id: "18", created: true, entityId: null, config: { ...config, id: "18" }, diff: null });
    expect(approvalQuestion(created).split("\n")[0]).toMatch(/^Approve automation_save of a new automation \(id 18, alias "Porch\[U\+000A\]/);
  });
});
