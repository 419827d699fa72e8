import type { NotifyCapability } from '../notify.shared.js';
import { BatchResolver } from './batch.resolver.js';

/** Batches of up to 10,000 notifications from one template. */
export const batchCapability: NotifyCapability = { name: 'batch', resolvers: [BatchResolver], webhookEvents: ['batch.completed'] };
