import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { ConnectionType } from '../../../../platform/graphql/connection.js';
import { EventEnvelopeType } from '../../../../platform/graphql/event-envelope.js';
import { UserError } from '../../../../platform/graphql/user-errors.js';
import { IdentityTierEnum } from '../identity/identity.type.js';
import type { IdentityTier } from '../identity/identity.entity.js';
import { FLOW_LOCALES, FLOW_STATES, FLOW_STEPS, STEP_STATUSES, type FlowStep } from './flow.steps.js';

const enumOf = <T extends string>(values: readonly T[]) => Object.fromEntries(values.map((v) => [v, v])) as { [K in T]: K };

export const FlowStepEnum = enumOf(FLOW_STEPS);
registerEnumType(FlowStepEnum, {
  name: 'VerificationFlowStep',
  description: 'A check the flow takes the person through',
  valuesConfig: {
    DOCUMENT: { description: 'An identity document photographed or uploaded' },
    LIVENESS: { description: 'A reference selfie, then the liveness challenges' },
    PHONE: { description: 'A code sent to their phone' },
    EMAIL: { description: 'A code sent to their email address' },
    ADDRESS: { description: 'A proof of address (a bill or a statement)' },
  },
});

const FlowStepStatusEnum = enumOf(STEP_STATUSES);
registerEnumType(FlowStepStatusEnum, {
  name: 'VerificationFlowStepStatus',
  description: 'Where a step stands: its newest check since the flow was created',
  valuesConfig: {
    NOT_STARTED: { description: 'No check yet' },
    IN_PROGRESS: { description: 'Started, waiting for the person (a code, the liveness photos)' },
    PROCESSING: { description: 'Submitted, being checked' },
    PASSED: { description: 'Verified' },
    FAILED: { description: 'Rejected, failed or expired: the person may try again while the flow lives' },
    MANUAL_REVIEW: { description: 'With a reviewer: nothing more for the person to do' },
  },
});

export const FlowStateEnum = enumOf(FLOW_STATES);
registerEnumType(FlowStateEnum, {
  name: 'VerificationFlowStatus',
  description: 'Where a flow stands',
  valuesConfig: {
    CREATED: { description: 'Its link was not opened yet' },
    OPENED: { description: 'The person opened the link (once: it cannot be opened again)' },
    COMPLETED: { description: 'Every step passed or is with a reviewer' },
    EXPIRED: { description: 'Past its time with steps left undone: its page’s session no longer works' },
  },
});

@ObjectType('VerificationFlowBranding', { description: 'How the page looks: the organization’s logo and colours' })
export class FlowBrandingType {
  @Field(() => String, { nullable: true, description: 'An HTTPS image shown at the top' })
  logoUrl?: string | null;

  @Field(() => String, { nullable: true, description: 'Buttons and progress, #rrggbb (text on it is chosen to stay readable)' })
  primaryColor?: string | null;

  @Field(() => String, { nullable: true, description: 'Links and focus rings, #rrggbb' })
  accentColor?: string | null;
}

@ObjectType('VerificationFlowStepState', { description: 'One step of a flow and where it stands' })
export class FlowStepStateType {
  @Field(() => FlowStepEnum, { description: 'The step' })
  step!: string;

  @Field(() => FlowStepStatusEnum, { description: 'Where it stands' })
  status!: string;

  @Field(() => ID, { nullable: true, description: 'Its check (a document verification, a liveness session…); null before it starts' })
  checkId?: string | null;
}

@ObjectType('VerificationFlow', { description: 'A hosted page that takes one user through some checks, opened once from its link' })
export class VerificationFlowType {
  @Field(() => ID, { description: 'Its identifier' })
  id!: string;

  @Field({ description: 'Your identifier of the user' })
  userId!: string;

  /** Resolved from the checks with its steps (flow.resolver.ts). */
  status?: string;

  /** The listed steps; resolved with where each stands (flow.resolver.ts). */
  steps!: string[];

  @Field(() => IdentityTierEnum, { nullable: true, description: 'The identity tier the steps came from; null when listed' })
  tier?: string | null;

  @Field(() => ID, { nullable: true, description: 'The identity verification a tier’s flow completes (started with the flow)' })
  identityVerificationId?: string | null;

  @Field({ description: `The page’s language: ${FLOW_LOCALES.join(' or ')}` })
  locale!: string;

  @Field({ description: 'Where the page sends the person at the end, with flowId and status in its query' })
  redirectUrl!: string;

  @Field(() => FlowBrandingType, { nullable: true, description: 'The logo and colours; null for the default look' })
  branding?: FlowBrandingType | null;

  @Field(() => [String], { description: 'Origins whose pages may embed the flow (the web component); empty: the hosted page only' })
  embedOrigins!: string[];

  @Field({ description: 'When the link and the page’s session stop working' })
  expiresAt!: Date;

  @Field(() => Date, { nullable: true, description: 'When the link was opened; null before' })
  openedAt?: Date | null;

  @Field({ description: 'When it was created' })
  createdAt!: Date;

  @Field({ description: 'When it last changed' })
  updatedAt!: Date;
}

export const VerificationFlowConnection = ConnectionType('VerificationFlow', VerificationFlowType, 'verification flow');

export const VerificationFlowEvent = EventEnvelopeType(
  'VerificationFlow',
  VerificationFlowType,
  {
    'verification_flow.created': 'A flow was created (its link not yet opened)',
    'verification_flow.opened': 'The person opened the flow’s link',
  },
  'verification flow',
);

@InputType({ description: 'The logo and colours of a flow’s page' })
export class FlowBrandingInput {
  @Field(() => String, { nullable: true, description: 'An HTTPS image URL (checked like a webhook URL: no private addresses)' })
  logoUrl?: string | null;

  @Field(() => String, { nullable: true, description: '#rrggbb for buttons and progress' })
  primaryColor?: string | null;

  @Field(() => String, { nullable: true, description: '#rrggbb for links and focus rings' })
  accentColor?: string | null;
}

@InputType({ description: 'A hosted verification flow for one user' })
export class CreateVerificationFlowInput {
  @Field({ description: 'Your identifier of the user the page verifies' })
  userId!: string;

  @Field(() => [FlowStepEnum], { nullable: true, description: 'The steps, listed; or give tier' })
  steps?: FlowStep[] | null;

  @Field(() => IdentityTierEnum, {
    nullable: true,
    description:
      'The steps of an identity tier (BASIC: document; STANDARD and ENHANCED: document and liveness), and its identity verification started',
  })
  tier?: IdentityTier | null;

  @Field(() => String, {
    nullable: true,
    description: `The page’s language: ${FLOW_LOCALES.join(' or ')}, default en (the page also honours ?lang=)`,
  })
  locale?: string | null;

  @Field({ description: 'Where to send the person at the end (http or https); flowId and status are added to its query' })
  redirectUrl!: string;

  @Field(() => FlowBrandingInput, { nullable: true, description: 'The logo and colours; the default look when absent' })
  branding?: FlowBrandingInput | null;

  @Field(() => [String], {
    nullable: true,
    description: 'Origins whose pages may embed the flow with the web component (https, or http on localhost), at most 10',
  })
  embedOrigins?: string[] | null;

  @Field(() => Int, { nullable: true, description: 'How long the link and the page’s session work, 5 to 1,440 minutes (default 30)' })
  expiresInMinutes?: number | null;
}

@InputType({ description: 'Which flows to list (all of the organization when empty)' })
export class VerificationFlowFilter {
  @Field(() => String, { nullable: true, description: 'Only this user’s' })
  userId?: string | null;
}

@ObjectType('CreateVerificationFlowPayload', { description: 'The result of createVerificationFlow' })
export class CreateVerificationFlowPayload {
  @Field(() => VerificationFlowType, { nullable: true, description: 'The new flow' })
  verificationFlow?: VerificationFlowType | null;

  @Field(() => String, { nullable: true, description: 'The page’s one-use link: send it to the person (shown only here)' })
  url?: string | null;

  @Field(() => [UserError], { description: 'Mistakes in the input; empty on success' })
  userErrors!: UserError[];
}
