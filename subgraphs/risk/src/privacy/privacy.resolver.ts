import { Ctx, FieldResolver, Resolver } from 'type-graphql';
import { Root } from '../../../../platform/graphql/root.js';
import type { SubgraphContext } from '../../../../platform/graphql/subgraph.js';
import { authorize } from '../../../../platform/graphql/tenancy.js';
import { JSON as JSONScalar } from '../../../../platform/graphql/scalars.js';
import { UserDataExportEntity } from '../../../../platform/graphql/user-data-export.js';
import type { RiskShared } from '../risk.shared.js';
import { EvaluationService } from '../evaluation/evaluation.service.js';
import { accountsNeighbourhood } from '../graph/graph.store.js';

type Ctx = SubgraphContext<RiskShared>;

/** This subgraph's part of the export (platform/graphql/user-data-export.ts). */
export const UserDataExportType = UserDataExportEntity();
export type UserDataExportType = InstanceType<typeof UserDataExportType>;

/** Exports are a verification key's `privacy:read` (the privacy area covers every service's data of a user). */
const privacyTenant = (ctx: Ctx) => authorize(ctx, 'verification', 'privacy:read');

@Resolver(() => UserDataExportType)
export class RiskDataExportResolver {
  @FieldResolver(() => JSONScalar, {
    description:
      'What the risk service holds: the accounts whose profile names the user (name, date of birth, nationality), the evaluations of their transactions, their devices and IP addresses',
  })
  async risk(@Root() e: UserDataExportType, @Ctx() ctx: Ctx) {
    const tenant = privacyTenant(ctx);
    const profiles = await ctx.deps.accounts.exportUser(tenant, e.id);
    const accountIds = profiles.map((p) => p.accountId);
    const [evaluations, devicesAndIps] = await Promise.all([
      new EvaluationService(ctx.em, ctx.deps.engine, tenant).exportOfAccounts(accountIds),
      accountsNeighbourhood(ctx.deps.pool, tenant, accountIds),
    ]);
    return { accounts: JSON.parse(JSON.stringify(profiles)) as unknown, evaluations, devicesAndIps };
  }
}

/** Federation: the export entity, for the caller's tenant. */
export function resolveRiskDataExportReference(ref: { id: string }, ctx: Ctx) {
  privacyTenant(ctx);
  return { id: ref.id };
}
