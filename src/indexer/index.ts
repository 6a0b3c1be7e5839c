export { createHomeIndex, type HomeIndex, type HomeIndexDeps, type IndexStats } from "./home-index.js";
export type { SearchOptions, SearchResult } from "./graph.js";
export { searchNote } from "./note.js";
export { whereSpoken } from "./where-spoken.js";
export { IndexFilterError, type EntityFilter } from "./filters.js";
export type { RenderedContext } from "./render.js";
export { TARGET_KINDS, type TargetIds, type TargetKind, type TargetResolution } from "./targets.js";
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
export { IndexMetaSchema, INDEX_FORMAT_VERSION, readIndexMeta, type IndexMeta } from "./meta.js";
