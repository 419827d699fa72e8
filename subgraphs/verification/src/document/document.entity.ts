import { randomUUID } from 'node:crypto';
import type { Opt } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { DocumentStatus } from './document.lifecycle.js';
import type { DocumentOutcome, DocumentType, ExtractedData } from './document-check.js';

@Entity({ schema: 'verification', tableName: 'document_verifications' })
export class DocumentVerification {
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

  @Property({ type: 'json', nullable: true })
  extractedData?: ExtractedData | null;

  /** extractedData.fullName as searches compare it (`nameKey`): the fraud history finds documents by name. */
  @Property({ type: 'text', nullable: true })
  fullNameKey?: string | null;

  @Property({ type: 'double', nullable: true })
  confidence?: number | null;

  /** Why it was rejected or sent to review (codes). */
  @Property({ type: 'json' })
  reasons: string[] & Opt = [];

  @Property({ type: 'json', nullable: true })
  checks?: DocumentOutcome['checks'] | null;

  /** The portrait's face description (never shown): identity verifications compare the selfie with it. */
  @Property({ type: 'json', nullable: true, hidden: true })
  faceEmbedding?: number[] | null;

  @Property({ type: 'datetime', nullable: true })
  verifiedAt?: Date | null;

  /** When the automatic check decided. */
  @Property({ type: 'datetime', nullable: true })
  checkedAt?: Date | null;

  @Property({ type: 'text', nullable: true })
  reviewedBy?: string | null;

  @Property({ type: 'text', nullable: true })
  reviewNotes?: string | null;

  @Property({ type: 'datetime', nullable: true })
  reviewedAt?: Date | null;

  @Property({ type: 'datetime', nullable: true })
  imagesDeletedAt?: Date | null;

  @Property({ type: 'datetime' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'datetime', onUpdate: () => new Date() })
  updatedAt: Date & Opt = new Date();
}
