import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { generateHouse } from "./generate-house.js";
import { startSimulator, type Simulator } from "./index.js";
import { RawClient } from "../test/support/raw-client.js";

let sim: Simulator;
beforeEach(async () => {
  sim = await startSimulator({ house: generateHouse({ entities: 20, seed: 1 }) });
});
afterEach(async () => {
  await sim.close();
});

/** Sends one auth message and returns HA's answer; the socket must then close. */
async function answerTo(message: unknown): Promise<unknown> {
  const c = await RawClient.connect(sim.wsUrl);
  try {
    await c.next(); // auth_required
    c.send(message);
    const reply = await c.next();
    await c.closed;
    return reply;
  } finally {
    c.close();
  }
}

const invalid = (message: string) => ({ type: "auth_invalid", message });

describe("auth_invalid", () => {
  it("uses HA's texts: a wrong token, and no token at all", async () => {
    expect(await answerTo({ type: "auth", access_token: "wrong" })).toEqual(invalid("Invalid access token or password"));
    expect(await answerTo({ type: "auth" })).toEqual(invalid("Invalid access token or password"));
    expect(await answerTo({ type: "auth", api_password: "secret" })).toEqual(invalid("Invalid access token or password"));
  });

  it("says how a malformed auth message is wrong, in voluptuous's words", async () => {
    const token = sim.users.tokenFor();
    expect(await answerTo({ type: "auth", access_token: 5 })).toEqual(
      invalid("Auth message incorrectly formatted: expected str for dictionary value @ data['access_token']. Got 5"),
    );
    expect(await answerTo({ type: "login", access_token: token })).toEqual(
      invalid("Auth message incorrectly formatted: not a valid value for dictionary value @ data['type']. Got 'login'"),
    );
    expect(await answerTo({ id: 1, type: "get_states" })).toEqual(
      invalid(
        "Auth message incorrectly formatted: extra keys not allowed @ data['id']. Got 1\nnot a valid value for dictionary value @ data['type']. Got 'get_states'",
      ),
    );
    expect(await answerTo({ access_token: token })).toEqual(invalid("Auth message incorrectly formatted: required key not provided @ data['type']. Got None"));
    expect(await answerTo([1, 2])).toEqual(invalid("Auth message incorrectly formatted: expected a dictionary. Got [1, 2]"));
    expect(await answerTo({ type: "auth", access_token: token, api_password: "x" })).toEqual(
      invalid("Auth message incorrectly formatted: two or more values in the same group of exclusion 'auth' @ data[<auth>]. Got None"),
    );
  });
});
