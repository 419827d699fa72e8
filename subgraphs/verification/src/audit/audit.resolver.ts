import { Arg, Args, Ctx, Directive, Query, Resolver } from 'type-graphql';
import { sqlOf } from '../../../../platform/db/transaction.js';
import { ConnectionArgs, LIST_SIZE } from '../../../../platform/graphql/connection.js';
import { authorize } from '../../../../platform/graphql/tenancy.js';
import type { VerificationContext } from '../verification.shared.js';
import { AuditService } from './audit.service.js';
import { AuditChainVerificationType, AuditEntryConnection, AuditEntryFilter, auditActionOf } from './audit.type.js';

type Ctx = VerificationContext;

const service = (ctx: Ctx) => new AuditService(sqlOf(ctx.em), authorize(ctx, 'verification', 'audit:read'));

@Resolver()
export class AuditResolver {
  @Directive(LIST_SIZE)
  @Query(() => AuditEntryConnection, {
    description:
      'The organization’s audit trail, newest first: who viewed a document image or selfie, decided a review, resolved a match, changed a rule, rotated a key, erased or exported a user',
  })
  auditEntries(
    @Arg('filter', () => AuditEntryFilter, {
      nullable: true,
      description: 'Which ones (of one user, one action, one record); all when absent',
    })
    filter: AuditEntryFilter | null,
    @Args() page: ConnectionArgs,
    @Ctx() ctx: Ctx,
  ) {
    return service(ctx).list({ ...filter, action: filter?.action ? auditActionOf(filter.action) : null }, page);
  }

  @Query(() => AuditChainVerificationType, {
    description:
      'Recomputes the organization’s audit chain from its first entry and reports the first entry that does not hold (an edited or removed entry)',
  })
  auditChainVerification(@Ctx() ctx: Ctx) {
    return service(ctx).verify();
  }
}
