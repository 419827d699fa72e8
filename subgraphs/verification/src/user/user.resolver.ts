import { Arg, Ctx, ID, Query, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../../../platform/graphql/subgraph.js';
import { visibleUser } from '../../../../platform/graphql/user.js';
import { UserType } from './user.type.js';

/** `user(id)`; each capability adds the field of its records to `User` (its `…UserFields` resolver). */
@Resolver(() => UserType)
export class UserResolver {
  @Query(() => UserType, {
    nullable: true,
    description: 'One of your users, to read everything held about them in one query (null for a user a session token may not see)',
  })
  user(@Arg('id', () => ID, { description: 'Your identifier of the user' }) id: string, @Ctx() ctx: SubgraphContext) {
    return visibleUser(id, ctx);
  }
}
