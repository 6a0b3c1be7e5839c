import { describe, expect, it } from "vitest";
import { demoPlan } from "./planner.js";

const tools = [{ functionDeclarations: ["index_search", "state_query", "automation_inspect"].map((name) => ({ name })) }];
const user = (text: string) => ({ role: "user", parts: [{ text }] });
const model = (calls: string[]) => ({ role: "model", parts: calls.map((name) => ({ functionCall: { name } })) });
const responses = (...r: { name: string; response: unknown }[]) => ({ role: "user", parts: r.map((functionResponse) => ({ functionResponse })) });
const q = "Why didn't the hall light turn on last night?";

describe("the demo planner, asked why something did not happen", () => {
  it("asks automation_inspect about the automation the question's words name", () => {
    expect(demoPlan({ contents: [user(q)], tools })).toMatchObject({ calls: [{ name: "automation_inspect", args: { automation: "hall light night" } }] });
  });

  it("answers with the automation's newest run as its trace tells it", () => {
    const inspected = { alias: "Hall light at night", entity_id: "automation.hall_light_at_night", runs: [{ outcome: "condition_failed", narrative: "Triggered by … at 22:14 yesterday; the condition 'Hall light is off' failed." }], diagnostics: [] };
    const plan = demoPlan({ contents: [user(q), model(["automation_inspect"]), responses({ name: "automation_inspect", response: inspected })], tools });
    expect(plan.text).toMatch(/^I'm the demo model: .* Hall light at night \(automation.hall_light_at_night\) should have done it. Its last run: Triggered by … at 22:14 yesterday; the condition 'Hall light is off' failed.$/);
  });

  it("says why there was no run, and leaves other questions, or a turn without the tool, to the other rules", () => {
    const none = { alias: "Water Leak Alert", entity_id: "automation.water_leak_alert", runs: [], diagnostics: ["It has never triggered."] };
    expect(demoPlan({ contents: [user("Why didn't the water leak alert go off?"), model(["automation_inspect"]), responses({ name: "automation_inspect", response: none })], tools }).text).toContain("did not run. It has never triggered.");
    expect(demoPlan({ contents: [user("Which lights are on?")], tools }).calls?.[0]?.name).toBe("index_search");
    expect(demoPlan({ contents: [user(q)], tools: [{ functionDeclarations: [{ name: "index_search" }] }] }).calls?.[0]?.name).toBe("index_search");
  });
});
