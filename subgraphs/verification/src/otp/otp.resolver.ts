import { Arg, Args, Ctx, Directive, FieldResolver, ID, Mutation, Query, Resolver, Subscription } from 'type-graphql';
import { Root } from '../../../../platform/graphql/root.js';
import { ConnectionArgs, LIST_SIZE } from '../../../../platform/graphql/connection.js';
import type { Connection } from '../../../../platform/graphql/connection.js';
import { envelopeOf, reviveDates } from '../../../../platform/graphql/event-envelope.js';
import { authorize, tenantEvents } from '../../../../platform/graphql/tenancy.js';
import { AppError, badInput } from '../../../../platform/errors.js';
import type { StreamedEvent } from '../../../../platform/events/event-stream.js';
import type { VerificationContext } from '../verification.shared.js';
import type { OtpDeps } from './otp.service.js';
import { UserType } from '../user/user.type.js';
import { checkPhoneNumber, receivesText } from '../phone/phone-number.js';
import { checkEmail } from '../email/email-address.js';
import type { OtpVerification } from './otp.entity.js';
import type { OtpKind } from './otp.lifecycle.js';
import { OTP_RESOURCE } from './otp.events.js';
import { otpRecord, type OtpRecord } from './otp.record.js';
import { OtpService } from './otp.service.js';
import type { NotifyChannel } from './notify-client.js';
import {
  CodeVerificationFilter,
  ResendEmailCodeInput,
  ResendPhoneCodeInput,
  StartEmailVerificationInput,
  StartPhoneVerificationInput,
  VerifyEmailCodeInput,
  VerifyPhoneCodeInput,
  type CodeInput,
} from './otp.inputs.js';
import {
  EmailVerificationConnection,
  EmailVerificationEvent,
  EmailVerificationType,
  PhoneVerificationConnection,
  PhoneVerificationEvent,
  PhoneVerificationType,
  ResendEmailCodePayload,
  ResendPhoneCodePayload,
  StartEmailVerificationPayload,
  StartPhoneVerificationPayload,
  VerifyEmailCodePayload,
  VerifyPhoneCodePayload,
} from './otp.type.js';

type Ctx = VerificationContext<{ otp: OtpDeps }>;

/** `submit`: start, resend, verify (a session's own user's only); `forUser`: the user a start is for. */
export function otpService(ctx: Ctx, kind: OtpKind, access: 'read' | 'submit', forUser?: string): OtpService {
  return new OtpService(ctx.em, authorize(ctx, 'verification', `${kind}:${access}`, forUser), kind, ctx.deps.otp);
}

const phoneOf = (r: OtpRecord): PhoneVerificationType => ({ ...r, phoneNumber: r.phoneNumber! });
const emailOf = (r: OtpRecord): EmailVerificationType => ({ ...r, email: r.email!, disposable: r.disposable ?? false });
const NODE: Record<OtpKind, (r: OtpRecord) => PhoneVerificationType | EmailVerificationType> = { phone: phoneOf, email: emailOf };
const nodeOf = (kind: OtpKind, v: OtpVerification | null) => v && NODE[kind](otpRecord(v));
const connectionOf = (kind: OtpKind, c: Connection<OtpVerification>) => ({
  ...c,
  nodes: c.nodes.map((v) => nodeOf(kind, v)),
  edges: c.edges.map((edge) => ({ ...edge, node: nodeOf(kind, edge.node) })),
});
const DATES = ['expiresAt', 'verifiedAt', 'createdAt', 'updatedAt'];
const fromSnapshot = (kind: OtpKind) => (s: Record<string, unknown>) => NODE[kind](reviveDates<OtpRecord>(s, DATES));

const follow = (kind: OtpKind, by: 'resourceId' | 'userId') => ({
  subscribe: ({ args, context }: { args: Record<string, string>; context: unknown }) =>
    tenantEvents(context as Ctx, { service: 'verification', permission: `${kind}:read` }, OTP_RESOURCE[kind], {
      [by]: by === 'resourceId' ? args.id : args.userId,
    }),
});

function checkRedirect(url: string | null | undefined): string | null {
  if (url == null) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badInput('redirectUrl must be an absolute http(s) URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw badInput('redirectUrl must be an absolute http(s) URL');
  return parsed.toString();
}

@Resolver(() => PhoneVerificationType)
export class PhoneVerificationResolver {
  @Query(() => PhoneVerificationType, { nullable: true, description: 'One phone verification; null when there is none with this id' })
  async phoneVerification(@Arg('id', () => ID, { description: 'Its identifier' }) id: string, @Ctx() ctx: Ctx) {
    return nodeOf('phone', await otpService(ctx, 'phone', 'read').find(id));
  }

  @Directive(LIST_SIZE)
  @Query(() => PhoneVerificationConnection, {
    description: 'The organization’s phone verifications, newest first: of one user, or in one status',
  })
  async phoneVerifications(
    @Arg('filter', () => CodeVerificationFilter, { nullable: true, description: 'Which ones; all when absent' })
    filter: CodeVerificationFilter | null,
    @Args() page: ConnectionArgs,
    @Ctx() ctx: Ctx,
  ) {
    return connectionOf('phone', await otpService(ctx, 'phone', 'read').list(filter ?? {}, page));
  }

  @FieldResolver(() => UserType, { description: 'The user whose number it is' })
  user(@Root() v: PhoneVerificationType): UserType {
    return { id: v.userId };
  }

  @Mutation(() => StartPhoneVerificationPayload, {
    description:
      'Checks the number and sends it a 6-digit code, valid 10 minutes with 3 attempts (test keys: the code is always 123456 and nothing is sent)',
  })
  async startPhoneVerification(@Arg('input') input: StartPhoneVerificationInput, @Ctx() ctx: Ctx) {
    const phone = otpService(ctx, 'phone', 'submit', input.userId);
    const number = checkPhoneNumber(input.phoneNumber);
    const channel = input.channel ?? 'SMS';
    // a call reaches fixed lines too; text and WhatsApp messages need a mobile line
    if (channel !== 'VOICE' && !receivesText(number.lineType))
      throw new AppError(
        'VALIDATION_FAILED',
        `phoneNumber ${number.e164} is a ${number.lineType} line, which cannot receive text messages`,
      );
    const v = await phone.start({
      userId: input.userId,
      address: number.e164,
      channel: channel as NotifyChannel,
      locale: input.locale ?? 'en',
      country: number.country,
      lineType: number.lineType,
    });
    return { record: nodeOf('phone', v) };
  }

  @Mutation(() => VerifyPhoneCodePayload, {
    description:
      'Checks a code: the right one verifies the number; a wrong one spends an attempt (the last one fails the verification). ' +
      'A verification that is over refuses codes (CONFLICT)',
  })
  async verifyPhoneCode(@Arg('input', () => VerifyPhoneCodeInput) input: CodeInput, @Ctx() ctx: Ctx) {
    return { record: nodeOf('phone', await otpService(ctx, 'phone', 'submit').verify(input.id, input.code)) };
  }

  @Mutation(() => ResendPhoneCodePayload, {
    description: 'Sends a new code (the previous one stops working; 3 attempts and 10 minutes again), after a 30-second cool-down',
  })
  async resendPhoneCode(@Arg('input', () => ResendPhoneCodeInput) input: { id: string }, @Ctx() ctx: Ctx) {
    return { record: nodeOf('phone', await otpService(ctx, 'phone', 'submit').resend(input.id)) };
  }

  @Subscription(() => PhoneVerificationEvent, { description: 'Every change of one phone verification', ...follow('phone', 'resourceId') })
  phoneVerificationUpdated(@Root() event: StreamedEvent, @Arg('id', () => ID, { description: 'The verification to follow' }) _id: string) {
    return envelopeOf(event, fromSnapshot('phone'));
  }

  @Subscription(() => PhoneVerificationEvent, {
    description: 'Every change of every phone verification of one user, present and future',
    ...follow('phone', 'userId'),
  })
  phoneVerificationUpdatedForUser(
    @Root() event: StreamedEvent,
    @Arg('userId', { description: 'The user whose verifications to follow' }) _userId: string,
  ) {
    return envelopeOf(event, fromSnapshot('phone'));
  }
}

@Resolver(() => EmailVerificationType)
export class EmailVerificationResolver {
  @Query(() => EmailVerificationType, { nullable: true, description: 'One email verification; null when there is none with this id' })
  async emailVerification(@Arg('id', () => ID, { description: 'Its identifier' }) id: string, @Ctx() ctx: Ctx) {
    return nodeOf('email', await otpService(ctx, 'email', 'read').find(id));
  }

  @Directive(LIST_SIZE)
  @Query(() => EmailVerificationConnection, {
    description: 'The organization’s email verifications, newest first: of one user, or in one status',
  })
  async emailVerifications(
    @Arg('filter', () => CodeVerificationFilter, { nullable: true, description: 'Which ones; all when absent' })
    filter: CodeVerificationFilter | null,
    @Args() page: ConnectionArgs,
    @Ctx() ctx: Ctx,
  ) {
    return connectionOf('email', await otpService(ctx, 'email', 'read').list(filter ?? {}, page));
  }

  @FieldResolver(() => UserType, { description: 'The user whose address it is' })
  user(@Root() v: EmailVerificationType): UserType {
    return { id: v.userId };
  }

  @Mutation(() => StartEmailVerificationPayload, {
    description:
      'Checks the address and emails it a 6-digit code (and, for MAGIC_LINK, a single-use link), valid 15 minutes with 3 attempts ' +
      '(test keys: the code is always 123456 and nothing is sent)',
  })
  async startEmailVerification(@Arg('input') input: StartEmailVerificationInput, @Ctx() ctx: Ctx) {
    const email = otpService(ctx, 'email', 'submit', input.userId);
    const address = checkEmail(input.email);
    const v = await email.start({
      userId: input.userId,
      address: address.email,
      channel: 'EMAIL',
      method: (input.method ?? 'OTP') as 'OTP' | 'MAGIC_LINK',
      redirectUrl: checkRedirect(input.redirectUrl),
      locale: input.locale ?? 'en',
      disposable: address.disposable,
    });
    return { record: nodeOf('email', v) };
  }

  @Mutation(() => VerifyEmailCodePayload, {
    description:
      'Checks a code: the right one verifies the address; a wrong one spends an attempt (the last one fails the verification). ' +
      'A verification that is over refuses codes (CONFLICT)',
  })
  async verifyEmailCode(@Arg('input', () => VerifyEmailCodeInput) input: CodeInput, @Ctx() ctx: Ctx) {
    return { record: nodeOf('email', await otpService(ctx, 'email', 'submit').verify(input.id, input.code)) };
  }

  @Mutation(() => ResendEmailCodePayload, {
    description: 'Sends a new code and link (the previous ones stop working; 3 attempts and 15 minutes again), after a 30-second cool-down',
  })
  async resendEmailCode(@Arg('input', () => ResendEmailCodeInput) input: { id: string }, @Ctx() ctx: Ctx) {
    return { record: nodeOf('email', await otpService(ctx, 'email', 'submit').resend(input.id)) };
  }

  @Subscription(() => EmailVerificationEvent, { description: 'Every change of one email verification', ...follow('email', 'resourceId') })
  emailVerificationUpdated(@Root() event: StreamedEvent, @Arg('id', () => ID, { description: 'The verification to follow' }) _id: string) {
    return envelopeOf(event, fromSnapshot('email'));
  }

  @Subscription(() => EmailVerificationEvent, {
    description: 'Every change of every email verification of one user, present and future',
    ...follow('email', 'userId'),
  })
  emailVerificationUpdatedForUser(
    @Root() event: StreamedEvent,
    @Arg('userId', { description: 'The user whose verifications to follow' }) _userId: string,
  ) {
    return envelopeOf(event, fromSnapshot('email'));
  }
}

/** Federation: other subgraphs reference a phone or email verification by id (tenant-checked). */
export async function resolvePhoneReference(ref: { id: string }, ctx: Ctx) {
  return nodeOf('phone', await otpService(ctx, 'phone', 'read').find(ref.id));
}
export async function resolveEmailReference(ref: { id: string }, ctx: Ctx) {
  return nodeOf('email', await otpService(ctx, 'email', 'read').find(ref.id));
}

/** The user's phone and e-mail verifications, as fields of `User`. */
@Resolver(() => UserType)
export class OtpUserFields {
  @Directive(LIST_SIZE)
  @FieldResolver(() => PhoneVerificationConnection, { description: 'The user’s phone verifications, newest first' })
  phoneVerifications(@Root() user: UserType, @Args() page: ConnectionArgs, @Ctx() ctx: Ctx) {
    return new PhoneVerificationResolver().phoneVerifications({ userId: user.id }, page, ctx);
  }

  @Directive(LIST_SIZE)
  @FieldResolver(() => EmailVerificationConnection, { description: 'The user’s email verifications, newest first' })
  emailVerifications(@Root() user: UserType, @Args() page: ConnectionArgs, @Ctx() ctx: Ctx) {
    return new EmailVerificationResolver().emailVerifications({ userId: user.id }, page, ctx);
  }
}
