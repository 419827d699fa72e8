import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { ArrayMaxSize, IsNotEmpty, IsOptional, MaxLength } from 'class-validator';
import type { Environment, KeyService } from '../../../../platform/auth/principal.js';
import { UserError } from '../../../../platform/graphql/user-errors.js';

/** GraphQL names → the platform's values (`VERIFICATION` is `verification`). */
export const ApiServiceEnum = { VERIFICATION: 'verification', RISK: 'risk', NOTIFY: 'notify', ALL: 'all' } as const satisfies Record<
  string,
  KeyService
>;
export const ApiEnvironmentEnum = { LIVE: 'live', TEST: 'test' } as const satisfies Record<string, Environment>;
registerEnumType(ApiServiceEnum, {
  name: 'ApiService',
  description: 'The service an API key calls: one, or all of them',
  valuesConfig: {
    VERIFICATION: { description: 'Identity, screening, monitoring, device and IP intelligence, webhooks' },
    RISK: { description: 'Transaction risk evaluation and rules' },
    NOTIFY: { description: 'Notifications by e-mail, SMS and push' },
    ALL: { description: 'Every service: a backend that reads and writes the whole graph with one key' },
  },
});
registerEnumType(ApiEnvironmentEnum, {
  name: 'ApiEnvironment',
  description: 'Where a key’s requests go: its records are never visible from the other environment',
  valuesConfig: {
    LIVE: { description: 'Real checks and deliveries' },
    TEST: { description: 'The sandbox: deterministic providers, nothing leaves the platform' },
  },
});

@InputType({ description: 'A new API client and its key' })
export class CreateApiClientInput {
  @Field({ description: 'What the client is (shown in lists), up to 200 characters' })
  @IsNotEmpty({ message: 'name must not be empty' })
  @MaxLength(200)
  name!: string;

  @Field(() => [String], {
    nullable: true,
    description: 'What the key may do (e.g. identity:read, webhooks); empty or absent: everything of its service',
  })
  @IsOptional()
  @ArrayMaxSize(100)
  permissions?: string[] | null;

  @Field(() => Int, { nullable: true, description: 'Requests per minute; the platform default when absent' })
  rateLimit?: number | null;

  @Field(() => ApiServiceEnum, { nullable: true, description: 'The service the key calls; default VERIFICATION' })
  service?: KeyService | null;

  @Field(() => ApiEnvironmentEnum, { nullable: true, description: 'Default LIVE' })
  environment?: Environment | null;

  @Field(() => ID, { nullable: true, description: 'The organization to add the client to; a new organization when absent' })
  organizationId?: string | null;
}

@InputType({ description: 'The API client whose key to revoke' })
export class RevokeApiClientInput {
  @Field(() => ID, { description: 'The API client' })
  id!: string;
}

@InputType({ description: 'The API client whose key to replace' })
export class RotateApiClientKeyInput {
  @Field(() => ID, { description: 'The API client (it must not be revoked)' })
  id!: string;
}

@ObjectType('ApiClient', {
  description: 'A caller of the API: one organization, service and environment, with one key (shown only when made)',
})
export class ApiClientType {
  @Field(() => ID, { description: 'Identifier of the client' })
  id!: string;

  @Field({ description: 'What the client is' })
  name!: string;

  @Field(() => ID, { description: 'The organization it belongs to (its records are the organization’s)' })
  organizationId!: string;

  @Field(() => ApiServiceEnum, { description: 'The service its key calls' })
  service!: KeyService;

  @Field(() => ApiEnvironmentEnum, { description: 'The environment its key works in' })
  environment!: Environment;

  @Field({ description: 'The public start of the current key (e.g. vk_live_Ab12), to recognise it' })
  keyPrefix!: string;

  @Field(() => [String], { description: 'What the key may do; empty: everything of its service' })
  permissions!: string[];

  @Field(() => Int, { description: 'Requests per minute' })
  rateLimit!: number;

  @Field({ description: 'false once revoked: its key is refused on every gateway' })
  active!: boolean;

  @Field({ description: 'When it was created' })
  createdAt!: Date;
}

@ObjectType('CreateApiClientPayload', { description: 'The result of createApiClient' })
export class CreateApiClientPayload {
  @Field(() => ApiClientType, { nullable: true, description: 'The new client' })
  apiClient?: ApiClientType | null;

  @Field(() => String, { nullable: true, description: 'Its API key, shown this once (only its hash is stored)' })
  apiKey?: string | null;

  @Field(() => [UserError], { description: 'Mistakes in the input; empty on success' })
  userErrors!: UserError[];
}

@ObjectType('RevokeApiClientPayload', { description: 'The result of revokeApiClient' })
export class RevokeApiClientPayload {
  @Field(() => ApiClientType, { nullable: true, description: 'The client, inactive (revoking it again changes nothing)' })
  apiClient?: ApiClientType | null;

  @Field(() => [UserError], { description: 'Mistakes in the input; empty on success' })
  userErrors!: UserError[];
}

@ObjectType('RotateApiClientKeyPayload', { description: 'The result of rotateApiClientKey' })
export class RotateApiClientKeyPayload {
  @Field(() => ApiClientType, { nullable: true, description: 'The client, with the new key’s prefix' })
  apiClient?: ApiClientType | null;

  @Field(() => String, { nullable: true, description: 'The new API key, shown this once; the old one is refused from now on' })
  apiKey?: string | null;

  @Field(() => [UserError], { description: 'Mistakes in the input or a revoked client; empty on success' })
  userErrors!: UserError[];
}
