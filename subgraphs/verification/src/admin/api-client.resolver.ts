import { Arg, Ctx, ID, Mutation, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../../../platform/graphql/subgraph.js';
import { requireAdmin } from '../../../../platform/auth/permissions.js';
import { ApiClientService, KEY_SHOWN_ONCE } from '../../../../platform/auth/api-client.service.js';
import type { VerificationDeps } from '../deps.js';
import { ApiClientType, CreateApiClientInput, CreatedApiClient } from './api-client.type.js';

@Resolver()
export class ApiClientResolver {
  @Mutation(() => CreatedApiClient, { description: 'POST /admin/api-clients (requires X-Admin-Secret)' })
  async createApiClient(
    @Arg('input') input: CreateApiClientInput,
    @Ctx() ctx: SubgraphContext<VerificationDeps>,
  ): Promise<CreatedApiClient> {
    requireAdmin(ctx.principal);
    const { client, apiKey } = await new ApiClientService(ctx.em, ctx.deps.config.DEFAULT_RATE_LIMIT).create(input);
    return { ...client, apiKey, message: KEY_SHOWN_ONCE };
  }

  @Mutation(() => ApiClientType, {
    description: 'DELETE /admin/api-clients/{id} (requires X-Admin-Secret): the key is refused from the next request on, on every gateway',
  })
  async revokeApiClient(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext<VerificationDeps>): Promise<ApiClientType> {
    requireAdmin(ctx.principal);
    return new ApiClientService(ctx.em, ctx.deps.config.DEFAULT_RATE_LIMIT).revoke(id);
  }

  @Mutation(() => CreatedApiClient, {
    description: 'POST /admin/api-clients/{id}/rotate (requires X-Admin-Secret): a new key, shown once; the old one is refused from now on',
  })
  async rotateApiClientKey(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext<VerificationDeps>): Promise<CreatedApiClient> {
    requireAdmin(ctx.principal);
    const { client, apiKey } = await new ApiClientService(ctx.em, ctx.deps.config.DEFAULT_RATE_LIMIT).rotate(id);
    return { ...client, apiKey, message: KEY_SHOWN_ONCE };
  }
}
