import { randomUUID } from 'node:crypto';
import { ReviewColumns } from '../review/review.entity.js';
import type { Opt } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { AddressDocumentType } from './address-decision.js';
import type { AddressDocumentFields } from './address-fields.js';
import type { AddressStatus } from './address.lifecycle.js';

@Entity({ schema: 'verification', tableName: 'address_verifications' })
export class AddressVerification extends ReviewColumns {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @Property({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'text' })
  environment!: string;

  @Property({ type: 'text' })
  userId!: string;

  @Property({ type: 'text' })
  documentType!: AddressDocumentType;

  /** ISO 3166-1 alpha-2 (Form A); null when not given (Form B). */
  @Property({ type: 'text', nullable: true })
  country?: string | null;

  /** Written only through ADDRESS_LIFECYCLE. */
  @Property({ type: 'text' })
  status!: AddressStatus;

  /** UPLOAD (Form A) or URL (Form B). */
  @Property({ type: 'text' })
  documentSource!: 'UPLOAD' | 'URL';

  /** Form B's URL without its query string (a signed URL's token is not kept). */
  @Property({ type: 'text', nullable: true })
  documentUrl?: string | null;

  /** platform.files id of the document image (as received or downloaded, normalised to JPEG). */
  @Property({ type: 'uuid' })
  fileId!: string;

  /** When the image's bytes were deleted (erasure of the user, or retention); the record stays. */
  @Property({ type: 'datetime', nullable: true })
  documentDeletedAt?: Date | null;

  /** The address the user declared (Form A `expectedAddress`, Form B `declaredAddress`). */
  @Property({ type: 'text', nullable: true })
  expectedAddress?: string | null;

  @Property({ type: 'json', nullable: true })
  extractedData?: AddressDocumentFields | null;

  @Property({ type: 'integer', nullable: true })
  documentAgeDays?: number | null;

  @Property({ type: 'boolean', nullable: true })
  addressMatch?: boolean | null;

  @Property({ type: 'double', nullable: true })
  addressMatchScore?: number | null;

  @Property({ type: 'text', nullable: true })
  addressMatchExplanation?: string | null;

  /** Mean OCR confidence of the document's lines, 0–100. */
  @Property({ type: 'double', nullable: true })
  textConfidence?: number | null;

  @Property({ type: 'json' })
  reasons: string[] & Opt = [];

  @Property({ type: 'datetime', nullable: true })
  checkedAt?: Date | null;

  /** When it reached VERIFIED or REJECTED. */
  @Property({ type: 'datetime', nullable: true })
  completedAt?: Date | null;

  @Property({ type: 'datetime' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'datetime', onUpdate: () => new Date() })
  updatedAt: Date & Opt = new Date();
}
