import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { ArrayMaxSize, IsNotEmpty, IsOptional, MaxLength } from 'class-validator';
import { ENVIRONMENTS, KEY_SERVICES, type Environment, type KeyService } from '../../../../platform/auth/principal.js';

export const ApiServiceEnum = Object.fromEntries(KEY_SERVICES.map((s) => [s, s])) as { [K in KeyService]: K };
export const ApiEnvironmentEnum = Object.fromEntries(ENVIRONMENTS.map((e) => [e, e])) as { [K in Environment]: K };
registerEnumType(ApiServiceEnum, {
  name: 'ApiService',
  description: 'Which service the key calls (all: every service, for a backend that reads the whole graph)',
});
registerEnumType(ApiEnvironmentEnum, { name: 'ApiEnvironment', description: 'live, or test (sandbox)' });

@InputType()
export class CreateApiClientInput {
  @Field()
  @IsNotEmpty({ message: 'name must not be empty' })
  @MaxLength(200)
  name!: string;

  @Field(() => [String], { nullable: true, description: 'Empty or absent = every permission of the service' })
  @IsOptional()
  @ArrayMaxSize(100)
  permissions?: string[] | null;

  @Field(() => Int, { nullable: true, description: 'Requests per minute (default DEFAULT_RATE_LIMIT)' })
  rateLimit?: number | null;

  @Field(() => ApiServiceEnum, { nullable: true, description: 'Default verification' })
  service?: KeyService | null;

  @Field(() => ApiEnvironmentEnum, { nullable: true, description: 'Default live' })
  environment?: Environment | null;

  @Field(() => ID, { nullable: true, description: 'Add the client to this organization; a new one when absent' })
  organizationId?: string | null;
}

@ObjectType('ApiClient', { description: 'An API client (its key is never shown again after creation or rotation)' })
export class ApiClientType {
  @Field(() => ID) id!: string;
  @Field() name!: string;
  @Field(() => ID) organizationId!: string;
  @Field(() => ApiServiceEnum) service!: string;
  @Field(() => ApiEnvironmentEnum) environment!: string;
  @Field({ description: 'The public start of the current key' }) keyPrefix!: string;
  @Field(() => [String]) permissions!: string[];
  @Field(() => Int, { description: 'Requests per minute' }) rateLimit!: number;
  @Field({ description: 'false once revoked: the key is refused on every gateway' }) active!: boolean;
  @Field() createdAt!: Date;
}

@ObjectType('CreatedApiClient', { description: 'An API client with its key, shown this once' })
export class CreatedApiClient extends ApiClientType {
  @Field({ description: 'Shown once; only its hash is stored' }) apiKey!: string;
  @Field() message!: string;
}
