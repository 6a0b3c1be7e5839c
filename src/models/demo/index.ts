export { demoProvider, DEMO_LABEL, DEMO_MODEL } from "./provider.js";
export { demoPlan } from "./planner.js";
