import { HaAgentError, importPackage } from "../../shared/index.js";

/**
 * What the demo model needs from the `@ha-agent/model-fakes` package, which
 * the add-on image does not hold: declared here, so the program compiles
 * without it, and loaded by name at run time (see loadFakeGemini).
 * `test/models/demo-port.test.ts` holds the package to these shapes.
 */

/** A generateContent request as the planner reads it: Gemini's own wire shape. */
export interface PlannerRequest {
  contents?: { role?: string; parts?: Record<string, unknown>[] }[];
  systemInstruction?: { parts?: { text?: string }[] };
  tools?: { functionDeclarations?: { name: string; description?: string; parametersJsonSchema?: unknown }[] }[];
}

/** One planned answer: text, or function calls (several mean parallel calls), with the thinking before it. */
export interface PlannerReply {
  text?: string;
  thought?: string;
  calls?: { name: string; args?: Record<string, unknown> }[];
}

export interface FakeGeminiPort {
  startFakeGemini(options: {
    port?: number;
    host?: string;
    apiKey?: string;
    models?: string[];
    responder: (body: PlannerRequest) => PlannerReply;
  }): Promise<{ url: string; close(): Promise<void> }>;
}

export const MODEL_FAKES_PACKAGE = "@ha-agent/model-fakes";

/** The demo model cannot start: what is missing, and what to do instead. */
export class DemoModelUnavailableError extends HaAgentError {
  constructor(packageName: string) {
    super(
      "demo_model_unavailable",
      `The demo model needs the ${packageName} package, which only a clone of the HA Agent repository holds (the add-on image does not): run the demo from a clone with \`npm ci && npm start\`, or configure a real model (GEMINI_API_KEY, or MODEL_PROVIDER with its URL).`,
    );
  }
}

/** The fake Gemini server, from the package a clone of the repository holds (see importPackage). */
export function loadFakeGemini(packageName: string = MODEL_FAKES_PACKAGE): Promise<FakeGeminiPort> {
  return importPackage(packageName, () => new DemoModelUnavailableError(packageName));
}
