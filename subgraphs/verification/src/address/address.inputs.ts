import { Field, ID, InputType } from 'type-graphql';
import { Upload, type FileUpload } from '../../../../platform/graphql/upload.js';
import { ReviewDecisionFields } from '../review/review.inputs.js';
import type { AddressDocumentType } from './address-decision.js';
import type { AddressStatus } from './address.lifecycle.js';
import { AddressDocumentTypeEnum, AddressStatusEnum } from './address.type.js';

@InputType({
  description:
    'A proof of address: an uploaded `document` with its `country` (a multipart request: graphql-multipart-request-spec), or a `documentUrl` to download it from',
})
export class CreateAddressVerificationInput {
  @Field({ description: 'Your identifier of the user (any text up to 255 characters)' })
  userId!: string;

  @Field(() => AddressDocumentTypeEnum, { description: 'The kind of document' })
  documentType!: AddressDocumentType;

  @Field(() => Upload, { nullable: true, description: 'The document: JPEG, PNG, WebP or HEIC, at most 10 MB (or give documentUrl)' })
  document?: Promise<FileUpload> | null;

  @Field(() => String, { nullable: true, description: 'The issuing country, uppercase ISO 3166-1 alpha-2 (required with document)' })
  country?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'An http(s) URL of the document (or upload it): downloaded at once, at most 10 MB, public addresses only',
  })
  documentUrl?: string | null;

  @Field(() => String, { nullable: true, description: 'The address the user declared, compared with the one on the document' })
  expectedAddress?: string | null;
}

@InputType({ description: 'A reviewer’s decision on an address verification in MANUAL_REVIEW' })
export class ReviewAddressVerificationInput extends ReviewDecisionFields {
  @Field(() => ID, { description: 'The address verification to decide' })
  id!: string;
}

@InputType({ description: 'Which address verifications to list (all of the organization when empty)' })
export class AddressVerificationFilter {
  @Field(() => String, { nullable: true, description: 'Only this user’s' })
  userId?: string | null;

  @Field(() => AddressStatusEnum, { nullable: true, description: 'Only in this status (MANUAL_REVIEW: the review queue)' })
  status?: AddressStatus | null;
}
