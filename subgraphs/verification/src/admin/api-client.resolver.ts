import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import { actorOf } from '../../../../platform/audit/audit.js';
import { requireAdmin } from '../../../../platform/auth/permissions.js';
import { ApiClientService } from '../../../../platform/auth/api-client.service.js';
import type { VerificationContext } from '../verification.shared.js';
import {
  CreateApiClientInput,
  CreateApiClientPayload,
  RevokeApiClientInput,
  RevokeApiClientPayload,
  RotateApiClientKeyInput,
  RotateApiClientKeyPayload,
} from './api-client.type.js';

type Ctx = VerificationContext;

/** The operator's service (X-Admin-Secret): an API key is refused. */
function service(ctx: Ctx): ApiClientService {
  requireAdmin(ctx.principal);
  return new ApiClientService(ctx.em, ctx.deps.config.DEFAULT_RATE_LIMIT);
}

@Resolver()
export class ApiClientResolver {
  @Mutation(() => CreateApiClientPayload, {
    description:
      'Creates an API client, in a new organization or an existing one; its key is shown this once (operator only: X-Admin-Secret)',
  })
  async createApiClient(@Arg('input', { description: 'The client to create' }) input: CreateApiClientInput, @Ctx() ctx: Ctx) {
    const { client, apiKey } = await service(ctx).create(input);
    return { apiClient: client, apiKey };
  }

  @Mutation(() => RevokeApiClientPayload, {
    description: 'Revokes an API client: its key is refused from the next request on, on every gateway (operator only: X-Admin-Secret)',
  })
  async revokeApiClient(@Arg('input', { description: 'The client whose key to revoke' }) input: RevokeApiClientInput, @Ctx() ctx: Ctx) {
    return { apiClient: await service(ctx).revoke(input.id, actorOf(ctx.principal)) };
  }

  @Mutation(() => RotateApiClientKeyPayload, {
    description:
      'Replaces an API client’s key: the new one is shown this once, the old one is refused from now on (operator only: X-Admin-Secret)',
  })
  async rotateApiClientKey(
    @Arg('input', { description: 'The client whose key to replace' }) input: RotateApiClientKeyInput,
    @Ctx() ctx: Ctx,
  ) {
    const { client, apiKey } = await service(ctx).rotate(input.id, actorOf(ctx.principal));
    return { apiClient: client, apiKey };
  }
}
