import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import { actorOf } from '../../../../platform/audit/audit.js';
import { Organization } from '../../../../platform/auth/organization.entity.js';
import { requireAdmin } from '../../../../platform/auth/permissions.js';
import { notFound } from '../../../../platform/errors.js';
import { isUuid } from '../../../../platform/ids.js';
import type { KeyOperations } from '../../../../platform/crypto/key-operations.js';
import type { VerificationContext } from '../verification.shared.js';
import {
  ReencryptOrganizationDataInput,
  ReencryptOrganizationDataPayload,
  RotateOrganizationDataKeyInput,
  RotateOrganizationDataKeyPayload,
} from './encryption.type.js';

/** What the admin capability builds at start: the operator's key operations. */
export interface AdminDeps {
  keys: KeyOperations;
}

type Ctx = VerificationContext<AdminDeps>;

/** The operator's (X-Admin-Secret) key operations on an existing organization. */
async function organization(ctx: Ctx, id: string): Promise<string> {
  requireAdmin(ctx.principal);
  if (!isUuid(id) || !(await ctx.em.findOne(Organization, { id }))) throw notFound('Organization', id);
  return id;
}

@Resolver()
export class EncryptionResolver {
  @Mutation(() => RotateOrganizationDataKeyPayload, {
    description:
      'Gives an organization a new data encryption key version: new data is encrypted with it at once, older data stays readable and is re-encrypted (unless asked not to); recorded in its audit trail (operator only: X-Admin-Secret)',
  })
  async rotateOrganizationDataKey(
    @Arg('input', { description: 'The organization, and whether to re-encrypt now' }) input: RotateOrganizationDataKeyInput,
    @Ctx() ctx: Ctx,
  ) {
    const id = await organization(ctx, input.organizationId);
    const actor = actorOf(ctx.principal);
    const keyVersion = await ctx.deps.keys.rotate(id, actor);
    return { keyVersion, reencryption: input.reencrypt ? await ctx.deps.keys.reencrypt(id, actor) : null };
  }

  @Mutation(() => ReencryptOrganizationDataPayload, {
    description:
      'Re-encrypts every encrypted column value and stored file of an organization with its newest data key (after a rotation made with reencrypt: false); reads go on meanwhile (operator only: X-Admin-Secret)',
  })
  async reencryptOrganizationData(
    @Arg('input', { description: 'The organization' }) input: ReencryptOrganizationDataInput,
    @Ctx() ctx: Ctx,
  ) {
    const id = await organization(ctx, input.organizationId);
    return { reencryption: await ctx.deps.keys.reencrypt(id, actorOf(ctx.principal)) };
  }
}
