import type pg from 'pg';
import type { Logger } from '../../../../platform/logger.js';
import { ScreeningEngine } from '../../../../screening/index.js';
import type { ScreeningEngineLike } from './sanctions.layer.js';

export interface LoadedEngine {
  engine: ScreeningEngineLike;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The screening library's engine, loaded in-process: an in-memory index over the newest snapshot
 * of every list (the `screening` schema), rebuilt on every instance when a snapshot lands.
 */
export function loadScreeningEngine(pool: pg.Pool, logger: Logger): LoadedEngine {
  const engine = new ScreeningEngine({ pool, logger });
  return { engine, start: () => engine.start(), stop: () => engine.stop() };
}
