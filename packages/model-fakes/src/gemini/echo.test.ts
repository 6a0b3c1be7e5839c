import { describe, expect, it } from "vitest";
import { geminiEcho } from "./echo.js";

const tools = [{ functionDeclarations: [{ name: "check_echo" }] }];

describe("the Gemini echo responder", () => {
  it("repeats the last user text", () => {
    expect(geminiEcho({ contents: [{ role: "user", parts: [{ text: "hello" }] }] })).toEqual({ text: 'Fake model: you said "hello".' });
  });

  it("calls an offered function when asked in so many words, and only then", () => {
    const asked = { contents: [{ role: "user", parts: [{ text: 'Call the tool check_echo with {"n":1}' }] }] };
    expect(geminiEcho({ ...asked, tools })).toEqual({ calls: [{ name: "check_echo", args: { n: 1 } }] });
    expect(geminiEcho(asked).text).toContain("you said");
  });

  it("counts the function responses it was given", () => {
    const body = { contents: [{ role: "user", parts: [{ functionResponse: { name: "a" } }, { functionResponse: { name: "b" } }] }] };
    expect(geminiEcho(body)).toEqual({ text: "Fake model: received 2 function responses." });
  });
});
