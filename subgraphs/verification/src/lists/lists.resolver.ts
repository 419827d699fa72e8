import { Arg, Args, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../../../platform/graphql/subgraph.js';
import { PageArgs } from '../../../../platform/graphql/pagination.js';
import { requireAdmin } from '../../../../platform/auth/permissions.js';
import { badInput } from '../../../../platform/errors.js';
import type { ListKind } from '../../../../screening/index.js';
import type { ListFormat } from '../../../../screening/lists/parse.js';
import type { VerificationDeps } from '../deps.js';
import { ListsService } from './lists.service.js';
import { ScreeningListFileInput } from './lists.inputs.js';
import {
  ScreeningListChangeKindEnum,
  ScreeningListChangePage,
  ScreeningListFormatEnum,
  ScreeningListImportType,
  ScreeningListKindEnum,
  ScreeningListSnapshotType,
} from './lists.type.js';

type Ctx = SubgraphContext<VerificationDeps>;

function service(ctx: Ctx): ListsService {
  requireAdmin(ctx.principal);
  return new ListsService(ctx.deps.screening.pool);
}

@Resolver()
export class ListsResolver {
  @Mutation(() => [ScreeningListImportType], {
    description:
      'Imports sanctions/PEP lists (admin, X-Admin-Secret). The format is detected from the content; `format` and `source` are checked ' +
      'against it (and `source` names a custom list). OFAC CSV sets: give sdn.csv as `content` and alt.csv/add.csv in `files`. ' +
      'Each list becomes a new version of its source with its diff; every process reloads its index. Bodies are limited to 2 MB: use `npm run lists:import` for larger files.',
  })
  async importScreeningList(
    @Arg('content', { description: 'the list file as text' }) content: string,
    @Arg('source', () => String, { nullable: true }) source: string | null,
    @Arg('format', () => ScreeningListFormatEnum, { nullable: true }) format: ListFormat | null,
    @Arg('kind', () => ScreeningListKindEnum, { nullable: true, description: 'kind of a custom list whose rows do not say it' })
    kind: ListKind | null,
    @Arg('fileName', () => String, { nullable: true }) fileName: string | null,
    @Arg('files', () => [ScreeningListFileInput], { nullable: true, description: 'more files of the same import (OFAC alt.csv, add.csv)' })
    files: ScreeningListFileInput[] | null,
    @Ctx() ctx: Ctx,
  ) {
    const svc = service(ctx);
    if (!content.trim()) throw badInput('content must not be empty');
    const name = fileName ?? (source ? `${source.toLowerCase()}` : 'list');
    return svc.import({ files: [{ name, content }, ...(files ?? [])], source, format, kind, importedBy: 'admin (GraphQL)' });
  }

  @Query(() => [ScreeningListSnapshotType], { description: 'Imported list versions, newest first (admin)' })
  screeningListVersions(
    @Arg('source', () => String, { nullable: true }) source: string | null,
    @Arg('limit', () => Int, { nullable: true, defaultValue: 50 }) limit: number,
    @Ctx() ctx: Ctx,
  ) {
    if (limit < 1 || limit > 500) throw badInput('limit must be between 1 and 500');
    return service(ctx).versions(source, limit);
  }

  @Query(() => ScreeningListChangePage, { description: 'The diff of one list version against the previous one (admin)' })
  screeningListChanges(
    @Arg('snapshotId', () => ID) snapshotId: string,
    @Arg('change', () => ScreeningListChangeKindEnum, { nullable: true }) change: 'ADDED' | 'REMOVED' | 'CHANGED' | null,
    @Args() { page, limit }: PageArgs,
    @Ctx() ctx: Ctx,
  ) {
    return service(ctx).changes(snapshotId, change, page, limit);
  }
}
