import { randomUUID } from 'node:crypto';
import type { Opt } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { FlowStatus } from './flow.lifecycle.js';
import type { FlowBranding, FlowStep } from './flow.steps.js';

@Entity({ schema: 'verification', tableName: 'verification_flows' })
export class VerificationFlow {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @Property({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'text' })
  environment!: string;

  /** The API client that created it: the page's session is minted in its name (its revocation ends the flow). */
  @Property({ type: 'uuid' })
  clientId!: string;

  @Property({ type: 'text' })
  userId!: string;

  /** In the order the page takes them. */
  @Property({ type: 'json' })
  steps!: FlowStep[];

  /** Given when the steps came from an identity tier: the identity verification they complete. */
  @Property({ type: 'text', nullable: true })
  tier?: string | null;

  @Property({ type: 'uuid', nullable: true })
  identityVerificationId?: string | null;

  @Property({ type: 'text' })
  locale!: string;

  @Property({ type: 'text' })
  redirectUrl!: string;

  @Property({ type: 'json', nullable: true })
  branding?: FlowBranding | null;

  /** Origins whose pages may embed the flow (frame-ancestors); none: only the hosted page. */
  @Property({ type: 'json' })
  embedOrigins: string[] & Opt = [];

  /** SHA-256 of the link's token (the token itself is shown once, in the URL). */
  @Property({ type: 'text' })
  linkHash!: string;

  /** Written only through FLOW_LIFECYCLE. */
  @Property({ type: 'text' })
  status!: FlowStatus;

  @Property({ type: 'datetime' })
  expiresAt!: Date;

  @Property({ type: 'datetime', nullable: true })
  openedAt?: Date | null;

  @Property({ type: 'datetime' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'datetime', onUpdate: () => new Date() })
  updatedAt: Date & Opt = new Date();
}
