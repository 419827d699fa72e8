/** The screening library: list importers, versioned snapshots and the name-matching engine. */
export * from './types.js';
export { ScreeningIndex } from './matching/screening-index.js';
export { compareNames } from './matching/name-score.js';
export { prepareName } from './matching/normalize.js';
export { ScreeningEngine, acquireScreeningEngine, type ScreeningEngineOptions } from './engine.js';
export {
  importSnapshot,
  listSnapshots,
  getSnapshot,
  snapshotChanges,
  snapshotEntries,
  currentVersions,
  LISTS_CHANNEL,
  type ImportResult,
  type ImportOptions,
  type SnapshotInfo,
  type SnapshotChange,
} from './lists/store.js';
export { parseList, detectFormat, LIST_FORMATS, type ListFile, type ListFormat, type ParsedList } from './lists/parse.js';
