import { Directive, Field, ID, ObjectType } from 'type-graphql';

/**
 * A person as the organization knows them: the integrator's `userId`, scoped to the organization
 * (and environment). Every subgraph contributes what it holds about them (docs/graphql-conventions.md).
 */
@ObjectType('User', { description: 'One of your users, and everything the platform holds about them' })
@Directive('@key(fields: "id")')
export class UserType {
  @Field(() => ID, { description: 'Your identifier of the user (the userId you send)' })
  id!: string;
}
