export { NO_KINDS, Vocabulary, classTerm, domainTerm, type KindRef, type Sense } from "./lookup.js";
export type { ActionId } from "./concept.js";
