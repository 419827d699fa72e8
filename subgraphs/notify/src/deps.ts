import type pg from 'pg';
import type { Config } from '../../../platform/config.js';
import type { PgBoss } from '../../../platform/jobs.js';
import type { Logger } from '../../../platform/logger.js';
import type { ChannelProviders } from './channels/registry.js';
import type { TemplateRenderer } from './templates/template.render.js';

/** What the notify subgraph's resolvers and routes need beyond the request context. */
export interface NotifyDeps {
  config: Config;
  logger: Logger;
  pool: pg.Pool;
  providers: ChannelProviders;
  renderer: TemplateRenderer;
  /** pg-boss: dispatch jobs are created in the acceptance transaction. */
  jobs: PgBoss;
  /** Wakes this instance's dispatch workers (new jobs were committed). */
  kick(): void;
}
