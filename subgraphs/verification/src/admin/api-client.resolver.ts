import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../../../platform/graphql/subgraph.js';
import { requireAdmin } from '../../../../platform/auth/permissions.js';
import { ApiClientService, KEY_SHOWN_ONCE } from '../../../../platform/auth/api-client.service.js';
import type { VerificationDeps } from '../deps.js';
import { CreateApiClientInput, CreatedApiClient } from './api-client.type.js';

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
}
