import { randomUUID } from 'node:crypto';
import { ReviewColumns } from '../review/review.entity.js';
import type { Opt } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { IdentityStatus, IdentityTier } from './identity.lifecycle.js';
import type { IdentitySteps } from './identity-progress.js';

export { IDENTITY_TIERS, type IdentityTier } from './identity.lifecycle.js';

@Entity({ schema: 'verification', tableName: 'identity_verifications' })
export class IdentityVerification extends ReviewColumns {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @Property({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'text' })
  environment!: string;

  @Property({ type: 'text' })
  userId!: string;

  @Property({ type: 'text' })
  tier!: IdentityTier;

  /** Written only through IDENTITY_LIFECYCLE. */
  @Property({ type: 'text' })
  overallStatus!: IdentityStatus;

  @Property({ type: 'double', nullable: true })
  faceMatchScore?: number | null;

  @Property({ type: 'datetime', nullable: true })
  verifiedAt?: Date | null;

  /** Per-step progress, once a submission arrived (written by the orchestrator). */
  @Property({ type: 'json', nullable: true })
  steps?: IdentitySteps | null;

  /** Why it was rejected or needs a reviewer (identity-progress.ts codes). */
  @Property({ type: 'json' })
  reasons: string[] & Opt = [];

  /** The submissions it was decided on. */
  @Property({ type: 'uuid', nullable: true })
  documentVerificationId?: string | null;

  @Property({ type: 'uuid', nullable: true })
  livenessSessionId?: string | null;

  @Property({ type: 'uuid', nullable: true })
  amlScreeningId?: string | null;

  /** Set by restart: the verification no longer counts; `replacedById` is the new one. */
  @Property({ type: 'datetime', nullable: true })
  invalidatedAt?: Date | null;

  @Property({ type: 'uuid', nullable: true })
  replacedById?: string | null;

  @Property({ type: 'uuid', nullable: true })
  restartedFromId?: string | null;

  @Property({ type: 'datetime' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'datetime', onUpdate: () => new Date() })
  updatedAt: Date & Opt = new Date();
}
