import type { VerificationCapability } from '../verification.shared.js';
import { AuditResolver } from './audit.resolver.js';

/** The audit trail: who did what, to which record. */
export const auditCapability: VerificationCapability = {
  name: 'audit',
  resolvers: [AuditResolver],
};
