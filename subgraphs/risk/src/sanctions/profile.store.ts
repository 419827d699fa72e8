import type pg from 'pg';
import { badInput, notFound } from '../../../../platform/errors.js';
import type { Tenant } from '../../../../platform/auth/tenant.js';

export interface AccountProfile {
  accountId: string;
  fullName: string;
  dateOfBirth: string | null;
  nationality: string | null;
  updatedAt: Date;
}

export interface ProfileInput {
  fullName: string;
  dateOfBirth?: string | null;
  nationality?: string | null;
}

const DATE = /^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?)?$/;
const SELECT = `select account_id as "accountId", full_name as "fullName", date_of_birth as "dateOfBirth", nationality, updated_at as "updatedAt" from risk.account_profiles`;

/**
 * Customer profiles: the name (and date of birth, nationality) the sanctions layer screens for
 * an account when a transaction's metadata carries no sender_name / receiver_name.
 */
export class ProfileStore {
  constructor(private readonly pool: pg.Pool) {}

  async set(tenant: Tenant, accountId: string, input: ProfileInput): Promise<AccountProfile> {
    const errors: string[] = [];
    if (!accountId || accountId.length > 128) errors.push('accountId must be 1–128 characters');
    if (typeof input.fullName !== 'string' || !input.fullName.trim() || input.fullName.length > 200)
      errors.push('fullName must be 1–200 characters');
    if (input.dateOfBirth != null && !DATE.test(input.dateOfBirth)) errors.push('dateOfBirth must be YYYY, YYYY-MM or YYYY-MM-DD');
    if (input.nationality != null && !/^[A-Z]{2}$/.test(input.nationality))
      errors.push('nationality must be an ISO 3166-1 alpha-2 code (e.g. KE)');
    if (errors.length) throw badInput(errors);
    const { rows } = await this.pool.query<AccountProfile>(
      `insert into risk.account_profiles (organization_id, environment, account_id, full_name, date_of_birth, nationality, updated_at)
       values ($1, $2, $3, $4, $5, $6, now())
       on conflict (organization_id, environment, account_id)
       do update set full_name = excluded.full_name, date_of_birth = excluded.date_of_birth, nationality = excluded.nationality, updated_at = now()
       returning account_id as "accountId", full_name as "fullName", date_of_birth as "dateOfBirth", nationality, updated_at as "updatedAt"`,
      [tenant.organizationId, tenant.environment, accountId, input.fullName.trim(), input.dateOfBirth ?? null, input.nationality ?? null],
    );
    return rows[0];
  }

  async get(tenant: Tenant, accountId: string): Promise<AccountProfile> {
    const { rows } = await this.pool.query<AccountProfile>(
      `${SELECT} where organization_id = $1 and environment = $2 and account_id = $3`,
      [tenant.organizationId, tenant.environment, accountId],
    );
    if (!rows[0]) throw notFound('Account profile', accountId);
    return rows[0];
  }
}
