import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { ConnectionType } from '../../../../platform/graphql/connection.js';
import { EventEnvelopeType } from '../../../../platform/graphql/event-envelope.js';
import { JSON as JSONScalar } from '../../../../platform/graphql/scalars.js';
import { UserError } from '../../../../platform/graphql/user-errors.js';
import { UserDataExportEntity } from '../../../../platform/graphql/user-data-export.js';
import { ERASURE_SERVICES, ERASURE_STATUSES, USER_ERASURE_EVENTS } from '../../../../platform/privacy/erasure.js';
import { RETENTION_KINDS, type RetentionKind } from '../../../../platform/privacy/retention.js';

const enumOf = <T extends string>(values: readonly T[]) => Object.fromEntries(values.map((v) => [v, v])) as { [K in T]: K };

/** `livenessFrames` → `LIVENESS_FRAMES`: the graph's name of a retention kind. */
export const retentionKindName = (kind: RetentionKind) => kind.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase();

export const PlatformServiceEnum = Object.fromEntries(ERASURE_SERVICES.map((s) => [s.toUpperCase(), s])) as Record<string, string>;
export const UserErasureStatusEnum = enumOf(ERASURE_STATUSES);
export const RetentionKindEnum = Object.fromEntries(RETENTION_KINDS.map((k) => [retentionKindName(k), k])) as Record<string, RetentionKind>;

registerEnumType(PlatformServiceEnum, {
  name: 'PlatformService',
  description: 'A service of the platform that holds part of a user’s data',
  valuesConfig: {
    VERIFICATION: {
      description: 'Identity, documents, liveness, biometrics, screening, intelligence, phone, email, address, KYB, mobile money',
    },
    RISK: { description: 'Risk accounts, their profiles, evaluations and the transaction graph' },
    NOTIFY: { description: 'Recipient profiles, notifications and the messages sent' },
  },
});
registerEnumType(UserErasureStatusEnum, {
  name: 'UserErasureStatus',
  description: 'Where an erasure (or one service’s part of it) stands',
  valuesConfig: {
    PENDING: { description: 'Not every service has erased its part yet (a service that is down does it when it is back)' },
    COMPLETED: { description: 'Erased: nothing personal about the user is held any more' },
  },
});
registerEnumType(RetentionKindEnum, {
  name: 'RetentionKind',
  description: 'A kind of personal data with a retention period of its own',
  valuesConfig: {
    DOCUMENTS: { description: 'Identity document images and proof-of-address documents' },
    LIVENESS_FRAMES: { description: 'Liveness photos: the reference selfie and the challenge frames, and the faces read from them' },
    NOTIFICATION_BODIES: { description: 'What a notification said: its template data and the rendered messages kept by the sandbox' },
    PROVIDER_RESPONSES: { description: 'Raw answers of providers: company registries, mobile money operators’ account holders' },
    EVENT_PAYLOADS: { description: 'Event payloads: the outbox and the bodies of webhook deliveries' },
  },
});

@ObjectType('ErasedRecords', { description: 'How many records of one kind a service erased or anonymised' })
export class ErasedRecordsType {
  @Field({ description: 'What they are (documents, amlScreenings, notifications…)' })
  kind!: string;

  @Field(() => Int, { description: 'How many' })
  count!: number;
}

@ObjectType('UserErasurePart', { description: 'One service’s part of an erasure' })
export class UserErasurePartType {
  @Field(() => PlatformServiceEnum, { description: 'The service' })
  service!: string;

  @Field(() => UserErasureStatusEnum, { description: 'Whether it erased its part' })
  status!: string;

  @Field(() => Date, { nullable: true, description: 'When it reported its part done' })
  completedAt?: Date | null;

  @Field(() => [ErasedRecordsType], { description: 'What it erased or anonymised, by kind' })
  erased!: ErasedRecordsType[];

  @Field(() => Int, { description: 'Failed attempts so far (each is retried, sooner first, then hourly)' })
  attempts!: number;

  @Field(() => String, { nullable: true, description: 'Why the last attempt failed; null when none did' })
  lastError?: string | null;
}

@ObjectType('UserErasure', {
  description:
    'A request to erase one user’s personal data in every service: records are removed, or kept (decisions, statuses, timestamps) with the person no longer identifiable',
})
export class UserErasureType {
  @Field(() => ID, { description: 'Identifier of the erasure' })
  id!: string;

  @Field({ description: 'Your identifier of the user erased (kept with the erasure as the record that it was done)' })
  userId!: string;

  @Field(() => UserErasureStatusEnum, { description: 'PENDING until every service has erased its part' })
  status!: string;

  @Field(() => [UserErasurePartType], { description: 'Each service’s part' })
  services!: UserErasurePartType[];

  @Field({ description: 'When it was requested' })
  createdAt!: Date;

  @Field({ description: 'When it last changed' })
  updatedAt!: Date;

  @Field(() => Date, { nullable: true, description: 'When the last service reported its part done' })
  completedAt?: Date | null;
}

export const UserErasureConnection = ConnectionType('UserErasure', UserErasureType, 'user erasure');

export const UserErasureEvent = EventEnvelopeType(
  'UserErasure',
  UserErasureType,
  {
    [USER_ERASURE_EVENTS.requested]: 'The erasure was requested',
    [USER_ERASURE_EVENTS.progressed]: 'A service erased its part',
    [USER_ERASURE_EVENTS.erased]: 'Every service erased its part: the user is erased',
  },
  'user erasure',
);

@ObjectType('EraseUserPayload', { description: 'The result of eraseUser' })
export class EraseUserPayload {
  @Field(() => UserErasureType, { nullable: true, description: 'The erasure: new, or the user’s pending one' })
  userErasure?: UserErasureType | null;

  @Field(() => Boolean, { nullable: true, description: 'false when the user already had a pending erasure (it is returned)' })
  created?: boolean | null;

  @Field(() => [UserError], { description: 'Mistakes in the input; empty on success' })
  userErrors!: UserError[];
}

export const UserDataExportType = UserDataExportEntity();
export type UserDataExportType = InstanceType<typeof UserDataExportType> & { exportedAt: Date };

@ObjectType('ExportUserPayload', { description: 'The result of exportUser' })
export class ExportUserPayload {
  @Field(() => UserDataExportType, { nullable: true, description: 'Everything held about the user' })
  userDataExport?: UserDataExportType | null;

  @Field(() => [UserError], { description: 'Mistakes in the input; empty on success' })
  userErrors!: UserError[];
}

@ObjectType('RetentionPolicy', {
  description: 'How long personal data is kept, in days from the record that holds it (your organization and environment)',
})
export class RetentionPolicyType {
  @Field(() => Int, { description: 'Identity document images and proof-of-address documents' })
  documentsDays!: number;

  @Field(() => Int, { description: 'Liveness photos and the faces read from them' })
  livenessFramesDays!: number;

  @Field(() => Int, { description: 'Notification template data and rendered messages' })
  notificationBodiesDays!: number;

  @Field(() => Int, { description: 'Raw provider answers (company registries, mobile money account holders)' })
  providerResponsesDays!: number;

  @Field(() => Int, { description: 'Outbox event payloads and webhook delivery bodies' })
  eventPayloadsDays!: number;

  @Field(() => [RetentionKindEnum], { description: 'The kinds you set yourself; the others have the platform’s default' })
  customized!: RetentionKind[];

  @Field(() => Date, { nullable: true, description: 'When you last changed it; null while every period is the default' })
  updatedAt?: Date | null;

  @Field(() => Date, {
    nullable: true,
    description: 'Everything past its period as of this moment is gone: every service’s last completed sweep started then',
  })
  lastEnforcedAt?: Date | null;
}

@ObjectType('UpdateRetentionPolicyPayload', { description: 'The result of updateRetentionPolicy' })
export class UpdateRetentionPolicyPayload {
  @Field(() => RetentionPolicyType, { nullable: true, description: 'The policy as it is now' })
  retentionPolicy?: RetentionPolicyType | null;

  @Field(() => [UserError], { description: 'Mistakes in the input (a period out of range); empty on success' })
  userErrors!: UserError[];
}

/** What the verification service holds about the user (the export's verification part). */
export const VERIFICATION_EXPORT_DESCRIPTION =
  'What the verification service holds: identity verifications, documents (images by link), liveness sessions, biometrics, AI identity checks, AML screenings, watchlist monitoring, devices, IP analyses, phone, email, address, business and mobile money verifications';

export { JSONScalar };
