export { demoProvider, DEMO_LABEL, DEMO_MODEL } from "./provider.js";
export { demoPlan } from "./planner.js";
export { loadFakeGemini, DemoModelUnavailableError, MODEL_FAKES_PACKAGE, type FakeGeminiPort, type PlannerReply, type PlannerRequest } from "./gemini-port.js";
