import { Arg, Args, Ctx, Directive, FieldResolver, ID, Int, Mutation, Query, Resolver, Subscription } from 'type-graphql';
import { Root } from '../../../../platform/graphql/root.js';
import { actorOf } from '../../../../platform/audit/audit.js';
import { ConnectionArgs, LIST_SIZE } from '../../../../platform/graphql/connection.js';
import { envelopeOf, reviveDates } from '../../../../platform/graphql/event-envelope.js';
import { authorize, tenantEvents } from '../../../../platform/graphql/tenancy.js';
import { readUpload } from '../../../../platform/graphql/upload.js';
import { forbidden } from '../../../../platform/errors.js';
import { fileUrl } from '../../../../platform/storage/file-routes.js';
import type { StreamedEvent } from '../../../../platform/events/event-stream.js';
import type { VerificationContext } from '../verification.shared.js';
import type { AddressJobs } from './address.service.js';
import { UserType } from '../user/user.type.js';
import { ageText } from './address-decision.js';
import { ADDRESS_RESOURCE } from './address.events.js';
import { AddressVerificationFilter, CreateAddressVerificationInput, ReviewAddressVerificationInput } from './address.inputs.js';
import { AddressService } from './address.service.js';
import {
  AddressVerificationConnection,
  AddressVerificationEvent,
  AddressVerificationType,
  CreateAddressVerificationPayload,
  ReviewAddressVerificationPayload,
} from './address.type.js';

type Ctx = VerificationContext<{ addressJobs: AddressJobs }>;

/** `submit` creates a check (for a session token, only for its own user: `forUser`); `write` also reviews. */
export function addressService(ctx: Ctx, access: 'read' | 'submit' | 'write', forUser?: string): AddressService {
  return new AddressService(ctx.em, authorize(ctx, 'verification', `address:${access}`, forUser), {
    files: ctx.deps.files,
    jobs: ctx.deps.addressJobs,
    fetch: { timeoutMs: ctx.deps.config.ADDRESS_FETCH_TIMEOUT_MS, allowPrivateTargets: ctx.deps.config.WEBHOOK_ALLOW_PRIVATE_TARGETS },
  });
}

const fromSnapshot = (s: Record<string, unknown>) =>
  reviveDates<AddressVerificationType>(s, ['checkedAt', 'completedAt', 'reviewedAt', 'documentDeletedAt', 'createdAt', 'updatedAt']);

/** Events of one record (`id`), of one user (`userId`) or of the whole organization. */
const subscribe =
  (filter: 'resourceId' | 'userId' | 'organization') =>
  ({ args, context }: { args: Record<string, string>; context: unknown }) =>
    tenantEvents(
      context as Ctx,
      { service: 'verification', permission: 'address:read' },
      ADDRESS_RESOURCE,
      filter === 'organization' ? {} : { [filter]: args[filter === 'resourceId' ? 'id' : 'userId'] },
    );

@Resolver(() => AddressVerificationType)
export class AddressResolver {
  @Query(() => AddressVerificationType, { nullable: true, description: 'One address verification; null when there is none with this id' })
  addressVerification(@Arg('id', () => ID, { description: 'Its identifier' }) id: string, @Ctx() ctx: Ctx) {
    return addressService(ctx, 'read').find(id);
  }

  @Directive(LIST_SIZE)
  @Query(() => AddressVerificationConnection, {
    description: 'The organization’s address verifications, newest first: of one user, or in one status (the review queue)',
  })
  addressVerifications(
    @Arg('filter', () => AddressVerificationFilter, { nullable: true, description: 'Which ones; all when absent' })
    filter: AddressVerificationFilter | null,
    @Args() page: ConnectionArgs,
    @Ctx() ctx: Ctx,
  ) {
    return addressService(ctx, 'read').list(filter ?? {}, page);
  }

  @FieldResolver(() => UserType, { description: 'The user whose address it is' })
  user(@Root() a: AddressVerificationType): UserType {
    return { id: a.userId };
  }

  @FieldResolver(() => String, {
    nullable: true,
    description: 'The document’s age when checked, as text: "44 days"; null until checked or without a date',
  })
  documentAge(@Root() a: AddressVerificationType): string | null {
    return ageText(a.documentAgeDays ?? null);
  }

  @FieldResolver(() => Int, { nullable: true, description: 'The same in whole days, from the issue date to the check' })
  documentAgeDays(@Root() a: AddressVerificationType): number | null {
    return a.documentAgeDays ?? null;
  }

  @FieldResolver(() => String, {
    nullable: true,
    description:
      'Where the document image is served (GET with your API key; only to your organization); null once deleted (erasure of the user, or retention)',
  })
  documentImageUrl(@Root() a: AddressVerificationType): string | null {
    return a.documentDeletedAt ? null : fileUrl(a.fileId);
  }

  @Mutation(() => CreateAddressVerificationPayload, {
    description: 'Submits a proof of address (an upload or a URL); it is created PROCESSING and checked in the background',
  })
  async createAddressVerification(@Arg('input') input: CreateAddressVerificationInput, @Ctx() ctx: Ctx) {
    const service = addressService(ctx, 'submit', input.userId);
    // a browser's token uploads its document: it does not make the server fetch addresses of its choosing
    if (ctx.tenant?.userId !== undefined && input.documentUrl)
      throw forbidden('A session token submits the document as an upload, not a URL');
    const addressVerification = await service.submit({
      ...input,
      document: input.document ? await readUpload(input.document, 'document') : null,
    });
    return { addressVerification };
  }

  @Mutation(() => ReviewAddressVerificationPayload, {
    description: 'Records a reviewer’s decision on an address verification in MANUAL_REVIEW (otherwise a CONFLICT user error)',
  })
  async reviewAddressVerification(@Arg('input') input: ReviewAddressVerificationInput, @Ctx() ctx: Ctx) {
    return { addressVerification: await addressService(ctx, 'write').review(input.id, input, actorOf(ctx.principal)) };
  }

  @Subscription(() => AddressVerificationEvent, {
    description: 'Every change of one address verification',
    subscribe: subscribe('resourceId'),
  })
  addressVerificationUpdated(
    @Root() event: StreamedEvent,
    @Arg('id', () => ID, { description: 'The address verification to follow' }) _id: string,
  ) {
    return envelopeOf(event, fromSnapshot);
  }

  @Subscription(() => AddressVerificationEvent, {
    description: 'Every change of every address verification of one user, present and future',
    subscribe: subscribe('userId'),
  })
  addressVerificationUpdatedForUser(
    @Root() event: StreamedEvent,
    @Arg('userId', { description: 'The user whose address verifications to follow' }) _userId: string,
  ) {
    return envelopeOf(event, fromSnapshot);
  }

  @Subscription(() => AddressVerificationEvent, {
    description:
      'Every change of every address verification of the organization (a session token: of its user), present and future: a review queue’s feed, records entering MANUAL_REVIEW and leaving it',
    subscribe: subscribe('organization'),
  })
  addressVerificationUpdatedForOrganization(@Root() event: StreamedEvent) {
    return envelopeOf(event, fromSnapshot);
  }
}

/** Federation: other subgraphs reference an address verification by id (tenant-checked). */
export function resolveAddressReference(ref: { id: string }, ctx: Ctx) {
  return addressService(ctx, 'read').find(ref.id);
}

/** The user's address verifications, as fields of `User`. */
@Resolver(() => UserType)
export class AddressUserFields {
  @Directive(LIST_SIZE)
  @FieldResolver(() => AddressVerificationConnection, { description: 'The user’s address verifications (proofs of address), newest first' })
  addressVerifications(@Root() user: UserType, @Args() page: ConnectionArgs, @Ctx() ctx: Ctx) {
    return addressService(ctx, 'read').list({ userId: user.id }, page);
  }
}
