import { Directive, Field, ID, ObjectType } from 'type-graphql';
import type { SubgraphContext } from './subgraph.js';

/**
 * A person as the organization knows them: the integrator's `userId`, scoped to the organization
 * (and environment). Every subgraph contributes what it holds about them with field resolvers on
 * its own `User` class (one per subgraph: type-graphql ties field resolvers to the class, and a
 * subgraph must show only its own), all keyed by `id` (docs/graphql-conventions.md).
 */
export function UserEntity() {
  @ObjectType('User', { description: 'One of your users, and everything the platform holds about them' })
  @Directive('@key(fields: "id")')
  class User {
    @Field(() => ID, { description: 'Your identifier of the user (the userId you send)' })
    id!: string;
  }
  return User;
}

/** What every subgraph's `User` holds: the user id. */
export interface UserRef {
  id: string;
}

/** The user a caller may see: any of its organization's; a session only its own. */
export function visibleUser(id: string, ctx: SubgraphContext<unknown>): UserRef | null {
  const own = ctx.tenant?.userId;
  if (!id || id.length > 255 || (own !== undefined && own !== id)) return null;
  return { id };
}

/** Federation: another subgraph's `User` reference, as this caller may see it. */
export const resolveUserReference = (ref: { id: string }, ctx: SubgraphContext<unknown>) => visibleUser(ref.id, ctx);
