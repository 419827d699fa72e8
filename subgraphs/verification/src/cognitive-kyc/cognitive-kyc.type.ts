import { Directive, Field, Float, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { ReviewedFields } from '../review/review.type.js';
import { ConnectionType } from '../../../../platform/graphql/connection.js';
import { EventEnvelopeType } from '../../../../platform/graphql/event-envelope.js';
import { UserError } from '../../../../platform/graphql/user-errors.js';
import { DocumentExtractedDataType, DocumentTypeEnum } from '../document/document.type.js';
import { COGNITIVE_KYC_STATUSES } from './cognitive-kyc.lifecycle.js';

const enumOf = <T extends string>(values: readonly T[]) => Object.fromEntries(values.map((v) => [v, v])) as { [K in T]: K };

export const CognitiveKycDecisionEnum = enumOf(COGNITIVE_KYC_STATUSES);
export const CognitiveKycReviewDecisionEnum = enumOf(['APPROVED', 'REJECTED'] as const);
export const FraudRiskLevelEnum = enumOf(['LOW', 'MEDIUM', 'HIGH'] as const);
export const FraudHistoryDecisionEnum = enumOf(['APPROVED', 'REJECTED', 'MANUAL_REVIEW', 'PENDING'] as const);
export const FraudHistorySourceEnum = enumOf(['AI_IDENTITY_CHECK', 'DOCUMENT_VERIFICATION'] as const);

registerEnumType(CognitiveKycDecisionEnum, {
  name: 'CognitiveKycDecision',
  description: 'What an AI identity check decided',
  valuesConfig: {
    APPROVED: { description: 'The selfie matches the document and no fraud indicator was raised (or a reviewer approved)' },
    REJECTED: { description: 'Another person, a tampered, expired or faceless document, or a manipulated selfie (or a reviewer rejected)' },
    MANUAL_REVIEW: {
      description: 'Not conclusive (a score near the threshold, a blurred image, fields not read, a risky history): a reviewer decides',
    },
  },
});
registerEnumType(CognitiveKycReviewDecisionEnum, {
  name: 'CognitiveKycReviewDecision',
  description: 'A reviewer’s decision on an AI identity check',
  valuesConfig: { APPROVED: { description: 'Accept the person' }, REJECTED: { description: 'Reject the person' } },
});
registerEnumType(FraudRiskLevelEnum, {
  name: 'FraudRiskLevel',
  description: 'What the organization’s earlier records say about the risk',
  valuesConfig: {
    LOW: { description: 'No earlier record was flagged' },
    MEDIUM: { description: 'One earlier record was flagged' },
    HIGH: { description: 'Two or more were flagged, or the document number is used by another user' },
  },
});
registerEnumType(FraudHistoryDecisionEnum, {
  name: 'FraudHistoryDecision',
  description: 'The decision of an earlier record (a document verification’s VERIFIED reads APPROVED)',
  valuesConfig: {
    APPROVED: { description: 'Approved or verified' },
    REJECTED: { description: 'Rejected' },
    MANUAL_REVIEW: { description: 'Waiting for a reviewer' },
    PENDING: { description: 'Still being checked' },
  },
});
registerEnumType(FraudHistorySourceEnum, {
  name: 'FraudHistorySource',
  description: 'The kind of an earlier record',
  valuesConfig: {
    AI_IDENTITY_CHECK: { description: 'An AI identity check (selfie against document)' },
    DOCUMENT_VERIFICATION: { description: 'A document verification' },
  },
});

@ObjectType('CognitiveKycDocumentFields', {
  description: 'The fields read from the document (the machine-readable zone wins where its check digits hold)',
})
export class CognitiveKycDocumentFieldsType extends DocumentExtractedDataType {
  @Field(() => DocumentTypeEnum, {
    nullable: true,
    description: 'The kind of document its machine-readable zone names; null without a valid zone',
  })
  documentType?: string | null;
}

@ObjectType('FraudIndicators', { description: 'What each fraud check found (each one measured, see the README)' })
export class FraudIndicatorsType {
  @Field({ description: 'A check digit of the machine-readable zone failed, or the printed fields disagree with the zone' })
  tampering!: boolean;

  @Field({ description: 'The selfie looks like a print or a screen (anti-spoof model), or is the document’s own picture' })
  photoManipulation!: boolean;

  @Field({ description: 'The document’s expiry date is past' })
  expiredDocument!: boolean;

  @Field({ description: 'The selfie or the document image is too blurred to trust (sharpness under 150)' })
  blurryImage!: boolean;
}

@ObjectType('CognitiveKycFraudHistory', {
  description: 'The organization’s earlier records of the user and of the document number, when the check ran',
})
export class CognitiveKycFraudHistoryType {
  @Field(() => Int, { description: 'Earlier AI identity checks and document verifications found' })
  priorVerifications!: number;

  @Field(() => Int, { description: 'Of those, the ones rejected or holding the document number under another user' })
  flaggedAttempts!: number;

  @Field(() => FraudRiskLevelEnum, { description: 'The risk they add up to' })
  riskLevel!: string;
}

@ObjectType('CognitiveKycCheck', {
  description: 'One AI identity check: a selfie compared with an identity document, both checked for fraud',
})
@Directive('@key(fields: "id")')
export class CognitiveKycCheckType extends ReviewedFields {
  @Field(() => ID, { description: 'Identifier of the check' })
  id!: string;

  @Field({ description: 'Your identifier of the user checked' })
  userId!: string;

  @Field(() => CognitiveKycDecisionEnum, { description: 'The decision (a reviewer’s once a MANUAL_REVIEW is settled)' })
  decision!: string;

  @Field(() => Float, { description: 'How much the evidence supports the decision, 0 to 1' })
  confidence!: number;

  @Field(() => Float, {
    nullable: true,
    description: 'How alike the two faces are, 0 to 1 (0.80 or more: the same person); null without a face on the document',
  })
  faceMatchScore?: number | null;

  @Field({ description: 'The face comparison in one sentence, with the measured score and the threshold' })
  faceMatchReasoning!: string;

  @Field(() => CognitiveKycDocumentFieldsType, { description: 'The fields read from the document' })
  documentFields!: CognitiveKycDocumentFieldsType;

  @Field(() => FraudIndicatorsType, { description: 'What the fraud checks found' })
  fraudIndicators!: FraudIndicatorsType;

  /** Stored flat; the resolver groups them. */
  priorVerifications!: number;
  flaggedAttempts!: number;
  riskLevel!: string;

  @Field(() => [String], {
    description:
      'Why it was rejected or sent to review, as codes: FACE_MISMATCH, NO_FACE_ON_DOCUMENT, MRZ_CHECK_DIGIT_FAILED:<field>, PRINTED_FIELDS_DIFFER_FROM_MRZ, DOCUMENT_EXPIRED, SELFIE_COPIED_FROM_DOCUMENT, SELFIE_SPOOF_SUSPECTED, FACE_MATCH_UNCERTAIN, IMAGE_TOO_BLURRY, HIGH_FRAUD_RISK_HISTORY and the document check’s review reasons (FIELDS_NOT_READ:<fields>, LOW_TEXT_CONFIDENCE…); empty when approved',
  })
  reasons!: string[];

  @Field({ description: 'When the check ran' })
  createdAt!: Date;

  @Field({ description: 'When it last changed' })
  updatedAt!: Date;
}

export const CognitiveKycCheckConnection = ConnectionType('CognitiveKycCheck', CognitiveKycCheckType, 'AI identity check');

export const CognitiveKycCheckEvent = EventEnvelopeType(
  'CognitiveKycCheck',
  CognitiveKycCheckType,
  {
    'cognitive_kyc.approved': 'The check (or a reviewer) approved the person',
    'cognitive_kyc.rejected': 'The check (or a reviewer) rejected the person',
    'cognitive_kyc.manual_review': 'The check needs a reviewer',
  },
  'AI identity check',
);

@ObjectType('FraudHistoryEntry', { description: 'One earlier record of the organization that matched' })
export class FraudHistoryEntryType {
  @Field(() => ID, { description: 'The record’s id (an AI identity check’s or a document verification’s)' })
  verificationId!: string;

  @Field(() => FraudHistorySourceEnum, { description: 'What kind of record it is' })
  source!: string;

  @Field({ description: 'The user it is about' })
  userId!: string;

  @Field({ description: 'When it was made' })
  date!: Date;

  @Field(() => FraudHistoryDecisionEnum, { description: 'Its decision' })
  decision!: string;

  @Field({ description: 'Why (its reasons, or "all checks passed"), and a document number held by another user' })
  reason!: string;

  @Field({ description: 'It counts against the person: rejected, or the document number under another user' })
  flagged!: boolean;
}

@ObjectType('FraudHistory', { description: 'What the organization’s own earlier records say about a user, a document number or a name' })
export class FraudHistoryType {
  @Field(() => Int, { description: 'Records found (at most 100 of each kind)' })
  matches!: number;

  @Field(() => FraudRiskLevelEnum, { description: 'The risk the records add up to' })
  riskLevel!: string;

  @Field(() => [FraudHistoryEntryType], { description: 'The records, newest first' })
  history!: FraudHistoryEntryType[];

  @Field({ description: 'What to do, in one sentence' })
  recommendation!: string;
}

@ObjectType('CreateCognitiveKycCheckPayload', { description: 'The result of createCognitiveKycCheck' })
export class CreateCognitiveKycCheckPayload {
  @Field(() => CognitiveKycCheckType, { nullable: true, description: 'The check with its decision' })
  cognitiveKycCheck?: CognitiveKycCheckType | null;

  @Field(() => [UserError], {
    description: 'Mistakes in the input (an image that is not one, a selfie without exactly one face…); empty on success',
  })
  userErrors!: UserError[];
}

@ObjectType('ReviewCognitiveKycCheckPayload', { description: 'The result of reviewCognitiveKycCheck' })
export class ReviewCognitiveKycCheckPayload {
  @Field(() => CognitiveKycCheckType, { nullable: true, description: 'The check with the reviewer’s decision' })
  cognitiveKycCheck?: CognitiveKycCheckType | null;

  @Field(() => [UserError], { description: 'Mistakes in the input or a check that is not in review; empty on success' })
  userErrors!: UserError[];
}
