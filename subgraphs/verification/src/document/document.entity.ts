import { randomUUID } from 'node:crypto';
import { ReviewColumns } from '../review/review.entity.js';
import type { Opt } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { DocumentStatus } from './document.lifecycle.js';
import { sealedEntity } from '../../../../platform/crypto/sealed-columns.js';
import { nameKey, type DocumentOutcome, type DocumentType, type ExtractedData } from './document-check.js';

@Entity({ schema: 'verification', tableName: 'document_verifications' })
export class DocumentVerification extends ReviewColumns {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @Property({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'text' })
  environment!: string;

  @Property({ type: 'text' })
  userId!: string;

  @Property({ type: 'text' })
  documentType!: DocumentType;

  /** ISO 3166-1 alpha-2 */
  @Property({ type: 'text' })
  documentCountry!: string;

  /** Written only through DOCUMENT_LIFECYCLE. */
  @Property({ type: 'text' })
  status!: DocumentStatus;

  /** platform.files ids of the images (the bytes may be deleted later; the ids stay). */
  @Property({ type: 'uuid' })
  frontFileId!: string;

  @Property({ type: 'uuid', nullable: true })
  backFileId?: string | null;

  /** What was read (names, date of birth, document number…): sealed in `extractedDataSealed`. */
  @Property({ type: 'json', nullable: true, persist: false })
  extractedData?: ExtractedData | null;

  @Property({ type: 'text', nullable: true, hidden: true })
  extractedDataSealed?: string | null;

  /** Blind index of extractedData.documentNumber: the fraud history finds documents by number. */
  @Property({ type: 'text', nullable: true, hidden: true })
  documentNumberIndex?: string | null;

  /** Blind index of extractedData.fullName as searches compare it (`nameKey`): the fraud history finds documents by name. */
  @Property({ type: 'text', nullable: true, hidden: true })
  fullNameKey?: string | null;

  @Property({ type: 'double', nullable: true })
  confidence?: number | null;

  /** Why it was rejected or sent to review (codes). */
  @Property({ type: 'json' })
  reasons: string[] & Opt = [];

  @Property({ type: 'json', nullable: true })
  checks?: DocumentOutcome['checks'] | null;

  /** The portrait's face description (never shown): identity verifications compare the selfie with it. Sealed. */
  @Property({ type: 'json', nullable: true, hidden: true, persist: false })
  faceEmbedding?: number[] | null;

  @Property({ type: 'text', nullable: true, hidden: true })
  faceEmbeddingSealed?: string | null;

  @Property({ type: 'datetime', nullable: true })
  verifiedAt?: Date | null;

  /** When the automatic check decided. */
  @Property({ type: 'datetime', nullable: true })
  checkedAt?: Date | null;

  @Property({ type: 'datetime', nullable: true })
  imagesDeletedAt?: Date | null;

  @Property({ type: 'datetime' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'datetime', onUpdate: () => new Date() })
  updatedAt: Date & Opt = new Date();
}

/** Search scopes of the document blind indexes (the fraud history searches both kinds of record with them). */
export const DOCUMENT_NUMBER_SCOPE = 'document-number';
export const FULL_NAME_SCOPE = 'full-name';

sealedEntity(DocumentVerification, {
  table: 'verification.document_verifications',
  fields: [
    {
      plain: 'extractedData',
      sealed: 'extractedDataSealed',
      column: 'extracted_data_sealed',
      legacyColumn: 'extracted_data_plaintext',
      indexes: [
        {
          property: 'documentNumberIndex',
          column: 'document_number_index',
          scope: DOCUMENT_NUMBER_SCOPE,
          of: (d: ExtractedData) => d.documentNumber,
        },
        { property: 'fullNameKey', column: 'full_name_key', scope: FULL_NAME_SCOPE, of: (d: ExtractedData) => nameKey(d.fullName) },
      ],
    },
    { plain: 'faceEmbedding', sealed: 'faceEmbeddingSealed', column: 'face_embedding_sealed', legacyColumn: 'face_embedding_plaintext' },
  ],
});
