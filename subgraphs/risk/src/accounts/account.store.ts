import type pg from 'pg';
import { badInput } from '../../../../platform/errors.js';
import { isCountryCode } from '../../../../platform/countries.js';
import type { Tenant } from '../../../../platform/auth/tenant.js';
import type { Sql } from '../../../../platform/db/transaction.js';
import type { Connection, ConnectionArgs } from '../../../../platform/graphql/connection.js';
import { keysetConnection } from '../../../../platform/graphql/keyset.js';

/** An account's profile: who holds it, and the name (date of birth, nationality) screened for it. */
export interface AccountProfile {
  accountId: string;
  userId: string | null;
  fullName: string;
  dateOfBirth: string | null;
  nationality: string | null;
  updatedAt: Date;
}

export interface ProfileInput {
  accountId: string;
  /** Absent: the account keeps the user it has; null: it names none. */
  userId?: string | null;
  fullName: string;
  dateOfBirth?: string | null;
  nationality?: string | null;
}

/** An account the organization knows: one it gave a profile, or one a transaction of it named. */
export interface Account {
  id: string;
  profile: AccountProfile | null;
}

const DATE = /^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?)?$/;
const COLUMNS = `account_id as "accountId", user_id as "userId", full_name as "fullName", date_of_birth as "dateOfBirth", nationality, updated_at as "updatedAt"`;

/**
 * Risk accounts: the account ids the integrator sends as sender and receiver. A profile gives an
 * account the user who holds it and the name the sanctions layer screens for it when a
 * transaction's metadata carries no sender_name / receiver_name.
 */
export class AccountStore {
  constructor(private readonly pool: pg.Pool) {}

  async setProfile(tenant: Tenant, input: ProfileInput): Promise<AccountProfile> {
    const errors: string[] = [];
    if (!input.accountId || input.accountId.length > 128) errors.push('accountId must be 1–128 characters');
    if (input.userId != null && (!input.userId || input.userId.length > 255)) errors.push('userId must be 1–255 characters');
    if (typeof input.fullName !== 'string' || !input.fullName.trim() || input.fullName.length > 200)
      errors.push('fullName must be 1–200 characters');
    if (input.dateOfBirth != null && !DATE.test(input.dateOfBirth)) errors.push('dateOfBirth must be YYYY, YYYY-MM or YYYY-MM-DD');
    if (input.nationality != null && !isCountryCode(input.nationality))
      errors.push('nationality must be an ISO 3166-1 alpha-2 code (e.g. KE)');
    if (errors.length) throw badInput(errors);
    const keepUser = input.userId === undefined;
    const { rows } = await this.pool.query<AccountProfile>(
      `insert into risk.account_profiles (organization_id, environment, account_id, user_id, full_name, date_of_birth, nationality, updated_at)
       values ($1, $2, $3, $4, $5, $6, $7, now())
       on conflict (organization_id, environment, account_id)
       do update set user_id = case when $8 then risk.account_profiles.user_id else excluded.user_id end,
         full_name = excluded.full_name, date_of_birth = excluded.date_of_birth, nationality = excluded.nationality, updated_at = now()
       returning ${COLUMNS}`,
      [
        tenant.organizationId,
        tenant.environment,
        input.accountId,
        input.userId ?? null,
        input.fullName.trim(),
        input.dateOfBirth ?? null,
        input.nationality ?? null,
        keepUser,
      ],
    );
    return rows[0];
  }

  async profile(tenant: Tenant, accountId: string): Promise<AccountProfile | null> {
    const { rows } = await this.pool.query<AccountProfile>(
      `select ${COLUMNS} from risk.account_profiles where organization_id = $1 and environment = $2 and account_id = $3`,
      [tenant.organizationId, tenant.environment, accountId],
    );
    return rows[0] ?? null;
  }

  /** The accounts whose profile names this user, by account id. */
  ofUser(tenant: Tenant, userId: string, page: ConnectionArgs): Promise<Connection<Account>> {
    return keysetConnection<AccountProfile & { id: string; created_at: Date }, Account>(
      this.pool,
      {
        from: 'risk.account_profiles p',
        where: ['p.organization_id = $1', 'p.environment = $2', 'p.user_id = $3'],
        values: [tenant.organizationId, tenant.environment, userId],
        key: ['p.account_id'],
        descending: false,
        keyOf: (param) => param,
        isId: (id) => id.length > 0,
        // the cursor carries a time; accounts are ordered by their id alone
        select: `account_id as id, updated_at as created_at, ${COLUMNS}`,
      },
      page,
      (rows) => rows.map(({ id, created_at: _created, ...profile }) => ({ id, profile })),
    );
  }

  /** The profiles naming this user (a subject access request). */
  async exportUser(tenant: Tenant, userId: string): Promise<AccountProfile[]> {
    const { rows } = await this.pool.query<AccountProfile>(
      `select ${COLUMNS} from risk.account_profiles where organization_id = $1 and environment = $2 and user_id = $3 order by account_id`,
      [tenant.organizationId, tenant.environment, userId],
    );
    return rows;
  }

  /** Erasure: the profiles naming this user go (name, date of birth, nationality); returns the accounts they were of. */
  static async eraseUser(db: Sql, tenant: Tenant, userId: string): Promise<string[]> {
    const { rows } = await db.query<{ account_id: string }>(
      `delete from risk.account_profiles where organization_id = $1 and environment = $2 and user_id = $3 returning account_id`,
      [tenant.organizationId, tenant.environment, userId],
    );
    return rows.map((r) => r.account_id);
  }

  /** The account with this id, or null when it has no profile and no transaction named it. */
  async find(tenant: Tenant, accountId: string): Promise<Account | null> {
    const { rows } = await this.pool.query<{ profile: (Omit<AccountProfile, 'updatedAt'> & { updatedAt: string }) | null; seen: boolean }>(
      `select (select row_to_json(p) from (select ${COLUMNS} from risk.account_profiles
                where organization_id = $1 and environment = $2 and account_id = $3) p) as profile,
              exists (select 1 from risk.evaluations where organization_id = $1 and environment = $2 and sender = $3)
                or exists (select 1 from risk.evaluations where organization_id = $1 and environment = $2 and receiver = $3) as seen`,
      [tenant.organizationId, tenant.environment, accountId],
    );
    const { profile, seen } = rows[0];
    if (!profile && !seen) return null;
    return { id: accountId, profile: profile && { ...profile, updatedAt: new Date(profile.updatedAt) } };
  }
}
