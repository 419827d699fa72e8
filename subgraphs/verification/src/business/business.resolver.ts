import { Arg, Args, Ctx, Directive, FieldResolver, ID, Mutation, Query, Resolver, Subscription } from 'type-graphql';
import { Root } from '../../../../platform/graphql/root.js';
import { actorOf } from '../../../../platform/audit/audit.js';
import { ConnectionArgs, LIST_SIZE, type Connection } from '../../../../platform/graphql/connection.js';
import { envelopeOf, reviveDates } from '../../../../platform/graphql/event-envelope.js';
import { authorize, tenantEvents } from '../../../../platform/graphql/tenancy.js';
import type { StreamedEvent } from '../../../../platform/events/event-stream.js';
import type { VerificationContext } from '../verification.shared.js';
import type { BusinessDeps } from './business.service.js';
import { AmlService } from '../aml/aml.service.js';
import { toAmlScreening } from '../aml/aml.resolver.js';
import { AmlScreeningType } from '../aml/aml.type.js';
import { UserType } from '../user/user.type.js';
import type { BusinessPerson } from './business.entity.js';
import { BUSINESS_RESOURCE, type BusinessView } from './business.events.js';
import {
  AddBusinessDirectorsInput,
  AddBusinessUbosInput,
  BusinessVerificationFilter,
  CreateBusinessVerificationInput,
  ReviewBusinessVerificationInput,
} from './business.inputs.js';
import { BusinessService } from './business.service.js';
import {
  AddBusinessDirectorsPayload,
  AddBusinessUbosPayload,
  BusinessDirectorType,
  BusinessUboType,
  BusinessVerificationConnection,
  BusinessVerificationEvent,
  BusinessVerificationType,
  CreateBusinessVerificationPayload,
  RegistryLookupType,
  ReviewBusinessVerificationPayload,
} from './business.type.js';

type Ctx = VerificationContext<BusinessDeps>;

export function businessService(ctx: Ctx, access: 'read' | 'write'): BusinessService {
  const tenant = authorize(ctx, 'verification', `business:${access}`);
  const { businessRegistries: registries, businessJobs: jobs, screening, amlCatalog: catalog } = ctx.deps;
  return new BusinessService(ctx.em, tenant, { registries, jobs, aml: { screening, catalog } });
}

const toDirector = (p: BusinessPerson): BusinessDirectorType => ({ ...p, role: p.role ?? '' });
const toUbo = (p: BusinessPerson): BusinessUboType => ({ ...p, ownershipPercentage: p.ownershipPercentage ?? 0 });

export function toBusiness({ business, people }: BusinessView): BusinessVerificationType {
  return {
    ...business,
    directors: people.filter((p) => p.kind === 'DIRECTOR').map(toDirector),
    ubos: people.filter((p) => p.kind === 'UBO').map(toUbo),
  };
}

const toBusinesses = (page: Connection<BusinessView>): Connection<BusinessVerificationType> => {
  const edges = page.edges.map((edge) => ({ cursor: edge.cursor, node: toBusiness(edge.node) }));
  return { ...page, edges, nodes: edges.map((edge) => edge.node) };
};

const DATES = ['registryCheckedAt', 'registryRetryAt', 'reviewedAt', 'completedAt', 'createdAt', 'updatedAt'];

/** Outbox snapshots carry dates as ISO strings; the GraphQL types want Date objects. */
function fromSnapshot(s: Record<string, unknown>): BusinessVerificationType {
  const { directors, ubos, ...rest } = s as { directors?: Array<Record<string, unknown>>; ubos?: Array<Record<string, unknown>> };
  const people = (list?: Array<Record<string, unknown>>) => (list ?? []).map((p) => reviveDates<never>(p, ['createdAt']));
  return { ...reviveDates<BusinessVerificationType>(rest, DATES), directors: people(directors), ubos: people(ubos) };
}

/** Events of one record (`id`), of one user (`userId`) or of the whole organization. */
const subscribe =
  (filter: 'resourceId' | 'userId' | 'organization') =>
  ({ args, context }: { args: Record<string, string>; context: unknown }) =>
    tenantEvents(
      context as Ctx,
      { service: 'verification', permission: 'business:read' },
      BUSINESS_RESOURCE,
      filter === 'organization' ? {} : { [filter]: args[filter === 'resourceId' ? 'id' : 'userId'] },
    );

/** The screening a director or UBO went through: part of the business verification, read with its permission. */
async function screeningOf(amlScreeningId: string | null | undefined, ctx: Ctx) {
  if (!amlScreeningId) return null;
  const tenant = authorize(ctx, 'verification', 'business:read');
  const view = await new AmlService(ctx.em, tenant, { screening: ctx.deps.screening, catalog: ctx.deps.amlCatalog }).find(amlScreeningId);
  return view ? toAmlScreening(view) : null;
}

@Resolver(() => BusinessVerificationType)
export class BusinessResolver {
  @Query(() => BusinessVerificationType, { nullable: true, description: 'One business verification; null when there is none with this id' })
  async businessVerification(@Arg('id', () => ID, { description: 'Its identifier' }) id: string, @Ctx() ctx: Ctx) {
    const view = await businessService(ctx, 'read').find(id);
    return view ? toBusiness(view) : null;
  }

  @Directive(LIST_SIZE)
  @Query(() => BusinessVerificationConnection, {
    description: 'The organization’s business verifications, newest first: of one user, or in one status (the review queue)',
  })
  async businessVerifications(
    @Arg('filter', () => BusinessVerificationFilter, { nullable: true, description: 'Which ones; all when absent' })
    filter: BusinessVerificationFilter | null,
    @Args() page: ConnectionArgs,
    @Ctx() ctx: Ctx,
  ) {
    return toBusinesses(await businessService(ctx, 'read').list(filter ?? {}, page));
  }

  @FieldResolver(() => UserType, { description: 'The user who declared the business' })
  user(@Root() b: BusinessVerificationType): UserType {
    return { id: b.userId };
  }

  @FieldResolver(() => RegistryLookupType, { description: 'How the registry lookup went: the registry, attempts, the next retry' })
  registryLookup(@Root() b: BusinessVerificationType): RegistryLookupType {
    return {
      provider: b.registryProvider,
      attempts: b.registryAttempts,
      lastAttemptAt: b.registryCheckedAt ?? null,
      nextAttemptAt: b.registryRetryAt ?? null,
      lastError: b.registryError ?? null,
    };
  }

  @Mutation(() => CreateBusinessVerificationPayload, {
    description: 'Starts a business verification: PENDING, the registry lookup running (registration PROCESSING), the other steps PENDING',
  })
  async createBusinessVerification(@Arg('input') input: CreateBusinessVerificationInput, @Ctx() ctx: Ctx) {
    return { businessVerification: toBusiness(await businessService(ctx, 'write').create(input)) };
  }

  @Mutation(() => AddBusinessDirectorsPayload, {
    description:
      'Declares directors of a business a reviewer has not decided (and not REJECTED); each is screened now and the steps and status follow (a match moves a VERIFIED business to MANUAL_REVIEW)',
  })
  async addBusinessDirectors(@Arg('input') input: AddBusinessDirectorsInput, @Ctx() ctx: Ctx) {
    return { businessVerification: toBusiness(await businessService(ctx, 'write').addDirectors(input.id, input.directors)) };
  }

  @Mutation(() => AddBusinessUbosPayload, {
    description:
      'Declares ultimate beneficial owners of a business a reviewer has not decided (and not REJECTED); ownership adds up to 100 % at most; each is screened now',
  })
  async addBusinessUbos(@Arg('input') input: AddBusinessUbosInput, @Ctx() ctx: Ctx) {
    return { businessVerification: toBusiness(await businessService(ctx, 'write').addUbos(input.id, input.ubos)) };
  }

  @Mutation(() => ReviewBusinessVerificationPayload, {
    description: 'Records a reviewer’s decision on a business in MANUAL_REVIEW (otherwise a CONFLICT user error)',
  })
  async reviewBusinessVerification(@Arg('input') input: ReviewBusinessVerificationInput, @Ctx() ctx: Ctx) {
    return { businessVerification: toBusiness(await businessService(ctx, 'write').review(input.id, input, actorOf(ctx.principal))) };
  }

  @Subscription(() => BusinessVerificationEvent, {
    description: 'Every change of one business verification: steps, declarations, status',
    subscribe: subscribe('resourceId'),
  })
  businessVerificationUpdated(
    @Root() event: StreamedEvent,
    @Arg('id', () => ID, { description: 'The business verification to follow' }) _id: string,
  ) {
    return envelopeOf(event, fromSnapshot);
  }

  @Subscription(() => BusinessVerificationEvent, {
    description: 'Every business verification of one user and its changes, present and future',
    subscribe: subscribe('userId'),
  })
  businessVerificationUpdatedForUser(
    @Root() event: StreamedEvent,
    @Arg('userId', { description: 'The user whose business verifications to follow' }) _userId: string,
  ) {
    return envelopeOf(event, fromSnapshot);
  }

  @Subscription(() => BusinessVerificationEvent, {
    description:
      'Every change of every business verification of the organization (a session token: of its user), present and future: a review queue’s feed, records entering MANUAL_REVIEW and leaving it',
    subscribe: subscribe('organization'),
  })
  businessVerificationUpdatedForOrganization(@Root() event: StreamedEvent) {
    return envelopeOf(event, fromSnapshot);
  }
}

@Resolver(() => BusinessDirectorType)
export class BusinessDirectorResolver {
  @FieldResolver(() => AmlScreeningType, {
    nullable: true,
    description: 'The AML screening made when the director was declared, with its matches; null when no list was loaded',
  })
  amlScreening(@Root() p: BusinessDirectorType, @Ctx() ctx: Ctx) {
    return screeningOf(p.amlScreeningId, ctx);
  }
}

@Resolver(() => BusinessUboType)
export class BusinessUboResolver {
  @FieldResolver(() => AmlScreeningType, {
    nullable: true,
    description: 'The AML screening made when the owner was declared, with its matches; null when no list was loaded',
  })
  amlScreening(@Root() p: BusinessUboType, @Ctx() ctx: Ctx) {
    return screeningOf(p.amlScreeningId, ctx);
  }
}

/** Federation: other subgraphs reference a business verification by id (tenant-checked). */
export async function resolveBusinessReference(ref: { id: string }, ctx: Ctx) {
  const view = await businessService(ctx, 'read').find(ref.id);
  return view ? toBusiness(view) : null;
}

/** The businesses the user declared, as fields of `User`. */
@Resolver(() => UserType)
export class BusinessUserFields {
  @Directive(LIST_SIZE)
  @FieldResolver(() => BusinessVerificationConnection, {
    description: 'The businesses the user declared for verification (KYB), newest first',
  })
  async businessVerifications(@Root() user: UserType, @Args() page: ConnectionArgs, @Ctx() ctx: Ctx) {
    const found = await businessService(ctx, 'read').list({ userId: user.id }, page);
    const edges = found.edges.map((edge) => ({ cursor: edge.cursor, node: toBusiness(edge.node) }));
    return { ...found, edges, nodes: edges.map((edge) => edge.node) };
  }
}
