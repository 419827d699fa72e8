import { UserEntity } from '../../../../platform/graphql/user.js';

/** This subgraph's `User` (platform/graphql/user.ts): its field resolvers add what it holds about a user. */
export const UserType = UserEntity();
export type UserType = InstanceType<typeof UserType>;
