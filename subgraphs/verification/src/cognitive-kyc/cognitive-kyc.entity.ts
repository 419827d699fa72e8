import { randomUUID } from 'node:crypto';
import { ReviewColumns } from '../review/review.entity.js';
import type { Opt } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { sealedEntity } from '../../../../platform/crypto/sealed-columns.js';
import { nameKey } from '../document/document-check.js';
import { DOCUMENT_NUMBER_SCOPE, FULL_NAME_SCOPE } from '../document/document.entity.js';
import type { DocumentFields, FraudIndicators, FraudRiskLevel } from './cognitive-kyc-check.js';
import type { CognitiveKycStatus } from './cognitive-kyc.lifecycle.js';

/** One AI identity check: what was measured and decided. The images are never stored. */
@Entity({ schema: 'verification', tableName: 'cognitive_kyc_checks' })
export class CognitiveKycCheck extends ReviewColumns {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @Property({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'text' })
  environment!: string;

  @Property({ type: 'text' })
  userId!: string;

  /** The decision; written only through COGNITIVE_KYC_LIFECYCLE. */
  @Property({ type: 'text' })
  decision!: CognitiveKycStatus;

  @Property({ type: 'double' })
  confidence!: number;

  /** 0–1; null when the document showed no face. */
  @Property({ type: 'double', nullable: true })
  faceMatchScore?: number | null;

  @Property({ type: 'text' })
  faceMatchReasoning!: string;

  /** What was read from the document (name, date of birth, number…): sealed in `documentFieldsSealed`. */
  @Property({ type: 'json', persist: false })
  documentFields!: DocumentFields;

  @Property({ type: 'text', nullable: true, hidden: true })
  documentFieldsSealed?: string | null;

  /** Blind index of documentFields.documentNumber, for the fraud history's search. */
  @Property({ type: 'text', nullable: true, hidden: true })
  documentNumberIndex?: string | null;

  /** Blind index of the full name normalised (`nameKey`), for the fraud history's search. */
  @Property({ type: 'text', nullable: true, hidden: true })
  fullNameKey?: string | null;

  @Property({ type: 'json' })
  fraudIndicators!: FraudIndicators;

  @Property({ type: 'integer' })
  priorVerifications!: number;

  @Property({ type: 'integer' })
  flaggedAttempts!: number;

  @Property({ type: 'text' })
  riskLevel!: FraudRiskLevel;

  /** Why it was rejected or sent to review (codes). */
  @Property({ type: 'json' })
  reasons: string[] & Opt = [];

  /** The selfie's face description (never shown): kept for later comparisons; the images are not. Sealed. */
  @Property({ type: 'json', hidden: true, persist: false })
  selfieEmbedding!: number[];

  @Property({ type: 'text', nullable: true, hidden: true })
  selfieEmbeddingSealed?: string | null;

  @Property({ type: 'datetime' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'datetime', onUpdate: () => new Date() })
  updatedAt: Date & Opt = new Date();
}

sealedEntity(CognitiveKycCheck, {
  table: 'verification.cognitive_kyc_checks',
  fields: [
    {
      plain: 'documentFields',
      sealed: 'documentFieldsSealed',
      column: 'document_fields_sealed',
      legacyColumn: 'document_fields_plaintext',
      indexes: [
        {
          property: 'documentNumberIndex',
          column: 'document_number_index',
          scope: DOCUMENT_NUMBER_SCOPE,
          of: (d: DocumentFields) => d.documentNumber,
        },
        { property: 'fullNameKey', column: 'full_name_key', scope: FULL_NAME_SCOPE, of: (d: DocumentFields) => nameKey(d.fullName) },
      ],
    },
    {
      plain: 'selfieEmbedding',
      sealed: 'selfieEmbeddingSealed',
      column: 'selfie_embedding_sealed',
      legacyColumn: 'selfie_embedding_plaintext',
    },
  ],
});
