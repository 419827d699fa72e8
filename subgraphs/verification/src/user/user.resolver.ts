import { Arg, Args, Ctx, Directive, FieldResolver, ID, Query, Resolver, Root } from 'type-graphql';
import { ConnectionArgs, LIST_SIZE } from '../../../../platform/graphql/connection.js';
import type { SubgraphContext } from '../../../../platform/graphql/subgraph.js';
import { authorize } from '../../../../platform/graphql/tenancy.js';
import type { VerificationDeps } from '../deps.js';
import { IdentityService } from '../identity/identity.service.js';
import { IdentityVerificationConnection, IdentityVerificationType } from '../identity/identity.type.js';
import { UserType } from './user.type.js';

type Ctx = SubgraphContext<VerificationDeps>;

const identities = (ctx: Ctx) => new IdentityService(ctx.em, authorize(ctx, 'verification', 'identity:read'));

/** The user a caller may see: any of its organization's; a session only its own. */
export function visibleUser(id: string, ctx: SubgraphContext<unknown>): UserType | null {
  const own = ctx.tenant?.userId;
  if (!id || id.length > 255 || (own !== undefined && own !== id)) return null;
  return { id };
}

@Resolver(() => UserType)
export class UserResolver {
  @Query(() => UserType, {
    nullable: true,
    description: 'One of your users, to read everything held about them in one query (null for a user a session token may not see)',
  })
  user(@Arg('id', () => ID, { description: 'Your identifier of the user' }) id: string, @Ctx() ctx: Ctx) {
    return visibleUser(id, ctx);
  }

  @Directive(LIST_SIZE)
  @FieldResolver(() => IdentityVerificationConnection, { description: 'The user’s identity verifications, newest first' })
  identityVerifications(@Root() user: UserType, @Args() page: ConnectionArgs, @Ctx() ctx: Ctx) {
    return identities(ctx).list({ userId: user.id }, page);
  }

  @FieldResolver(() => IdentityVerificationType, {
    nullable: true,
    description: 'The user’s current identity verification: the newest one not replaced by a restart',
  })
  currentIdentityVerification(@Root() user: UserType, @Ctx() ctx: Ctx) {
    return identities(ctx).current(user.id);
  }
}

/** Federation: another subgraph's `User` reference, as this caller may see it. */
export const resolveUserReference = (ref: { id: string }, ctx: Ctx) => visibleUser(ref.id, ctx);
