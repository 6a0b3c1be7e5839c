import { describe, expect, it } from "vitest";
import type { ConversationItem } from "../models/index.js";
import { estimateRequestTokens } from "../models/index.js";
import { fitRequest } from "./fit.js";

const user = (text: string): ConversationItem => ({ type: "user", text });
const model = (text: string): ConversationItem => ({ type: "model", turn: { provider: "p", model: "m", raw: null, text, toolCalls: [] } });
const call = (id: string): ConversationItem => ({ type: "model", turn: { provider: "p", model: "m", raw: null, text: "", toolCalls: [{ id, name: "state_query", args: {} }] } });
const results = (id: string, size: number): ConversationItem => ({ type: "tool_results", results: [{ callId: id, name: "state_query", output: { data: "x".repeat(size) }, isError: false }] });

describe("fitRequest", () => {
  const history = [user("old question ".repeat(200)), model("old answer ".repeat(200)), user("newer question"), model("newer answer")];
  const head = [...history, user("retrieved: light.kitchen on ".repeat(100)), user("Which lights are on?")];

  it("leaves a request that fits alone", () => {
    const fitted = fitRequest({ system: "policy", head, primed: true, items: [], tools: [], limit: 100_000 });
    expect(fitted.trimmed).toEqual([]);
    expect(fitted.conversation).toEqual(head);
  });

  it("drops retrieval first, then remembered messages oldest first, never the system or the user's message", () => {
    const fitted = fitRequest({ system: "policy ".repeat(50), head, primed: true, items: [], tools: [], limit: 200 });
    expect(fitted.trimmed[0]).toBe("retrieval snippets");
    expect(fitted.conversation.at(-1)).toEqual(user("Which lights are on?"));
    expect(fitted.conversation).toEqual([user("newer question"), model("newer answer"), user("Which lights are on?")]);
    expect(fitted.tokens).toBeLessThanOrEqual(200);
  });

  it("shortens older tool outputs but keeps the newest whole and every call answered", () => {
    const items = [call("a"), results("a", 20_000), call("b"), results("b", 2_000)];
    const fitted = fitRequest({ system: "s", head: [user("q")], primed: false, items, tools: [], limit: 2_000 });
    expect(fitted.trimmed).toEqual(["outputs of 1 earlier tool steps"]);
    const [, older, , newest] = fitted.conversation.slice(1);
    expect(older).toMatchObject({ type: "tool_results", results: [{ callId: "a", output: { shortened: true } }] });
    expect(newest).toEqual(results("b", 2_000));
    expect(fitted.tokens).toBe(estimateRequestTokens({ system: "s", conversation: fitted.conversation, tools: [] }));
  });
});
