import { describe, expect, it } from "vitest";
import type { ConversationItem, ModelTurn } from "../models/index.js";
import { alternating, primingIntoSystem } from "./conversation.js";

const turn = (text: string, calls: string[] = []): ModelTurn => ({ provider: "p", model: "m", raw: null, text, toolCalls: calls.map((id) => ({ id, name: "state_query", args: {} })) });
const user = (text: string): ConversationItem => ({ type: "user", text });
const model = (text: string, calls: string[] = []): ConversationItem => ({ type: "model", turn: turn(text, calls) });
const results = (...ids: string[]): ConversationItem => ({ type: "tool_results", results: ids.map((callId) => ({ callId, name: "state_query", output: {}, isError: false })) });

/**
 * The strictest chat-template rule: user and assistant alternate, starting
 * with the user; tool results come only right after the assistant turn that
 * asked for them, answering its calls; nothing is empty.
 */
function strictProblem(items: ConversationItem[]): string | undefined {
  let expect: "user" | "model" = "user";
  for (const [i, item] of items.entries()) {
    if (item.type === "tool_results") {
      const before = items[i - 1];
      if (before?.type !== "model" || before.turn.toolCalls.map((c) => c.id).join() !== item.results.map((r) => r.callId).join()) return `results at ${i} do not follow their calls`;
      continue;
    }
    if (item.type === "user" && item.text.trim() === "") return `empty user text at ${i}`;
    if (item.type === "model" && item.turn.text.trim() === "" && item.turn.toolCalls.length === 0) return `empty model turn at ${i}`;
    // A model turn with calls and its results stand between a user message and the answer.
    if (item.type === "model" && item.turn.toolCalls.length > 0) continue;
    if (item.type !== expect) return `${item.type} at ${i} where ${expect} was due`;
    expect = expect === "user" ? "model" : "user";
  }
  return undefined;
}

describe("alternating: the conversation as every chat template accepts it", () => {
  it("joins user texts in a row into one message, in order", () => {
    const out = alternating([user("Is the kitchen light on?"), user("And the hall?")]);
    expect(out).toEqual([user("Is the kitchen light on?\n\nAnd the hall?")]);
    expect(strictProblem(out)).toBeUndefined();
  });

  it("leaves out empty texts and empty model turns, and what they would leave out of order", () => {
    const remembered = [user("Hi"), model(""), user("Is the kitchen light on?"), model("Yes."), user(""), user("And the hall?")];
    const out = alternating(remembered);
    expect(out).toEqual([user("Hi\n\nIs the kitchen light on?"), model("Yes."), user("And the hall?")]);
    expect(strictProblem(out)).toBeUndefined();
  });

  it("keeps a turn's tool steps whole, with their results right after the calls", () => {
    const items = [model("Earlier answer"), user("q"), model("", ["a", "b"]), results("a", "b"), model("", ["c"]), results("c")];
    const out = alternating(items);
    expect(out).toEqual(items.slice(1));
    expect(strictProblem(out)).toBeUndefined();
  });

  it("drops a text-only model turn that another model turn follows (damaged memory)", () => {
    expect(alternating([user("q"), model("first"), model("second")])).toEqual([user("q"), model("second")]);
  });

  it("passes the strict rule for every shape a turn can take", () => {
    const shapes: ConversationItem[][] = [
      [user("q1"), user("q2")],
      [user("q1"), model("a1"), user("q2"), user("q3"), model("", ["x"]), results("x")],
      [model(""), user("q"), model("", ["x"]), results("x"), model("", ["y"]), results("y")],
      [user("q1"), model(" "), user("q2")],
    ];
    for (const shape of shapes) expect(strictProblem(alternating(shape)), JSON.stringify(shape)).toBeUndefined();
    // Without the rules, these shapes break it.
    expect(shapes.filter((s) => strictProblem(s) !== undefined)).toHaveLength(shapes.length);
  });
});

describe("primingIntoSystem: the retrieval snippets end the system text, not a message of their own", () => {
  it("moves the priming the fit kept, found by identity, and leaves the user's message as it is", () => {
    const priming = user("Index matches for the next message, states now:\n- light.kitchen: on");
    const remembered = user("Index matches for the next message, states now:\n- light.kitchen: on");
    const out = primingIntoSystem({ system: "You are HA Agent.", conversation: [remembered, model("It was on."), priming, user("Is it still on?")], priming });
    expect(out.system).toBe("You are HA Agent.\n\n## For the user's next message\nIndex matches for the next message, states now:\n- light.kitchen: on");
    expect(out.conversation).toEqual([remembered, model("It was on."), user("Is it still on?")]);
    expect(strictProblem(out.conversation)).toBeUndefined();
  });

  it("changes nothing when the fit left the priming out, or there was none", () => {
    const conversation = [user("q")];
    expect(primingIntoSystem({ system: "s", conversation, priming: user("dropped") })).toEqual({ system: "s", conversation });
    expect(primingIntoSystem({ system: "s", conversation, priming: undefined })).toEqual({ system: "s", conversation });
  });
});
