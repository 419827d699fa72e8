import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../../../platform/graphql/subgraph.js';
import { PageArgs } from '../../../../platform/graphql/pagination.js';
import { requireAdmin, requirePermission } from '../../../../platform/auth/permissions.js';
import { authorize } from '../../../../platform/graphql/tenancy.js';
import { invalid } from '../../../../platform/errors.js';
import type { VerificationDeps } from '../deps.js';
import { IpService } from './ip.service.js';
import type { IpCheck } from './ip.entity.js';
import { AnalyzeIpInput, ImportedIpFeedType, ImportIpFeedInput, IpAnalysisPage, IpAnalysisType, IpFeedType } from './ip.type.js';
import { FeedError, parseFeed } from './ip-feeds.js';

type Ctx = SubgraphContext<VerificationDeps>;

function service(ctx: Ctx, access: 'read' | 'write'): IpService {
  return new IpService(ctx.em, authorize(ctx, 'verification', `intelligence:${access}`), ctx.deps.ipIntelligence);
}

export function toIpAnalysis(c: IpCheck): IpAnalysisType {
  return { ...c.result, id: c.id, userId: c.userId ?? null, checkedAt: c.checkedAt };
}

@Resolver()
export class IpResolver {
  @Mutation(() => IpAnalysisType, {
    description: 'POST /intelligence/ip (Form A: ip, userId) and /intelligence/ip/check (Form B: ipAddress, userId)',
  })
  async analyzeIp(@Arg('input') input: AnalyzeIpInput, @Ctx() ctx: Ctx): Promise<IpAnalysisType> {
    return toIpAnalysis(await service(ctx, 'write').check(input.ip, input.userId ?? null));
  }

  @Query(() => IpAnalysisType, { description: 'An earlier IP analysis' })
  async ipAnalysis(@Arg('id', () => ID) id: string, @Ctx() ctx: Ctx): Promise<IpAnalysisType> {
    return toIpAnalysis(await service(ctx, 'read').get(id));
  }

  @Query(() => IpAnalysisPage, { description: "A user's IP analyses, newest first" })
  async ipAnalysesByUser(@Arg('userId') userId: string, @Args() { page, limit }: PageArgs, @Ctx() ctx: Ctx): Promise<IpAnalysisPage> {
    const result = await service(ctx, 'read').listByUser(userId, page, limit);
    return { ...result, data: result.data.map(toIpAnalysis) };
  }

  @Query(() => [IpFeedType], { description: 'Imported IP feeds (admin secret or intelligence:read)' })
  ipFeeds(@Ctx() ctx: Ctx) {
    if (ctx.principal?.kind !== 'admin') requirePermission(ctx.principal, 'verification', 'intelligence:read');
    return ctx.deps.ipFeeds.list();
  }

  @Mutation(() => ImportedIpFeedType, {
    description: 'Import (replace) one IP feed (requires X-Admin-Secret); `npm run ip:import -- <files>` does the same from files',
  })
  async importIpFeed(@Arg('input') input: ImportIpFeedInput, @Ctx() ctx: Ctx): Promise<ImportedIpFeedType> {
    requireAdmin(ctx.principal);
    let parsed;
    try {
      parsed = parseFeed(input.content, {
        feed: input.feed,
        category: input.category ?? undefined,
        format: input.format ?? undefined,
        provider: input.provider,
      });
    } catch (err) {
      if (err instanceof FeedError) throw invalid(err.message);
      throw err;
    }
    return ctx.deps.ipFeeds.import(parsed, 'graphql');
  }
}
