import type { Config } from '../../../platform/config.js';
import type { EventStream } from '../../../platform/events/event-stream.js';

/** What the verification subgraph's resolvers need beyond the request context. */
export interface VerificationDeps {
  config: Config;
  events: EventStream;
  webhooks: { enqueue(deliveryId: string): Promise<void> };
}
