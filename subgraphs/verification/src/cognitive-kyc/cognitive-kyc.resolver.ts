import { Arg, Args, Ctx, Directive, FieldResolver, ID, Mutation, Query, Resolver, Subscription } from 'type-graphql';
import { Root } from '../../../../platform/graphql/root.js';
import { actorOf } from '../../../../platform/audit/audit.js';
import { ConnectionArgs, LIST_SIZE } from '../../../../platform/graphql/connection.js';
import { envelopeOf, reviveDates } from '../../../../platform/graphql/event-envelope.js';
import { authorize, tenantEvents } from '../../../../platform/graphql/tenancy.js';
import type { StreamedEvent } from '../../../../platform/events/event-stream.js';
import type { VerificationContext } from '../verification.shared.js';
import type { DocumentDeps } from '../document/document.service.js';
import { DocumentService } from '../document/document.service.js';
import { UserType } from '../user/user.type.js';
import { COGNITIVE_KYC_RESOURCE } from './cognitive-kyc.events.js';
import { CognitiveKycCheckFilter, CreateCognitiveKycCheckInput, ReviewCognitiveKycCheckInput } from './cognitive-kyc.inputs.js';
import { CognitiveKycService } from './cognitive-kyc.service.js';
import {
  CognitiveKycCheckConnection,
  CognitiveKycCheckEvent,
  CognitiveKycCheckType,
  CognitiveKycFraudHistoryType,
  CreateCognitiveKycCheckPayload,
  FraudHistoryType,
  ReviewCognitiveKycCheckPayload,
} from './cognitive-kyc.type.js';

type Ctx = VerificationContext<DocumentDeps>;

export function cognitiveKycService(ctx: Ctx, access: 'read' | 'write'): CognitiveKycService {
  const tenant = authorize(ctx, 'verification', `cognitive_kyc:${access}`);
  // the fraud history reads the organization's documents as part of this capability
  const documents = new DocumentService(ctx.em, tenant, { files: ctx.deps.files, jobs: ctx.deps.documentJobs });
  return new CognitiveKycService(ctx.em, tenant, { vision: ctx.deps.vision, documents, keyring: ctx.deps.keyring });
}

const fromSnapshot = (s: Record<string, unknown>) => reviveDates<CognitiveKycCheckType>(s, ['reviewedAt', 'createdAt', 'updatedAt']);

const subscribe =
  (filter: 'resourceId' | 'userId') =>
  ({ args, context }: { args: Record<string, string>; context: unknown }) =>
    tenantEvents(context as Ctx, { service: 'verification', permission: 'cognitive_kyc:read' }, COGNITIVE_KYC_RESOURCE, {
      [filter]: args[filter === 'resourceId' ? 'id' : 'userId'],
    });

@Resolver(() => CognitiveKycCheckType)
export class CognitiveKycResolver {
  @Query(() => CognitiveKycCheckType, { nullable: true, description: 'One AI identity check; null when there is none with this id' })
  cognitiveKycCheck(@Arg('id', () => ID, { description: 'Its identifier' }) id: string, @Ctx() ctx: Ctx) {
    return cognitiveKycService(ctx, 'read').find(id);
  }

  @Directive(LIST_SIZE)
  @Query(() => CognitiveKycCheckConnection, {
    description: 'The organization’s AI identity checks, newest first: of one user, or with one decision (the review queue)',
  })
  cognitiveKycChecks(
    @Arg('filter', () => CognitiveKycCheckFilter, { nullable: true, description: 'Which ones; all when absent' })
    filter: CognitiveKycCheckFilter | null,
    @Args() page: ConnectionArgs,
    @Ctx() ctx: Ctx,
  ) {
    return cognitiveKycService(ctx, 'read').list(filter ?? {}, page);
  }

  @FieldResolver(() => UserType, { description: 'The user checked' })
  user(@Root() c: CognitiveKycCheckType): UserType {
    return { id: c.userId };
  }

  @FieldResolver(() => CognitiveKycFraudHistoryType, { description: 'The organization’s earlier records when the check ran' })
  fraudHistory(@Root() c: CognitiveKycCheckType): CognitiveKycFraudHistoryType {
    return { priorVerifications: c.priorVerifications, flaggedAttempts: c.flaggedAttempts, riskLevel: c.riskLevel };
  }

  @FieldResolver(() => Date, { description: 'When the check ran (the spec’s name for createdAt)' })
  timestamp(@Root() c: CognitiveKycCheckType): Date {
    return c.createdAt;
  }

  @Mutation(() => CreateCognitiveKycCheckPayload, {
    description: 'Compares a selfie with an identity document and checks both for fraud; answers the decision (nothing runs later)',
  })
  async createCognitiveKycCheck(@Arg('input') input: CreateCognitiveKycCheckInput, @Ctx() ctx: Ctx) {
    return { cognitiveKycCheck: await cognitiveKycService(ctx, 'write').verify(input) };
  }

  @Mutation(() => ReviewCognitiveKycCheckPayload, {
    description: 'Records a reviewer’s decision on a check in MANUAL_REVIEW (otherwise a CONFLICT user error)',
  })
  async reviewCognitiveKycCheck(@Arg('input') input: ReviewCognitiveKycCheckInput, @Ctx() ctx: Ctx) {
    return { cognitiveKycCheck: await cognitiveKycService(ctx, 'write').review(input.id, input, actorOf(ctx.principal)) };
  }

  @Subscription(() => CognitiveKycCheckEvent, { description: 'Every change of one AI identity check', subscribe: subscribe('resourceId') })
  cognitiveKycCheckUpdated(@Root() event: StreamedEvent, @Arg('id', () => ID, { description: 'The check to follow' }) _id: string) {
    return envelopeOf(event, fromSnapshot);
  }

  @Subscription(() => CognitiveKycCheckEvent, {
    description: 'Every AI identity check of one user and its changes, present and future',
    subscribe: subscribe('userId'),
  })
  cognitiveKycCheckUpdatedForUser(
    @Root() event: StreamedEvent,
    @Arg('userId', { description: 'The user whose checks to follow' }) _userId: string,
  ) {
    return envelopeOf(event, fromSnapshot);
  }
}

/** The fraud history on its own (no check is recorded). */
@Resolver()
export class FraudHistoryResolver {
  @Query(() => FraudHistoryType, {
    description:
      'What the organization’s own earlier records (AI identity checks, document verifications) say about a user, a document number or a name; at least one must be given',
  })
  fraudHistory(
    @Arg('userId', () => String, { nullable: true, description: 'Records of this user' }) userId: string | null,
    @Arg('documentNumber', () => String, { nullable: true, description: 'Records of this document number (as read from the document)' })
    documentNumber: string | null,
    @Arg('fullName', () => String, { nullable: true, description: 'Records of this name (accents, case and punctuation ignored)' })
    fullName: string | null,
    @Ctx() ctx: Ctx,
  ) {
    return cognitiveKycService(ctx, 'read').fraudHistory({ userId, documentNumber, fullName });
  }
}

/** Federation: other subgraphs reference an AI identity check by id (tenant-checked). */
export function resolveCognitiveKycReference(ref: { id: string }, ctx: Ctx) {
  return cognitiveKycService(ctx, 'read').find(ref.id);
}

/** The user's AI identity checks, as fields of `User`. */
@Resolver(() => UserType)
export class CognitiveKycUserFields {
  @Directive(LIST_SIZE)
  @FieldResolver(() => CognitiveKycCheckConnection, {
    description: 'The user’s AI identity checks (selfie against document), newest first',
  })
  cognitiveKycChecks(@Root() user: UserType, @Args() page: ConnectionArgs, @Ctx() ctx: Ctx) {
    return cognitiveKycService(ctx, 'read').list({ userId: user.id }, page);
  }
}
