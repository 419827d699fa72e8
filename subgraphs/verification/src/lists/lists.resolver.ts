import { Arg, Args, Ctx, Directive, ID, Mutation, Query, Resolver } from 'type-graphql';
import { ConnectionArgs, LIST_SIZE } from '../../../../platform/graphql/connection.js';
import { requireAdmin } from '../../../../platform/auth/permissions.js';
import { badInput } from '../../../../platform/errors.js';
import type { VerificationContext } from '../verification.shared.js';
import { ListsService } from './lists.service.js';
import { ImportScreeningListInput, ScreeningListChangeFilter, ScreeningListVersionFilter } from './lists.inputs.js';
import { ImportScreeningListPayload, ScreeningListChangeConnection, ScreeningListSnapshotConnection } from './lists.type.js';

type Ctx = VerificationContext;

function service(ctx: Ctx): ListsService {
  requireAdmin(ctx.principal);
  return new ListsService(ctx.deps.screening.pool, ctx.em);
}

@Resolver()
export class ListsResolver {
  @Mutation(() => ImportScreeningListPayload, {
    description:
      'Imports sanctions or PEP lists (operator only: X-Admin-Secret). The format is detected from the content; `format` and `source` ' +
      'are checked against it (and `source` names a custom list). OFAC CSV sets: give sdn.csv as `content` and alt.csv/add.csv in `files`. ' +
      'Each list becomes a new version with its differences from the previous one, and every running process starts screening against it. ' +
      'Requests are limited to 2 MB: larger files go through `npm run lists:import`.',
  })
  async importScreeningList(
    @Arg('input', { description: 'The list files and what they must be' }) input: ImportScreeningListInput,
    @Ctx() ctx: Ctx,
  ) {
    const svc = service(ctx);
    if (!input.content.trim()) throw badInput('content must not be empty');
    const name = input.fileName ?? (input.source ? input.source.toLowerCase() : 'list');
    const imports = await svc.import({
      files: [{ name, content: input.content }, ...(input.files ?? [])],
      source: input.source,
      format: input.format,
      kind: input.kind,
      importedBy: 'admin (GraphQL)',
    });
    return { imports };
  }

  @Directive(LIST_SIZE)
  @Query(() => ScreeningListSnapshotConnection, { description: 'Imported list versions, newest first (operator only)' })
  screeningListVersions(
    @Arg('filter', () => ScreeningListVersionFilter, { nullable: true, description: 'Which ones; all when absent' })
    filter: ScreeningListVersionFilter | null,
    @Args() page: ConnectionArgs,
    @Ctx() ctx: Ctx,
  ) {
    return service(ctx).versions(filter?.source, page);
  }

  @Directive(LIST_SIZE)
  @Query(() => ScreeningListChangeConnection, {
    nullable: true,
    description: 'The entries one list version added, changed or removed (operator only); null when there is no such version',
  })
  screeningListChanges(
    @Arg('snapshotId', () => ID, { description: 'The list version' }) snapshotId: string,
    @Arg('filter', () => ScreeningListChangeFilter, { nullable: true, description: 'Which ones; all when absent' })
    filter: ScreeningListChangeFilter | null,
    @Args() page: ConnectionArgs,
    @Ctx() ctx: Ctx,
  ) {
    return service(ctx).changes(snapshotId, filter?.change, page);
  }
}
