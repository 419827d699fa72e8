import type pg from 'pg';
import type { Capability } from '../../../platform/capability.js';
import type { Config } from '../../../platform/config.js';
import type { Keyring } from '../../../platform/crypto/keyring.js';
import type { EventStream } from '../../../platform/events/event-stream.js';
import type { Logger } from '../../../platform/logger.js';
import type { ChannelProviders } from './channels/registry.js';
import type { TemplateRenderer } from './templates/template.render.js';

/** What the notify service builds once for its capabilities (index.ts): one notification machinery. */
export interface NotifyShared {
  config: Config;
  logger: Logger;
  pool: pg.Pool;
  keyring: Keyring;
  events: EventStream;
  providers: ChannelProviders;
  renderer: TemplateRenderer;
  /** Wakes this instance's dispatch workers (queued deliveries were committed). */
  kick(): void;
}

export type NotifyCapability = Capability<NotifyShared>;
