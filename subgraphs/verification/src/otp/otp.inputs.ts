import { Field, ID, InputType } from 'type-graphql';
import { IsNotEmpty, IsOptional, Matches, MaxLength } from 'class-validator';
import type { OtpStatus } from './otp.lifecycle.js';
import { EmailMethodEnum, OtpStatusEnum, PhoneChannelEnum } from './otp.type.js';

const USER_ID = { description: 'Your identifier of the user (any text up to 255 characters)' };

@InputType({ description: 'Send a one-time code to a phone number' })
export class StartPhoneVerificationInput {
  @Field(USER_ID)
  @IsNotEmpty({ message: 'userId must not be empty' })
  @MaxLength(255, { message: 'userId must have at most 255 characters' })
  userId!: string;

  @Field({ description: 'The number in E.164 (+ then country code and number, e.g. +254712345678)' })
  phoneNumber!: string;

  @Field(() => PhoneChannelEnum, { nullable: true, description: 'How to send the code; default SMS' })
  channel?: string | null;

  @Field(() => String, { nullable: true, description: 'Language of the message (BCP 47, e.g. en, fr, sw); default en' })
  @IsOptional()
  @Matches(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, { message: 'locale must be a language tag such as en, fr or pt-BR' })
  locale?: string | null;
}

@InputType({ description: 'Send a one-time code (or a magic link) to an email address' })
export class StartEmailVerificationInput {
  @Field(USER_ID)
  @IsNotEmpty({ message: 'userId must not be empty' })
  @MaxLength(255, { message: 'userId must have at most 255 characters' })
  userId!: string;

  @Field({ description: 'The address to verify' })
  email!: string;

  @Field(() => EmailMethodEnum, { nullable: true, description: 'What the email carries; default OTP' })
  method?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'An http(s) URL the browser is sent to once a magic link is opened (with ?status=VERIFIED or EXPIRED…)',
  })
  @IsOptional()
  @MaxLength(2048, { message: 'redirectUrl must have at most 2048 characters' })
  redirectUrl?: string | null;

  @Field(() => String, { nullable: true, description: 'Language of the message (BCP 47); default en' })
  @IsOptional()
  @Matches(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, { message: 'locale must be a language tag such as en, fr or pt-BR' })
  locale?: string | null;
}

/** `Verify<Kind>CodeInput`: the verification and the code the user received. */
function verifyInput(kind: 'Phone' | 'Email') {
  @InputType(`Verify${kind}CodeInput`, { description: 'The code the user received' })
  class VerifyInput {
    @Field(() => ID, { description: 'The verification' })
    id!: string;

    @Field({ description: 'The 6-digit code' })
    code!: string;
  }
  return VerifyInput;
}

/** `Resend<Kind>CodeInput`: the verification to send a new code for. */
function resendInput(kind: 'Phone' | 'Email') {
  @InputType(`Resend${kind}CodeInput`, { description: 'Which verification to send a new code for' })
  class ResendInput {
    @Field(() => ID, { description: 'The verification (PENDING, after the resend cool-down)' })
    id!: string;
  }
  return ResendInput;
}

export const VerifyPhoneCodeInput = verifyInput('Phone');
export const VerifyEmailCodeInput = verifyInput('Email');
export const ResendPhoneCodeInput = resendInput('Phone');
export const ResendEmailCodeInput = resendInput('Email');
export interface CodeInput {
  id: string;
  code: string;
}

@InputType({ description: 'Which verifications to list (all of the organization when empty)' })
export class CodeVerificationFilter {
  @Field(() => String, { nullable: true, description: 'Only this user’s' })
  userId?: string | null;

  @Field(() => OtpStatusEnum, { nullable: true, description: 'Only in this status' })
  status?: OtpStatus | null;
}
