import { Arg, Args, Ctx, Directive, FieldResolver, ID, Mutation, Query, Resolver } from 'type-graphql';
import { Root } from '../../../../platform/graphql/root.js';
import { UserType } from '../user/user.type.js';
import { ConnectionArgs, LIST_SIZE, type Connection } from '../../../../platform/graphql/connection.js';
import { decodeCursor, encodeCursor } from '../../../../platform/graphql/cursor.js';
import { requireAdmin, requirePermission } from '../../../../platform/auth/permissions.js';
import { authorize } from '../../../../platform/graphql/tenancy.js';
import { badInput, invalid } from '../../../../platform/errors.js';
import type { VerificationContext } from '../verification.shared.js';
import type { IpDeps } from './ip.service.js';
import { IpService } from './ip.service.js';
import type { IpCheck } from './ip.entity.js';
import {
  AnalyzeIpInput,
  AnalyzeIpPayload,
  ImportIpFeedInput,
  ImportIpFeedPayload,
  IpAnalysisConnection,
  IpAnalysisFilter,
  IpAnalysisType,
  IpFeedConnection,
  isoCountry,
  type IpFeedType,
} from './ip.type.js';
import { FeedError, parseFeed } from './ip-feeds.js';

type Ctx = VerificationContext<IpDeps>;

function service(ctx: Ctx, access: 'read' | 'write'): IpService {
  return new IpService(ctx.em, authorize(ctx, 'verification', `intelligence:${access}`), ctx.deps.ipIntelligence);
}

export function toIpAnalysis(c: IpCheck): IpAnalysisType {
  const { geolocation } = c.result;
  return {
    ...c.result,
    geolocation: { ...geolocation, country: isoCountry(geolocation.country) },
    id: c.id,
    userId: c.userId ?? null,
    checkedAt: c.checkedAt,
  };
}

/**
 * The feeds are a short catalog (one row per feed name, re-imported in place), read whole: a page
 * is a slice after an offset cursor, last imported first (then by name).
 */
function feedPage(catalog: IpFeedType[], page: ConnectionArgs): Connection<IpFeedType> {
  const feeds = [...catalog].sort((a, b) => b.importedAt.getTime() - a.importedAt.getTime() || a.feed.localeCompare(b.feed));
  const cursor = page.after ? decodeCursor(page.after) : null;
  if (cursor && !('o' in cursor)) throw badInput('after is not a cursor of this list');
  const start = cursor ? cursor.o + 1 : 0;
  const edges = feeds.slice(start, start + page.first).map((node, i) => ({ cursor: encodeCursor({ o: start + i }), node }));
  return {
    edges,
    nodes: edges.map((edge) => edge.node),
    totalCount: feeds.length,
    pageInfo: {
      hasNextPage: start + page.first < feeds.length,
      hasPreviousPage: start > 0,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}

@Resolver()
export class IpResolver {
  @Mutation(() => AnalyzeIpPayload, {
    description: 'Analyses an IP address (location, network, VPN/proxy/Tor/datacenter, known abuser) and keeps the analysis',
  })
  async analyzeIp(@Arg('input', { description: 'The address, and the user it is analysed for' }) input: AnalyzeIpInput, @Ctx() ctx: Ctx) {
    return { ipAnalysis: toIpAnalysis(await service(ctx, 'write').check(input.ip, input.userId ?? null)) };
  }

  @Query(() => IpAnalysisType, { nullable: true, description: 'One IP analysis; null when there is none with this id' })
  async ipAnalysis(@Arg('id', () => ID, { description: 'Its identifier' }) id: string, @Ctx() ctx: Ctx) {
    const check = await service(ctx, 'read').find(id);
    return check && toIpAnalysis(check);
  }

  @Directive(LIST_SIZE)
  @Query(() => IpAnalysisConnection, { description: 'The organization’s IP analyses, newest first, or those of one user' })
  ipAnalyses(
    @Arg('filter', () => IpAnalysisFilter, { nullable: true, description: 'Which ones; all when absent' }) filter: IpAnalysisFilter | null,
    @Args() page: ConnectionArgs,
    @Ctx() ctx: Ctx,
  ) {
    return service(ctx, 'read').list(filter ?? {}, page, toIpAnalysis);
  }

  @Directive(LIST_SIZE)
  @Query(() => IpFeedConnection, {
    description: 'The imported IP feeds every analysis uses, last imported first (operator, or a key with intelligence:read)',
  })
  async ipFeeds(@Args() page: ConnectionArgs, @Ctx() ctx: Ctx) {
    if (ctx.principal?.kind !== 'admin') requirePermission(ctx.principal, 'verification', 'intelligence:read');
    return feedPage(await ctx.deps.ipFeeds.list(), page);
  }

  @Mutation(() => ImportIpFeedPayload, {
    description:
      'Imports one IP feed file, replacing the feed of that name at once for every analysis (operator only: X-Admin-Secret); `npm run ip:import` does the same from files',
  })
  async importIpFeed(@Arg('input', { description: 'The feed file and how to read it' }) input: ImportIpFeedInput, @Ctx() ctx: Ctx) {
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
      // the message starts with the option at fault, which GraphQL's userErrors name
      if (err instanceof FeedError)
        throw invalid(err.field && !err.message.startsWith(err.field) ? `${err.field}: ${err.message}` : err.message);
      throw err;
    }
    const { previousEntries, changed, skipped, ...ipFeed } = await ctx.deps.ipFeeds.import(parsed, 'graphql');
    return { ipFeed, previousEntries, changed, skipped };
  }
}

/** The user's IP analyses, as fields of `User`. */
@Resolver(() => UserType)
export class IpUserFields {
  @Directive(LIST_SIZE)
  @FieldResolver(() => IpAnalysisConnection, { description: 'The IP analyses made for the user, newest first' })
  ipAnalyses(@Root() user: UserType, @Args() page: ConnectionArgs, @Ctx() ctx: Ctx) {
    return new IpResolver().ipAnalyses({ userId: user.id }, page, ctx);
  }
}
