import { Arg, Args, Ctx, Directive, FieldResolver, ID, Mutation, Query, Resolver } from 'type-graphql';
import { Root } from '../../../../platform/graphql/root.js';
import type { SubgraphContext } from '../../../../platform/graphql/subgraph.js';
import { ConnectionArgs, LIST_SIZE } from '../../../../platform/graphql/connection.js';
import { authorize } from '../../../../platform/graphql/tenancy.js';
import type { RiskShared } from '../risk.shared.js';
import { accountEvaluations } from '../evaluation/evaluation.resolver.js';
import { RiskAccountEvaluationFilter } from '../evaluation/evaluation.inputs.js';
import { RiskEvaluationConnection } from '../evaluation/evaluation.type.js';
import type { Account, AccountProfile } from './account.store.js';
import { SetRiskAccountProfileInput } from './account.inputs.js';
import { RiskAccountConnection, RiskAccountProfileType, RiskAccountType, SetRiskAccountProfilePayload } from './account.type.js';
import { UserType } from '../user/user.type.js';

type Ctx = SubgraphContext<RiskShared>;

const toAccount = (a: Account): RiskAccountType => ({ id: a.id, loaded: { profile: a.profile } });

/** An account's profile, read once per account object however many of its fields ask (`userId`, `profile`). */
const profiles = new WeakMap<RiskAccountType, Promise<AccountProfile | null>>();
function profileOf(account: RiskAccountType, ctx: Ctx): Promise<AccountProfile | null> {
  if (account.loaded) return Promise.resolve(account.loaded.profile);
  let profile = profiles.get(account);
  if (!profile) {
    profile = ctx.deps.accounts.profile(authorize(ctx, 'risk', 'evaluations:read'), account.id);
    profiles.set(account, profile);
  }
  return profile;
}

@Resolver(() => RiskAccountType)
export class AccountResolver {
  @Query(() => RiskAccountType, {
    nullable: true,
    description: 'One account: null when it has no profile and no transaction of the organization named it',
  })
  async riskAccount(@Arg('id', () => ID, { description: 'The account, as your transactions name it' }) id: string, @Ctx() ctx: Ctx) {
    const account = await ctx.deps.accounts.find(authorize(ctx, 'risk', 'evaluations:read'), id);
    return account && toAccount(account);
  }

  @Mutation(() => SetRiskAccountProfilePayload, {
    description:
      'Sets who holds an account and the name screened for it when a transaction carries no metadata.sender_name / receiver_name',
  })
  async setRiskAccountProfile(
    @Arg('input', { description: 'The account and its profile' }) input: SetRiskAccountProfileInput,
    @Ctx() ctx: Ctx,
  ) {
    const profile = await ctx.deps.accounts.setProfile(authorize(ctx, 'risk', 'evaluate'), input);
    return { riskAccount: toAccount({ id: profile.accountId, profile }) };
  }

  @FieldResolver(() => String, {
    nullable: true,
    description: 'Your identifier of the user holding the account, when its profile names one',
  })
  async userId(@Root() account: RiskAccountType, @Ctx() ctx: Ctx) {
    return (await profileOf(account, ctx))?.userId ?? null;
  }

  @FieldResolver(() => RiskAccountProfileType, { nullable: true, description: 'What you told us about its holder; null when nothing' })
  profile(@Root() account: RiskAccountType, @Ctx() ctx: Ctx) {
    return profileOf(account, ctx);
  }

  @Directive(LIST_SIZE)
  @FieldResolver(() => RiskEvaluationConnection, { description: 'Evaluations of transactions the account sent or received, newest first' })
  evaluations(
    @Root() account: RiskAccountType,
    @Arg('filter', () => RiskAccountEvaluationFilter, { nullable: true, description: 'Which ones; all when absent' })
    filter: RiskAccountEvaluationFilter | null,
    @Args() page: ConnectionArgs,
    @Ctx() ctx: Ctx,
  ) {
    const { party, ...rest } = filter ?? {};
    return accountEvaluations(ctx, { ...rest, account: { id: account.id, party } }, page);
  }
}

/** Federation: other subgraphs reference an account by id (tenant-checked; null when unknown). */
export async function resolveAccountReference(ref: { id: string }, ctx: Ctx) {
  const account = await ctx.deps.accounts.find(authorize(ctx, 'risk', 'evaluations:read'), ref.id);
  return account && toAccount(account);
}

/** The accounts a user holds: those whose profile names them (setRiskAccountProfile's userId). */
@Resolver(() => UserType)
export class AccountUserResolver {
  @Directive(LIST_SIZE)
  @FieldResolver(() => RiskAccountConnection, { description: 'The accounts the user holds (their profile names the user), by account id' })
  async riskAccounts(@Root() user: UserType, @Args() page: ConnectionArgs, @Ctx() ctx: Ctx) {
    const accounts = await ctx.deps.accounts.ofUser(authorize(ctx, 'risk', 'evaluations:read'), user.id, page);
    return { ...accounts, edges: accounts.edges.map((e) => ({ ...e, node: toAccount(e.node) })), nodes: accounts.nodes.map(toAccount) };
  }
}
