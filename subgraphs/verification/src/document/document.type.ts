import { Directive, Field, Float, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { ReviewedFields } from '../review/review.type.js';
import { ConnectionType } from '../../../../platform/graphql/connection.js';
import { EventEnvelopeType } from '../../../../platform/graphql/event-envelope.js';
import { UserError } from '../../../../platform/graphql/user-errors.js';
import { BLURRED_BELOW, DOCUMENT_TYPES } from './document-check.js';
import { IMAGE_PROBLEMS, type ImageProblem } from './image-assessment.js';
import { DOCUMENT_STATUSES } from './document.lifecycle.js';

const enumOf = <T extends string>(values: readonly T[]) => Object.fromEntries(values.map((v) => [v, v])) as { [K in T]: K };

export const DocumentTypeEnum = enumOf(DOCUMENT_TYPES);
export const DocumentStatusEnum = enumOf(DOCUMENT_STATUSES);
registerEnumType(DocumentTypeEnum, {
  name: 'DocumentType',
  description: 'The kind of identity document',
  valuesConfig: {
    ID_CARD: { description: 'A national identity card (front and back)' },
    PASSPORT: { description: 'A passport’s data page (front only)' },
    DRIVER_LICENSE: { description: 'A driving licence (front and back)' },
    RESIDENCE_PERMIT: { description: 'A residence permit (front and back)' },
  },
});
registerEnumType(DocumentStatusEnum, {
  name: 'DocumentStatus',
  description: 'Where a document verification stands',
  valuesConfig: {
    PENDING: { description: 'Received; its check is queued' },
    PROCESSING: { description: 'Being read and checked' },
    VERIFIED: { description: 'The document passed every check (or a reviewer accepted it)' },
    REJECTED: { description: 'A check failed for certain (see reasons), or a reviewer rejected it' },
    MANUAL_REVIEW: { description: 'The checks were not conclusive: a reviewer decides' },
  },
});

@ObjectType('DocumentExtractedData', {
  description: 'The fields read from a document (the machine-readable zone wins where its check digits hold)',
})
export class DocumentExtractedDataType {
  @Field(() => String, { nullable: true, description: 'Given names then surname' })
  fullName?: string | null;

  @Field(() => String, { nullable: true, description: 'Date of birth, YYYY-MM-DD' })
  dateOfBirth?: string | null;

  @Field(() => String, { nullable: true, description: 'The document’s number' })
  documentNumber?: string | null;

  @Field(() => String, { nullable: true, description: 'Date of expiry, YYYY-MM-DD' })
  expiryDate?: string | null;

  @Field(() => String, { nullable: true, description: 'The holder’s nationality, ISO 3166-1 alpha-2' })
  nationality?: string | null;
}

@ObjectType('DocumentChecks', { description: 'What the automatic check measured' })
export class DocumentChecksType {
  @Field({ description: 'A machine-readable zone was found' })
  mrzFound!: boolean;

  @Field(() => Boolean, { nullable: true, description: 'Every check digit of the zone holds; null without a zone' })
  mrzValid?: boolean | null;

  @Field(() => [String], {
    description: 'The zone’s fields whose check digit failed (documentNumber, birthDate, expirationDate, personalNumber, composite)',
  })
  mrzFailedChecks!: string[];

  @Field(() => Boolean, { nullable: true, description: 'The expiry date is past; null when no expiry date was read' })
  expired?: boolean | null;

  @Field({ description: 'A face (the holder’s portrait) was found on the front' })
  faceFound!: boolean;

  @Field(() => Int, { description: 'Image sharpness (variance of the Laplacian): below 150 the image is too blurred, below 400 soft' })
  sharpness!: number;

  @Field(() => Int, { description: 'The text recognition’s confidence, 0 to 100' })
  ocrConfidence!: number;
}

@ObjectType('DocumentVerification', { description: 'One identity document submitted for a user, and what its check decided' })
@Directive('@key(fields: "id")')
export class DocumentVerificationType extends ReviewedFields {
  @Field(() => ID, { description: 'Identifier of the document verification' })
  id!: string;

  @Field({ description: 'Your identifier of the user whose document it is' })
  userId!: string;

  @Field(() => DocumentTypeEnum, { description: 'The kind of document' })
  documentType!: string;

  @Field({ description: 'The issuing country, ISO 3166-1 alpha-2' })
  documentCountry!: string;

  @Field(() => DocumentStatusEnum, { description: 'Where it stands' })
  status!: string;

  /** Resolved into URLs (document.resolver.ts). */
  frontFileId!: string;
  backFileId?: string | null;

  @Field(() => DocumentExtractedDataType, { nullable: true, description: 'The fields read; null until checked' })
  extractedData?: DocumentExtractedDataType | null;

  @Field(() => Float, { nullable: true, description: 'How much the evidence supports the decision, 0 to 1; null until checked' })
  confidence?: number | null;

  @Field(() => [String], {
    description:
      'Why it was rejected or sent to review, as codes: IMAGE_TOO_BLURRY, NO_FACE_ON_DOCUMENT, MRZ_CHECK_DIGIT_FAILED:<field> (one per failed check digit: documentNumber, birthDate, expirationDate, personalNumber, composite), DOCUMENT_EXPIRED, LOW_IMAGE_QUALITY, POOR_LIGHTING, FACE_UNCLEAR, MRZ_NOT_FOUND, MRZ_UNKNOWN_STATE_CODE:<issuingState|nationality>, MRZ_FIELD_UNCERTAIN:<surname|givenNames|documentNumber|dateOfBirth|expiryDate|personalNumber|optionalData>, DOCUMENT_TYPE_MISMATCH, COUNTRY_MISMATCH, PRINTED_FIELDS_DIFFER_FROM_MRZ, FIELDS_NOT_READ:<fields>, LOW_TEXT_CONFIDENCE, IMAGES_DELETED_BEFORE_CHECK; empty when verified',
  })
  reasons!: string[];

  @Field(() => DocumentChecksType, { nullable: true, description: 'What the check measured; null until checked' })
  checks?: DocumentChecksType | null;

  @Field(() => Date, { nullable: true, description: 'When it became VERIFIED' })
  verifiedAt?: Date | null;

  @Field(() => Date, { nullable: true, description: 'When the automatic check decided' })
  checkedAt?: Date | null;

  @Field(() => Date, { nullable: true, description: 'When its images were deleted (the record and the extracted data stay)' })
  imagesDeletedAt?: Date | null;

  @Field({ description: 'When it was submitted' })
  createdAt!: Date;

  @Field({ description: 'When it last changed' })
  updatedAt!: Date;
}

export const DocumentVerificationConnection = ConnectionType('DocumentVerification', DocumentVerificationType, 'document verification');

export const DocumentVerificationEvent = EventEnvelopeType(
  'DocumentVerification',
  DocumentVerificationType,
  {
    'document.created': 'A document was submitted',
    'document.processing': 'Its check started',
    'document.verified': 'The document was verified',
    'document.rejected': 'The document was rejected',
    'document.manual_review': 'The check needs a reviewer',
    'document.images_deleted': 'Its images were deleted',
  },
  'document verification',
);

@ObjectType('CreateDocumentVerificationPayload', { description: 'The result of createDocumentVerification' })
export class CreateDocumentVerificationPayload {
  @Field(() => DocumentVerificationType, { nullable: true, description: 'The new document verification, PENDING' })
  documentVerification?: DocumentVerificationType | null;

  @Field(() => [UserError], { description: 'Mistakes in the input; empty on success' })
  userErrors!: UserError[];
}

@ObjectType('ReviewDocumentVerificationPayload', { description: 'The result of reviewDocumentVerification' })
export class ReviewDocumentVerificationPayload {
  @Field(() => DocumentVerificationType, { nullable: true, description: 'The document verification with its decision' })
  documentVerification?: DocumentVerificationType | null;

  @Field(() => [UserError], { description: 'Mistakes in the input or a document that is not in review; empty on success' })
  userErrors!: UserError[];
}

@ObjectType('DeleteDocumentVerificationImagesPayload', { description: 'The result of deleteDocumentVerificationImages' })
export class DeleteDocumentVerificationImagesPayload {
  @Field(() => DocumentVerificationType, { nullable: true, description: 'The document verification, without its images' })
  documentVerification?: DocumentVerificationType | null;

  @Field(() => [UserError], { description: 'Mistakes in the input; empty on success' })
  userErrors!: UserError[];
}

const ImageProblemEnum = Object.fromEntries(IMAGE_PROBLEMS.map((p) => [p, p]));
registerEnumType(ImageProblemEnum, {
  name: 'DocumentImageProblem',
  description: 'What would make the document check reject a photo or send it to a reviewer',
  valuesConfig: {
    TOO_BLURRY: { description: 'Too blurred to read: hold the document and the camera still' },
    SOFT: { description: 'Readable but soft: a reviewer would look; hold still or move closer' },
    TOO_DARK: { description: 'Too dark: move to better light' },
    TOO_BRIGHT: { description: 'Washed out: move away from the light' },
    GLARE: { description: 'A reflection hides part of the document: tilt it away from the light' },
    TOO_SMALL: { description: 'Too few pixels to read its text: move closer or use a larger photo' },
  },
});

@ObjectType('DocumentImageAssessment', { description: 'A photo of a document judged as the document check would, before it is submitted' })
export class DocumentImageAssessmentType {
  @Field({ description: 'Nothing the check would reject or send to a reviewer for' })
  acceptable!: boolean;

  @Field(() => Float, { description: `Variance of the Laplacian on a 512-pixel grey version: below ${BLURRED_BELOW} too blurred` })
  sharpness!: number;

  @Field(() => Float, { description: 'Mean brightness, 0–255' })
  brightness!: number;

  @Field(() => Float, { description: 'Share of the picture burnt out by a reflection, 0–1' })
  glare!: number;

  @Field(() => [ImageProblemEnum], { description: 'What to fix before sending it; empty when acceptable' })
  problems!: ImageProblem[];
}

@ObjectType('AssessDocumentImagePayload', { description: 'The result of assessDocumentImage' })
export class AssessDocumentImagePayload {
  @Field(() => DocumentImageAssessmentType, { nullable: true, description: 'The judgement; nothing is stored' })
  assessment?: DocumentImageAssessmentType | null;

  @Field(() => [UserError], { description: 'Mistakes in the input; empty on success' })
  userErrors!: UserError[];
}
