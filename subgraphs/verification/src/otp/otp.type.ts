import { Directive, Field, ID, Int, ObjectType, registerEnumType, type ClassType } from 'type-graphql';
import { ConnectionType } from '../../../../platform/graphql/connection.js';
import { EventEnvelopeType } from '../../../../platform/graphql/event-envelope.js';
import { EmailAddress, PhoneNumber } from '../../../../platform/graphql/scalars.js';
import { UserError } from '../../../../platform/graphql/user-errors.js';
import { OTP_STATUSES, type OtpKind } from './otp.lifecycle.js';

const enumOf = <T extends string>(values: readonly T[]) => Object.fromEntries(values.map((v) => [v, v])) as { [K in T]: K };

export const OtpStatusEnum = enumOf(OTP_STATUSES);
registerEnumType(OtpStatusEnum, {
  name: 'CodeVerificationStatus',
  description: 'Where a phone or email verification by one-time code stands',
  valuesConfig: {
    PENDING: { description: 'A code was sent and is waiting to be entered' },
    VERIFIED: { description: 'The right code (or the magic link) was used: the user controls the address' },
    FAILED: { description: 'Every attempt was spent on wrong codes (failureReason MAX_ATTEMPTS_EXCEEDED)' },
    EXPIRED: { description: 'The code ran out before the right one was entered (failureReason EXPIRED)' },
  },
});

export const PHONE_CHANNELS = ['SMS', 'VOICE', 'WHATSAPP'] as const;
export const PhoneChannelEnum = enumOf(PHONE_CHANNELS);
registerEnumType(PhoneChannelEnum, {
  name: 'PhoneVerificationChannel',
  description: 'How the code reaches the phone',
  valuesConfig: {
    SMS: { description: 'A text message' },
    VOICE: { description: 'A phone call that says the code, digit by digit (also to fixed lines)' },
    WHATSAPP: { description: 'A WhatsApp message from the approved authentication template' },
  },
});

export const EMAIL_METHODS = ['OTP', 'MAGIC_LINK'] as const;
export const EmailMethodEnum = enumOf(EMAIL_METHODS);
registerEnumType(EmailMethodEnum, {
  name: 'EmailVerificationMethod',
  description: 'What the verification email carries',
  valuesConfig: {
    OTP: { description: 'A 6-digit code to enter' },
    MAGIC_LINK: { description: 'The code and a single-use link that verifies the address when opened' },
  },
});

@ObjectType('PhoneVerification', { description: 'A check that a user controls a phone number: a one-time code sent to it' })
@Directive('@key(fields: "id")')
export class PhoneVerificationType {
  @Field(() => ID, { description: 'Identifier of the verification' })
  id!: string;

  @Field({ description: 'Your identifier of the user' })
  userId!: string;

  @Field(() => PhoneNumber, { nullable: true, description: 'The number, in E.164; null once the user was erased (eraseUser)' })
  phoneNumber?: string | null;

  @Field(() => PhoneChannelEnum, { description: 'How the code was sent' })
  channel!: string;

  @Field({ description: 'Language of the message (BCP 47, e.g. en, fr, sw)' })
  locale!: string;

  @Field(() => String, { nullable: true, description: 'Country of the number (ISO 3166-1 alpha-2); null for non-geographic numbers' })
  country?: string | null;

  @Field(() => String, { nullable: true, description: 'Type of line: MOBILE, FIXED_LINE_OR_MOBILE, VOIP…; UNKNOWN when it cannot be told' })
  lineType?: string | null;

  @Field(() => OtpStatusEnum, { description: 'Where it stands' })
  status!: string;

  @Field(() => Int, { description: 'Wrong codes that may still be entered before it fails' })
  attemptsRemaining!: number;

  @Field(() => Int, { description: 'Codes sent so far (1 plus the resends)' })
  sends!: number;

  @Field(() => String, { nullable: true, description: 'Why it did not verify: MAX_ATTEMPTS_EXCEEDED or EXPIRED; null otherwise' })
  failureReason?: string | null;

  @Field({ description: 'When the current code stops working (10 minutes after it was sent)' })
  expiresAt!: Date;

  @Field(() => Date, { nullable: true, description: 'When the right code was entered' })
  verifiedAt?: Date | null;

  @Field({ description: 'When it was started' })
  createdAt!: Date;

  @Field({ description: 'When it last changed' })
  updatedAt!: Date;
}

@ObjectType('EmailVerification', {
  description: 'A check that a user controls an email address: a one-time code (or magic link) sent to it',
})
@Directive('@key(fields: "id")')
export class EmailVerificationType {
  @Field(() => ID, { description: 'Identifier of the verification' })
  id!: string;

  @Field({ description: 'Your identifier of the user' })
  userId!: string;

  @Field(() => EmailAddress, {
    nullable: true,
    description: 'The address (its domain in lower case); null once the user was erased (eraseUser)',
  })
  email?: string | null;

  @Field(() => EmailMethodEnum, { description: 'What the email carries' })
  method!: string;

  @Field(() => String, { nullable: true, description: 'Where an opened magic link sends the browser' })
  redirectUrl?: string | null;

  @Field({ description: 'The domain is a known disposable-mail service' })
  disposable!: boolean;

  @Field(() => OtpStatusEnum, { description: 'Where it stands' })
  status!: string;

  @Field(() => Int, { description: 'Wrong codes that may still be entered before it fails' })
  attemptsRemaining!: number;

  @Field(() => Int, { description: 'Emails sent so far (1 plus the resends)' })
  sends!: number;

  @Field(() => String, { nullable: true, description: 'Why it did not verify: MAX_ATTEMPTS_EXCEEDED or EXPIRED; null otherwise' })
  failureReason?: string | null;

  @Field({ description: 'When the current code and link stop working (15 minutes after they were sent)' })
  expiresAt!: Date;

  @Field(() => Date, { nullable: true, description: 'When the right code was entered or the link opened' })
  verifiedAt?: Date | null;

  @Field({ description: 'When it was started' })
  createdAt!: Date;

  @Field({ description: 'When it last changed' })
  updatedAt!: Date;
}

export const PhoneVerificationConnection = ConnectionType('PhoneVerification', PhoneVerificationType, 'phone verification');
export const EmailVerificationConnection = ConnectionType('EmailVerification', EmailVerificationType, 'email verification');

const eventDescriptions = (kind: OtpKind, what: string): Record<string, string> => ({
  [`${kind}.created`]: `A verification was started and its code sent to the ${what}`,
  [`${kind}.resent`]: 'A new code was sent (the previous one no longer works)',
  [`${kind}.attempt_failed`]: 'A wrong code was entered; attempts remain',
  [`${kind}.verified`]: `The right code was entered: the ${what} is verified`,
  [`${kind}.failed`]: 'Every attempt was spent (status FAILED), or the code expired (status EXPIRED)',
});
export const PhoneVerificationEvent = EventEnvelopeType(
  'PhoneVerification',
  PhoneVerificationType,
  eventDescriptions('phone', 'number'),
  'phone verification',
);
export const EmailVerificationEvent = EventEnvelopeType(
  'EmailVerification',
  EmailVerificationType,
  eventDescriptions('email', 'address'),
  'email verification',
);

/** The payload of one mutation (`<Name>Payload`): the verification after the change and the user errors. */
function payload<T extends object>(name: string, record: 'phoneVerification' | 'emailVerification', type: ClassType<T>, what: string) {
  @ObjectType(`${name}Payload`, { description: `The result of ${name[0].toLowerCase()}${name.slice(1)}` })
  class Payload {
    @Field(() => type, {
      name: record,
      nullable: true,
      description: 'The verification after the change (after a wrong code: still PENDING with one attempt less, or FAILED)',
    })
    record?: T | null;

    @Field(() => [UserError], { description: `An invalid ${what} or code, an unknown verification, or one that is over; empty on success` })
    userErrors!: UserError[];
  }
  return Payload;
}

export const StartPhoneVerificationPayload = payload('StartPhoneVerification', 'phoneVerification', PhoneVerificationType, 'number');
export const VerifyPhoneCodePayload = payload('VerifyPhoneCode', 'phoneVerification', PhoneVerificationType, 'number');
export const ResendPhoneCodePayload = payload('ResendPhoneCode', 'phoneVerification', PhoneVerificationType, 'number');
export const StartEmailVerificationPayload = payload('StartEmailVerification', 'emailVerification', EmailVerificationType, 'address');
export const VerifyEmailCodePayload = payload('VerifyEmailCode', 'emailVerification', EmailVerificationType, 'address');
export const ResendEmailCodePayload = payload('ResendEmailCode', 'emailVerification', EmailVerificationType, 'address');
