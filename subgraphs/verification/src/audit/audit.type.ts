import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { IsOptional, MaxLength } from 'class-validator';
import { AUDIT_ACTIONS, type AuditAction } from '../../../../platform/audit/audit.js';
import { ConnectionType } from '../../../../platform/graphql/connection.js';
import { JSON as JsonScalar } from '../../../../platform/graphql/scalars.js';

/** `file.viewed` ↔ `FILE_VIEWED`. */
export const auditActionName = (action: AuditAction) => action.toUpperCase().replace('.', '_');
export const auditActionOf = (name: string) => AUDIT_ACTIONS.find((a) => auditActionName(a) === name)!;

export const AuditActionEnum = Object.fromEntries(AUDIT_ACTIONS.map((a) => [auditActionName(a), auditActionName(a)])) as Record<
  string,
  string
>;
const ACTION_DESCRIPTIONS: Record<AuditAction, string> = {
  'file.viewed': 'A document image, selfie, liveness photo or address document was downloaded',
  'identity_verification.reviewed': 'A reviewer decided an identity verification',
  'document_verification.reviewed': 'A reviewer decided a document verification',
  'address_verification.reviewed': 'A reviewer decided an address verification',
  'business_verification.reviewed': 'A reviewer decided a business verification',
  'cognitive_kyc_check.reviewed': 'A reviewer decided an AI identity check',
  'aml_match.resolved': 'A reviewer resolved a match of an AML screening',
  'watchlist_alert.reviewed': 'A reviewer reviewed a watchlist alert',
  'risk_rule.changed': 'A risk rule was created, changed, switched on or off',
  'api_client.revoked': 'The operator revoked one of the organization’s API keys',
  'api_client.rotated': 'The operator replaced one of the organization’s API keys',
  'data_key.rotated': 'The organization’s data encryption key was rotated (new data is sealed with a new version)',
  'data.reencrypted': 'The organization’s stored data was re-encrypted with its newest data key',
  'user.erased': 'A user’s personal data was erased',
  'user.exported': 'Everything held about a user was exported',
};
registerEnumType(AuditActionEnum, {
  name: 'AuditAction',
  description: 'What an audit entry records',
  valuesConfig: Object.fromEntries(AUDIT_ACTIONS.map((a) => [auditActionName(a), { description: ACTION_DESCRIPTIONS[a] }])),
});

export const AuditActorKindEnum = { CLIENT: 'CLIENT', SESSION: 'SESSION', ADMIN: 'ADMIN', SYSTEM: 'SYSTEM' } as const;
registerEnumType(AuditActorKindEnum, {
  name: 'AuditActorKind',
  description: 'How the actor of an audit entry was authenticated',
  valuesConfig: {
    CLIENT: { description: 'An API key of the organization' },
    SESSION: { description: 'A session token (one user, minted by an API key)' },
    ADMIN: { description: 'The platform operator (X-Admin-Secret)' },
    SYSTEM: { description: 'The platform itself (a scheduled job, a command-line tool)' },
  },
});

@ObjectType('AuditActor', { description: 'Who did what an audit entry records' })
export class AuditActorType {
  @Field(() => AuditActorKindEnum, { description: 'How they were authenticated' })
  kind!: keyof typeof AuditActorKindEnum;

  @Field(() => ID, { nullable: true, description: 'The API client whose key was used (for a session: the key that minted it)' })
  clientId!: string | null;

  @Field(() => String, { nullable: true, description: 'That API client’s name' })
  clientName!: string | null;

  @Field(() => String, { nullable: true, description: 'For a session: the user it belongs to' })
  sessionUserId!: string | null;
}

@ObjectType('AuditEntry', {
  description:
    'One entry of the organization’s audit trail: append-only, each entry chained to the one before by a SHA-256 hash (`auditChainVerification` recomputes the chain)',
})
export class AuditEntryType {
  @Field(() => ID, { description: 'Its position in the organization’s trail (1, 2, 3…)' })
  id!: string;

  @Field({ description: 'When it happened' })
  occurredAt!: Date;

  @Field(() => AuditActionEnum, { description: 'What happened' })
  action!: string;

  @Field(() => AuditActorType, { description: 'Who did it (the key or session used)' })
  actor!: AuditActorType;

  @Field(() => String, { nullable: true, description: 'The person the caller named as having acted (reviewedBy, resolvedBy), as given' })
  reviewer!: string | null;

  @Field({ description: 'The kind of record it concerns (document_verification, file, aml_screening…)' })
  resourceType!: string;

  @Field(() => ID, { description: 'That record’s identifier' })
  resourceId!: string;

  @Field(() => String, { nullable: true, description: 'The user the record is about, when there is one' })
  userId!: string | null;

  @Field(() => JsonScalar, { description: 'Facts about what happened (the decision, the status, the file’s role…); never personal data' })
  details!: Record<string, unknown>;

  @Field({ description: 'SHA-256 of this entry and the previous entry’s hash (hex)' })
  hash!: string;

  @Field({ description: 'The previous entry’s hash (64 zeros for the first entry)' })
  previousHash!: string;
}

export const AuditEntryConnection = ConnectionType('AuditEntry', AuditEntryType, 'audit entry', 'audit entries', 'newest first');

@InputType('AuditEntryFilter', { description: 'Which audit entries to list' })
export class AuditEntryFilter {
  @Field(() => String, { nullable: true, description: 'Only entries about this user' })
  @IsOptional()
  @MaxLength(255, { message: 'userId must be at most 255 characters' })
  userId?: string | null;

  @Field(() => AuditActionEnum, { nullable: true, description: 'Only entries of this action' })
  action?: string | null;

  @Field(() => ID, { nullable: true, description: 'Only entries about this record' })
  @IsOptional()
  @MaxLength(255, { message: 'resourceId must be at most 255 characters' })
  resourceId?: string | null;
}

@ObjectType('AuditBrokenEntry', { description: 'Where an audit chain stops holding' })
export class AuditBrokenEntryType {
  @Field(() => ID, { description: 'The first entry that does not hold (edited, or following a removed one)' })
  id!: string;

  @Field({ description: 'Why it does not hold' })
  reason!: string;
}

@ObjectType('AuditChainVerification', {
  description: 'The organization’s audit chain recomputed from its first entry: every hash and every link checked',
})
export class AuditChainVerificationType {
  @Field({ description: 'Every entry holds: nothing was edited, removed or reordered' })
  valid!: boolean;

  @Field(() => Int, { description: 'How many entries were checked (up to the first broken one)' })
  entriesChecked!: number;

  @Field(() => AuditBrokenEntryType, { nullable: true, description: 'The first entry that does not hold; null when the chain is valid' })
  firstBrokenEntry!: AuditBrokenEntryType | null;

  @Field({ description: 'When it was checked' })
  checkedAt!: Date;
}
