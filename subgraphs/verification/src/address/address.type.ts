import { Directive, Field, Float, ID, ObjectType, registerEnumType } from 'type-graphql';
import { ReviewedFields } from '../review/review.type.js';
import { ConnectionType } from '../../../../platform/graphql/connection.js';
import { EventEnvelopeType } from '../../../../platform/graphql/event-envelope.js';
import { UserError } from '../../../../platform/graphql/user-errors.js';
import { ADDRESS_DOCUMENT_TYPES } from './address-decision.js';
import { ADDRESS_STATUSES } from './address.lifecycle.js';

const enumOf = <T extends string>(values: readonly T[]) => Object.fromEntries(values.map((v) => [v, v])) as { [K in T]: K };

export const AddressDocumentTypeEnum = enumOf(ADDRESS_DOCUMENT_TYPES);
export const AddressStatusEnum = enumOf(ADDRESS_STATUSES);
export const AddressDocumentSourceEnum = enumOf(['UPLOAD', 'URL'] as const);
registerEnumType(AddressDocumentTypeEnum, {
  name: 'AddressDocumentType',
  description: 'The kind of proof of address',
  valuesConfig: {
    UTILITY_BILL: { description: 'An electricity, water or internet bill' },
    BANK_STATEMENT: { description: 'A bank statement' },
    TAX_DOCUMENT: { description: 'A tax document' },
    GOVERNMENT_LETTER: { description: 'A letter from a government body' },
  },
});
registerEnumType(AddressStatusEnum, {
  name: 'AddressStatus',
  description: 'Where an address verification stands',
  valuesConfig: {
    PROCESSING: { description: 'Document received; it is being read and checked' },
    VERIFIED: { description: 'The address is confirmed by a recent document (or a reviewer accepted it)' },
    REJECTED: { description: 'The document is invalid, older than 3 months, or shows another address (or a reviewer rejected it)' },
    MANUAL_REVIEW: { description: 'Low confidence or a partial mismatch: a reviewer decides' },
  },
});
registerEnumType(AddressDocumentSourceEnum, {
  name: 'AddressDocumentSource',
  description: 'How the document came',
  valuesConfig: { UPLOAD: { description: 'Uploaded with the request' }, URL: { description: 'Downloaded from documentUrl' } },
});

@ObjectType('AddressExtractedData', { description: 'The fields read from a proof of address (English or French labels)' })
export class AddressExtractedDataType {
  @Field(() => String, { nullable: true, description: 'The account holder’s name' })
  fullName?: string | null;

  @Field(() => String, { nullable: true, description: 'The address printed on the document' })
  address?: string | null;

  @Field(() => String, { nullable: true, description: 'The date of issue, YYYY-MM-DD' })
  issueDate?: string | null;

  @Field(() => String, { nullable: true, description: 'Who issued it (its labelled issuer, else its heading)' })
  issuer?: string | null;
}

@ObjectType('AddressVerification', { description: 'A proof of address submitted for a user, and what its check decided' })
@Directive('@key(fields: "id")')
export class AddressVerificationType extends ReviewedFields {
  @Field(() => ID, { description: 'Identifier of the address verification' })
  id!: string;

  @Field({ description: 'Your identifier of the user' })
  userId!: string;

  @Field(() => AddressDocumentTypeEnum, { description: 'The kind of document' })
  documentType!: string;

  @Field(() => AddressStatusEnum, { description: 'Where it stands' })
  status!: string;

  @Field({ description: 'When it was submitted' })
  createdAt!: Date;

  @Field(() => AddressExtractedDataType, { nullable: true, description: 'The fields read; null until checked' })
  extractedData?: AddressExtractedDataType | null;

  @Field(() => Boolean, {
    nullable: true,
    description: 'Whether the document shows the declared address; null until checked, or when no address was declared or read',
  })
  addressMatch?: boolean | null;

  /** Resolved as text (address.resolver.ts). */
  documentAgeDays?: number | null;

  @Field(() => Date, { nullable: true, description: 'When it reached VERIFIED or REJECTED' })
  completedAt?: Date | null;

  @Field(() => String, { nullable: true, description: 'Issuing country, ISO 3166-1 alpha-2 (given with an upload)' })
  country?: string | null;

  @Field(() => AddressDocumentSourceEnum, { description: 'Uploaded, or downloaded from a URL' })
  documentSource!: string;

  @Field(() => String, { nullable: true, description: 'The URL it was downloaded from, without its query string' })
  documentUrl?: string | null;

  /** Resolved into a URL (address.resolver.ts). */
  fileId!: string;

  @Field(() => Date, {
    nullable: true,
    description: 'When the document image was deleted (erasure of the user, or retention); null while kept',
  })
  documentDeletedAt?: Date | null;

  @Field(() => String, { nullable: true, description: 'The address the user declared' })
  expectedAddress?: string | null;

  @Field(() => Float, { nullable: true, description: 'How alike the declared and the read address are, 0 to 1 (match at 0.85)' })
  addressMatchScore?: number | null;

  @Field(() => String, { nullable: true, description: 'The comparison explained: what was found, what differs, the score' })
  addressMatchExplanation?: string | null;

  @Field(() => Float, { nullable: true, description: 'The text recognition’s mean confidence, 0 to 100' })
  textConfidence?: number | null;

  @Field(() => [String], {
    description:
      'Why it was rejected or sent to review, as codes: DOCUMENT_TOO_OLD, ADDRESS_MISMATCH, UNREADABLE_DOCUMENT, ISSUE_DATE_NOT_READ, ISSUE_DATE_IN_FUTURE, ADDRESS_NOT_READ, ADDRESS_PARTIAL_MATCH, LOW_TEXT_CONFIDENCE, DOCUMENT_MISSING; empty when verified',
  })
  reasons!: string[];

  @Field(() => Date, { nullable: true, description: 'When the automatic check decided' })
  checkedAt?: Date | null;

  @Field({ description: 'When it last changed' })
  updatedAt!: Date;
}

export const AddressVerificationConnection = ConnectionType('AddressVerification', AddressVerificationType, 'address verification');

export const AddressVerificationEvent = EventEnvelopeType(
  'AddressVerification',
  AddressVerificationType,
  {
    'address.processing': 'A proof of address was submitted; it is being checked',
    'address.verified': 'The address was verified',
    'address.rejected': 'The address verification was rejected',
    'address.manual_review': 'The check needs a reviewer',
  },
  'address verification',
);

@ObjectType('CreateAddressVerificationPayload', { description: 'The result of createAddressVerification' })
export class CreateAddressVerificationPayload {
  @Field(() => AddressVerificationType, { nullable: true, description: 'The new address verification, PROCESSING' })
  addressVerification?: AddressVerificationType | null;

  @Field(() => [UserError], { description: 'Mistakes in the input; empty on success' })
  userErrors!: UserError[];
}

@ObjectType('ReviewAddressVerificationPayload', { description: 'The result of reviewAddressVerification' })
export class ReviewAddressVerificationPayload {
  @Field(() => AddressVerificationType, { nullable: true, description: 'The address verification with its decision' })
  addressVerification?: AddressVerificationType | null;

  @Field(() => [UserError], { description: 'Mistakes in the input or a verification that is not in review; empty on success' })
  userErrors!: UserError[];
}
