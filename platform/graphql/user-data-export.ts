import { Directive, Field, ID, ObjectType } from 'type-graphql';

/**
 * Everything the platform holds about one user (a subject access request, `exportUser`): one
 * entity keyed by the user id, each subgraph adding, as a JSON field, what it holds (one class per
 * subgraph, as `User`: type-graphql ties field resolvers to the class).
 */
export function UserDataExportEntity() {
  @ObjectType('UserDataExport', {
    description: 'Everything held about one of your users, for a subject access request: each service’s records as JSON, files by link',
  })
  @Directive('@key(fields: "id")')
  class UserDataExport {
    @Field(() => ID, { description: 'Your identifier of the user (the userId you send)' })
    id!: string;
  }
  return UserDataExport;
}
