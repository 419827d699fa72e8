import { Field, ID, InputType } from 'type-graphql';
import { Upload, type FileUpload } from '../../../../platform/graphql/upload.js';
import { ReviewDecisionFields } from '../review/review.inputs.js';
import { DocumentStatusEnum, DocumentTypeEnum } from './document.type.js';
import type { DocumentType } from './document-check.js';
import type { DocumentStatus } from './document.lifecycle.js';

@InputType({ description: 'An identity document to check (send as a multipart request: graphql-multipart-request-spec)' })
export class CreateDocumentVerificationInput {
  @Field({ description: 'Your identifier of the user (any text up to 255 characters)' })
  userId!: string;

  @Field(() => DocumentTypeEnum, { description: 'The kind of document' })
  documentType!: DocumentType;

  @Field({ description: 'The issuing country, uppercase ISO 3166-1 alpha-2' })
  documentCountry!: string;

  @Field(() => Upload, { description: 'The front (a passport’s data page): JPEG, PNG, WebP or HEIC, at most 10 MB' })
  frontImage!: Promise<FileUpload>;

  @Field(() => Upload, { nullable: true, description: 'The back: required for every type but PASSPORT' })
  backImage?: Promise<FileUpload> | null;
}

@InputType({ description: 'A photo of a document to judge before submitting it (multipart, like createDocumentVerification)' })
export class AssessDocumentImageInput {
  @Field(() => Upload, { description: 'A camera frame or a photo: JPEG, PNG, WebP or HEIC, at most 10 MB' })
  image!: Promise<FileUpload>;
}

@InputType({ description: 'A reviewer’s decision on a document in MANUAL_REVIEW' })
export class ReviewDocumentVerificationInput extends ReviewDecisionFields {
  @Field(() => ID, { description: 'The document verification to decide' })
  id!: string;
}

@InputType({ description: 'A document verification whose images to delete' })
export class DeleteDocumentVerificationImagesInput {
  @Field(() => ID, { description: 'The document verification' })
  id!: string;
}

@InputType({ description: 'Which document verifications to list (all of the organization when empty)' })
export class DocumentVerificationFilter {
  @Field(() => String, { nullable: true, description: 'Only this user’s' })
  userId?: string | null;

  @Field(() => DocumentStatusEnum, { nullable: true, description: 'Only in this status (MANUAL_REVIEW: the review queue)' })
  status?: DocumentStatus | null;
}
