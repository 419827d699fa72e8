import { randomUUID } from 'node:crypto';
import type { Opt } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { DedupStatus } from './dedup.lifecycle.js';

/** One enrolled face it resembled: the API's 0–1 similarity, never the face itself. */
export interface DedupMatch {
  matchedUserId: string;
  similarity: number;
  enrolledAt: string;
}

/** A deduplication check: its outcome only (the selfie is not kept, the face vector only when enrolled). */
@Entity({ schema: 'verification', tableName: 'biometric_dedup_checks' })
export class BiometricDedupCheck {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @Property({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'text' })
  environment!: string;

  @Property({ type: 'text' })
  userId!: string;

  /** Written only through DEDUP_LIFECYCLE. */
  @Property({ type: 'text' })
  status!: DedupStatus;

  @Property({ type: 'boolean' })
  matchFound!: boolean;

  @Property({ type: 'boolean' })
  enrolled!: boolean;

  /** The API score from which an enrolled face counted as a match, 0–1. */
  @Property({ type: 'double' })
  threshold!: number;

  /** Most similar first; empty unless DUPLICATE. */
  @Property({ type: 'json' })
  matches: DedupMatch[] & Opt = [];

  /** Why an ERROR check could not compare (no face, several faces). */
  @Property({ type: 'text', nullable: true })
  errorReason?: string | null;

  @Property({ type: 'datetime' })
  checkedAt!: Date;

  @Property({ type: 'datetime' })
  createdAt: Date & Opt = new Date();
}
