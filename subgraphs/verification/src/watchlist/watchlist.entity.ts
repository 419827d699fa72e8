import { randomUUID } from 'node:crypto';
import { ScreenedPersonColumns } from '../screened-person/screened-person.js';
import { sealedEntity } from '../../../../platform/crypto/sealed-columns.js';
import type { Opt } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { ListKind } from '../../../../screening/index.js';
import type { AlertStatus, SubscriptionStatus } from './watchlist.lifecycle.js';

@Entity({ schema: 'verification', tableName: 'watchlist_subscriptions' })
export class WatchlistSubscription extends ScreenedPersonColumns {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @Property({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'text' })
  environment!: string;

  @Property({ type: 'text' })
  userId!: string;

  /** Form B's `country` (kept; not a matching qualifier: residence is not nationality). */
  @Property({ type: 'text', nullable: true })
  country?: string | null;

  @Property({ type: 'json' })
  lists!: ListKind[];

  /** Written only through SUBSCRIPTION_LIFECYCLE. */
  @Property({ type: 'text' })
  status!: SubscriptionStatus;

  @Property({ type: 'double' })
  matchThreshold!: number;

  @Property({ type: 'datetime', nullable: true })
  nextScanAt?: Date | null;

  @Property({ type: 'datetime', nullable: true })
  lastScanAt?: Date | null;

  /** List versions of the last scan: a new snapshot makes them differ, which triggers a rescan. */
  @Property({ type: 'json', nullable: true })
  scannedVersions?: Record<string, string> | null;

  @Property({ type: 'datetime' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'datetime', nullable: true })
  cancelledAt?: Date | null;
}

export interface AlertMatch {
  listName: string;
  matchScore: number;
  matchedName: string;
  source: string;
  addedDate: string | null;
  kind: ListKind;
  externalId: string;
  primaryName: string;
  listVersion: string;
  programs: string[];
  /** INDIVIDUAL or UNKNOWN (the watchlist screens individuals); absent on alerts raised before it was kept. */
  entityType?: string;
}

@Entity({ schema: 'verification', tableName: 'watchlist_alerts' })
export class WatchlistAlert {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @Property({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'text' })
  environment!: string;

  @Property({ type: 'uuid' })
  subscriptionId!: string;

  @Property({ type: 'text' })
  userId!: string;

  /** Written only through ALERT_LIFECYCLE. */
  @Property({ type: 'text' })
  status!: AlertStatus;

  @Property({ type: 'json' })
  match!: AlertMatch;

  @Property({ type: 'datetime' })
  detectedAt: Date & Opt = new Date();

  /** The alert's creation, when its match was detected (the order of the alerts' connection). */
  @Property({ type: 'datetime' })
  createdAt: Date & Opt = new Date();

  /** Set when the match disappeared from the lists (watchlist.clear). */
  @Property({ type: 'datetime', nullable: true })
  clearedAt?: Date | null;

  @Property({ type: 'text', nullable: true })
  reviewedBy?: string | null;

  @Property({ type: 'text', nullable: true })
  reviewNote?: string | null;

  @Property({ type: 'datetime', nullable: true })
  reviewedAt?: Date | null;
}

/** A list entry a subscription currently matches; `clearedAt` once it no longer does. */
@Entity({ schema: 'verification', tableName: 'watchlist_matches' })
export class WatchlistMatch {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @Property({ type: 'uuid' })
  subscriptionId!: string;

  @Property({ type: 'text' })
  source!: string;

  @Property({ type: 'text' })
  externalId!: string;

  @Property({ type: 'double' })
  score!: number;

  @Property({ type: 'uuid' })
  alertId!: string;

  @Property({ type: 'datetime' })
  firstDetectedAt: Date & Opt = new Date();

  @Property({ type: 'datetime' })
  lastSeenAt: Date & Opt = new Date();

  @Property({ type: 'datetime', nullable: true })
  clearedAt?: Date | null;
}

sealedEntity(WatchlistSubscription, {
  table: 'verification.watchlist_subscriptions',
  fields: [{ plain: 'dateOfBirth', sealed: 'dateOfBirthSealed', column: 'date_of_birth_sealed', legacyColumn: 'date_of_birth_plaintext' }],
});
