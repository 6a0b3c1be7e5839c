export { createHomeIndex, type HomeIndex, type HomeIndexDeps, type IndexStats } from "./home-index.js";
export { HomeGraph, type SearchOptions, type SearchResult } from "./graph.js";
export { IndexFilterError, type EntityFilter } from "./filters.js";
export { renderEntities, estimateTokens, type RenderedContext } from "./render.js";
export { INDEX_FORMAT_VERSION, IndexMetaSchema, readIndexMeta, writeIndexMeta, type IndexMeta } from "./meta.js";
export type {
  AreaInfo,
  ConfigEntryInfo,
  DeviceInfo,
  EntityStructure,
  FloorInfo,
  IndexedEntity,
  LabelInfo,
  LiveState,
  Registries,
} from "./model.js";
