import { randomUUID } from 'node:crypto';
import { ScreenedPersonColumns } from '../screened-person/screened-person.js';
import { sealedEntity } from '../../../../platform/crypto/sealed-columns.js';
import type { Opt } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { ListKind, MatchExplanation } from '../../../../screening/index.js';
import type { AmlBatchStatus, AmlRiskLevel, AmlStatus, HitResolution, SubjectStatus } from './aml.lifecycle.js';

/** One AML screening of a person (POST /screening/aml, or one subject of a batch). */
@Entity({ schema: 'verification', tableName: 'aml_screenings' })
export class AmlScreening extends ScreenedPersonColumns {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @Property({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'text' })
  environment!: string;

  @Property({ type: 'text' })
  userId!: string;

  @Property({ type: 'text', nullable: true })
  documentNumber?: string | null;

  @Property({ type: 'double' })
  matchThreshold!: number;

  /** The list kinds asked for (all four by default). */
  @Property({ type: 'json' })
  lists!: ListKind[];

  @Property({ type: 'text' })
  status!: AmlStatus;

  @Property({ type: 'text' })
  riskLevel!: AmlRiskLevel;

  @Property({ type: 'integer' })
  matchCount!: number;

  /** Sources screened against (OFAC_SDN, UN_SC, …). */
  @Property({ type: 'json' })
  listsChecked!: string[];

  /** Source → snapshot version screened against, with the source's kind. */
  @Property({ type: 'json' })
  listVersions!: Array<{ source: string; version: string; kind: ListKind }>;

  @Property({ type: 'uuid', nullable: true })
  batchId?: string | null;

  @Property({ type: 'datetime' })
  checkedAt!: Date;

  /** When the last open match was resolved. */
  @Property({ type: 'datetime', nullable: true })
  resolvedAt?: Date | null;

  @Property({ type: 'datetime' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'datetime', onUpdate: () => new Date() })
  updatedAt: Date & Opt = new Date();
}

/** One list entry that matched a screening, with its explanation and its review. */
@Entity({ schema: 'verification', tableName: 'aml_hits' })
export class AmlHit {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @Property({ type: 'uuid' })
  screeningId!: string;

  @Property({ type: 'integer' })
  position!: number;

  @Property({ type: 'text' })
  source!: string;

  @Property({ type: 'text' })
  kind!: ListKind;

  @Property({ type: 'text' })
  externalId!: string;

  @Property({ type: 'text' })
  entityType!: string;

  @Property({ type: 'text' })
  primaryName!: string;

  @Property({ type: 'text' })
  matchedName!: string;

  @Property({ type: 'double' })
  score!: number;

  @Property({ type: 'json' })
  explanation!: MatchExplanation;

  @Property({ type: 'json' })
  programs!: string[];

  @Property({ type: 'text', nullable: true })
  addedDate?: string | null;

  @Property({ type: 'text' })
  listVersion!: string;

  @Property({ type: 'text' })
  resolution: HitResolution & Opt = 'OPEN';

  @Property({ type: 'text', nullable: true })
  resolvedBy?: string | null;

  @Property({ type: 'text', nullable: true })
  resolutionReason?: string | null;

  @Property({ type: 'datetime', nullable: true })
  resolvedAt?: Date | null;
}

/** POST /screening/aml/batch: up to 100 subjects screened by a job. */
@Entity({ schema: 'verification', tableName: 'aml_batches' })
export class AmlBatch {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @Property({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'text' })
  environment!: string;

  /** Written only through AML_BATCH_LIFECYCLE. */
  @Property({ type: 'text' })
  status!: AmlBatchStatus;

  @Property({ type: 'integer' })
  total!: number;

  @Property({ type: 'integer' })
  processed: number & Opt = 0;

  @Property({ type: 'integer' })
  clearCount: number & Opt = 0;

  @Property({ type: 'integer' })
  flaggedCount: number & Opt = 0;

  @Property({ type: 'integer' })
  failedCount: number & Opt = 0;

  @Property({ type: 'text', nullable: true })
  callbackUrl?: string | null;

  /** Signs the callback (shown once, in the 202 answer); handed to the callback's delivery on completion. */
  @Property({ type: 'text', nullable: true, hidden: true })
  callbackSecret?: string | null;

  /** The callback's delivery (platform.deliveries), scheduled when the batch completes. */
  @Property({ type: 'uuid', nullable: true })
  callbackDeliveryId?: string | null;

  @Property({ type: 'datetime' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'datetime', nullable: true })
  completedAt?: Date | null;
}

export interface AmlRequest {
  userId: string;
  fullName: string;
  dateOfBirth?: string | null;
  nationality?: string | null;
  documentNumber?: string | null;
  matchThreshold?: number | null;
  lists?: ListKind[] | null;
}

@Entity({ schema: 'verification', tableName: 'aml_batch_subjects' })
export class AmlBatchSubject {
  @PrimaryKey({ type: 'uuid' })
  batchId!: string;

  @PrimaryKey({ type: 'integer' })
  position!: number;

  @Property({ type: 'json' })
  input!: AmlRequest;

  /** Written only through AML_SUBJECT_LIFECYCLE. */
  @Property({ type: 'text' })
  status!: SubjectStatus;

  @Property({ type: 'uuid', nullable: true })
  screeningId?: string | null;

  @Property({ type: 'text', nullable: true })
  error?: string | null;
}

sealedEntity(AmlScreening, {
  table: 'verification.aml_screenings',
  fields: [{ plain: 'dateOfBirth', sealed: 'dateOfBirthSealed', column: 'date_of_birth_sealed', legacyColumn: 'date_of_birth_plaintext' }],
});
