import { describe, expect, it } from "vitest";
import { demoPlan } from "./planner.js";

const offering = (...names: string[]) => [{ functionDeclarations: names.map((name) => ({ name })) }];
const user = (text: string) => ({ role: "user", parts: [{ text }] });
const model = (calls: string[]) => ({ role: "model", parts: calls.map((name) => ({ functionCall: { name } })) });
const answer = (name: string, response: unknown) => ({ role: "user", parts: [{ functionResponse: { name, response } }] });

describe("the demo model's energy answers", () => {
  const q = "How much energy did we use this week?";
  const tools = offering("index_search", "state_query", "energy");

  it("asks the energy tool for the week the question names, before anything else", () => {
    expect(demoPlan({ contents: [user(q)], tools })).toMatchObject({ calls: [{ name: "energy", args: { start: "today", period: "week" } }] });
    expect(demoPlan({ contents: [user("How much electricity did we use yesterday?")], tools }).calls).toEqual([{ name: "energy", args: { start: "yesterday", period: "day" } }]);
  });

  it("answers with the story the tool told, and says where the figures come from", () => {
    const plan = demoPlan({ contents: [user(q), model(["energy"]), answer("energy", { narrative: "This week you used 84.2 kWh from the grid." })], tools });
    expect(plan.text).toBe(
      "I'm the demo model: I look things up with simple rules, not an AI. This week you used 84.2 kWh from the grid. These figures are Home Assistant's long-term statistics, counted as its Energy dashboard counts them.",
    );
    const failed = demoPlan({ contents: [user(q), model(["energy"]), answer("energy", { error: { error: { code: "energy_not_configured", message: "Set it up." } } })], tools });
    expect(failed.text).toContain("I could not read the energy totals (energy_not_configured): Set it up.");
  });

  it("leaves other questions, and sessions without the energy tool, to the other rules", () => {
    expect(demoPlan({ contents: [user("Which lights are on?")], tools }).calls?.[0]?.name).toBe("index_search");
    expect(demoPlan({ contents: [user(q)], tools: offering("index_search") }).calls?.[0]?.name).toBe("index_search");
  });
});
