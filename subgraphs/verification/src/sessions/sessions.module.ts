import type { VerificationCapability } from '../verification.shared.js';
import { SessionResolver } from './session.resolver.js';

/** Session tokens for browsers and apps (scoped, short-lived). */
export const sessionsCapability: VerificationCapability = {
  name: 'sessions',
  resolvers: [SessionResolver],
};
