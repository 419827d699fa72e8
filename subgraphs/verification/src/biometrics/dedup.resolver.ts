import { Arg, Args, Ctx, Directive, FieldResolver, ID, Mutation, Query, Resolver, Subscription } from 'type-graphql';
import { Root } from '../../../../platform/graphql/root.js';
import { ConnectionArgs, LIST_SIZE } from '../../../../platform/graphql/connection.js';
import { envelopeOf } from '../../../../platform/graphql/event-envelope.js';
import { authorize, tenantEvents } from '../../../../platform/graphql/tenancy.js';
import type { StreamedEvent } from '../../../../platform/events/event-stream.js';
import type { VerificationContext } from '../verification.shared.js';
import type { FaceGalleries } from './enrollment.store.js';
import { UserType } from '../user/user.type.js';
import type { DedupMatch } from './dedup.entity.js';
import { DEDUP_RESOURCE } from './dedup.events.js';
import { BiometricDedupCheckFilter, CheckBiometricDuplicateInput, DeleteBiometricEnrollmentInput } from './dedup.inputs.js';
import { DedupService } from './dedup.service.js';
import {
  BiometricDedupCheckConnection,
  BiometricDedupCheckEvent,
  BiometricDedupCheckType,
  BiometricDedupMatchType,
  BiometricEnrollmentType,
  CheckBiometricDuplicatePayload,
  DeleteBiometricEnrollmentPayload,
} from './dedup.type.js';

type Ctx = VerificationContext<{ faceGalleries: FaceGalleries }>;

export function dedupService(ctx: Ctx, access: 'read' | 'write'): DedupService {
  const { vision, faceGalleries: galleries } = ctx.deps;
  return new DedupService(ctx.em, authorize(ctx, 'verification', `biometrics:${access}`), { vision, galleries });
}

/** A check reached through an enrolment is shown to a key that may write (it made the enrolment) as to one that may read. */
function related(ctx: Ctx): DedupService {
  try {
    return dedupService(ctx, 'read');
  } catch {
    return dedupService(ctx, 'write');
  }
}

/** Dates travel as ISO strings inside events; the GraphQL type wants Date objects. */
function fromSnapshot(s: Record<string, unknown>): BiometricDedupCheckType {
  return { ...s, checkedAt: new Date(s.checkedAt as string), createdAt: new Date(s.createdAt as string) } as BiometricDedupCheckType;
}

@Resolver(() => BiometricDedupCheckType)
export class BiometricDedupResolver {
  @Query(() => BiometricDedupCheckType, { nullable: true, description: 'One biometric dedup check; null when there is none with this id' })
  biometricDedupCheck(@Arg('id', () => ID, { description: 'Its identifier' }) id: string, @Ctx() ctx: Ctx) {
    return dedupService(ctx, 'read').find(id);
  }

  @Directive(LIST_SIZE)
  @Query(() => BiometricDedupCheckConnection, {
    description: 'The organization’s biometric dedup checks, newest first: of one user, or with one outcome',
  })
  biometricDedupChecks(
    @Arg('filter', () => BiometricDedupCheckFilter, { nullable: true, description: 'Which ones; all when absent' })
    filter: BiometricDedupCheckFilter | null,
    @Args() page: ConnectionArgs,
    @Ctx() ctx: Ctx,
  ) {
    return dedupService(ctx, 'read').list(filter ?? {}, page);
  }

  @FieldResolver(() => UserType, { description: 'The user whose selfie was checked' })
  user(@Root() check: BiometricDedupCheckType): UserType {
    return { id: check.userId };
  }

  @FieldResolver(() => [BiometricDedupMatchType], {
    nullable: true,
    description: 'The matching enrolled faces of other users, most similar first (at most 10); present when DUPLICATE',
  })
  matches(@Root() check: BiometricDedupCheckType & { matches?: (DedupMatch | BiometricDedupMatchType)[] | null }) {
    if (check.status !== 'DUPLICATE') return null;
    return (check.matches ?? []).map((m) => ({ ...m, enrolledAt: new Date(m.enrolledAt) }));
  }

  @Mutation(() => CheckBiometricDuplicatePayload, {
    description:
      'Compares a selfie’s face with every other user’s enrolled face: DUPLICATE when one matches at or above the threshold, else UNIQUE (and enrolled when asked); ERROR without exactly one face',
  })
  async checkBiometricDuplicate(@Arg('input') input: CheckBiometricDuplicateInput, @Ctx() ctx: Ctx) {
    return { biometricDedupCheck: await dedupService(ctx, 'write').check(input) };
  }

  @Mutation(() => DeleteBiometricEnrollmentPayload, {
    description: 'Erases a user’s enrolled face (their checks stay, without face data): later selfies are no longer compared with it',
  })
  async deleteBiometricEnrollment(@Arg('input') input: DeleteBiometricEnrollmentInput, @Ctx() ctx: Ctx) {
    return { biometricEnrollment: await dedupService(ctx, 'write').deleteEnrollment(input.userId) };
  }

  @Subscription(() => BiometricDedupCheckEvent, {
    description: 'Every new biometric dedup check of one user (a check is final when made)',
    subscribe: ({ args, context }) =>
      tenantEvents(context as Ctx, { service: 'verification', permission: 'biometrics:read' }, DEDUP_RESOURCE, {
        userId: (args as { userId: string }).userId,
      }),
  })
  biometricDedupCheckUpdatedForUser(
    @Root() event: StreamedEvent,
    @Arg('userId', { description: 'The user whose checks to follow' }) _userId: string,
  ) {
    return envelopeOf(event, fromSnapshot);
  }
}

@Resolver(() => BiometricEnrollmentType)
export class BiometricEnrollmentResolver {
  @FieldResolver(() => BiometricDedupCheckType, { nullable: true, description: 'The check that enrolled the face' })
  sourceCheck(@Root() enrollment: BiometricEnrollmentType, @Ctx() ctx: Ctx) {
    return related(ctx).find(enrollment.sourceCheckId);
  }

  @FieldResolver(() => UserType, { description: 'The user whose face it is' })
  user(@Root() enrollment: BiometricEnrollmentType): UserType {
    return { id: enrollment.userId };
  }
}

/** The user's enrolled face, as fields of `User`. */
@Resolver(() => UserType)
export class BiometricsUserFields {
  @FieldResolver(() => BiometricEnrollmentType, {
    nullable: true,
    description: 'The user’s enrolled face for biometric dedup (when and from which check; never the face itself); null when none',
  })
  biometricEnrollment(@Root() user: UserType, @Ctx() ctx: Ctx) {
    return dedupService(ctx, 'read').enrollment(user.id);
  }
}
