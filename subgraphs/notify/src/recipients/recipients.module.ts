import type { NotifyCapability } from '../notify.shared.js';
import { Recipient } from './recipient.entity.js';
import { RecipientResolver, RecipientUserFields } from './recipient.resolver.js';

/** Recipient profiles: addresses per channel, preferences, quiet hours. */
export const recipientsCapability: NotifyCapability = {
  name: 'recipients',
  resolvers: [RecipientResolver, RecipientUserFields],
  entities: [Recipient],
};
