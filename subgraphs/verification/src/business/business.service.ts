import { LockMode } from '@mikro-orm/core';
import { findOneBy } from '../../../../platform/db/find-one-by.js';
import { auditReview, stampReview } from '../review/review.js';
import type { AuditActor } from '../../../../platform/audit/audit.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Tenant } from '../../../../platform/auth/tenant.js';
import { AppError, conflict, invalid, notFound } from '../../../../platform/errors.js';
import { paginate, type Connection, type ConnectionArgs } from '../../../../platform/graphql/connection.js';
import { isUuid } from '../../../../platform/ids.js';
import { AmlService, type AmlServiceDeps } from '../aml/aml.service.js';
import { dateOfBirthError } from '../screened-person/screened-person.js';
import { isCountryCode } from '../../../../platform/countries.js';
import { INITIAL_STEPS, type PersonScreening } from './business-rules.js';
import { BusinessPerson, BusinessVerification, type BusinessType, type ControlType } from './business.entity.js';
import { businessSnapshot, recordBusinessEvent, type BusinessView } from './business.events.js';
import { sqlOf } from '../../../../platform/db/transaction.js';
import type { ErasedUser, PersonalDataHolder } from '../../../../platform/privacy/personal-data.js';
import { pastRetention, RETENTION_CHUNK, untilDone } from '../../../../platform/privacy/retention.js';
import type pg from 'pg';
import { BUSINESS_LIFECYCLE, DECLARABLE_STATUSES, type BusinessStatus } from './business.lifecycle.js';
import { applyProgress } from './business.progress.js';
import type { BusinessRegistries } from './registries.js';

/** People one call may declare, and a business may hold, of each kind. */
export const MAX_PEOPLE_PER_CALL = 50;
export const MAX_PEOPLE_PER_BUSINESS = 100;

export interface BusinessSubmission {
  userId: string;
  businessName: string;
  registrationNumber: string;
  country: string;
  businessType?: BusinessType | null;
  taxId?: string | null;
}

export interface PersonFields {
  fullName: string;
  dateOfBirth?: string | null;
  nationality?: string | null;
}

export interface DirectorSubmission extends PersonFields {
  role: string;
  idNumber?: string | null;
}

export interface UboSubmission extends PersonFields {
  ownershipPercentage: number;
  controlType?: ControlType | null;
}

export interface BusinessReview {
  decision: 'VERIFIED' | 'REJECTED';
  reviewedBy: string;
  reviewNotes: string;
}

export interface BusinessFilter {
  userId?: string | null;
  status?: BusinessStatus | null;
}

/** Queues a registry lookup of a business in the caller's transaction (now, or after a delay). */
/** What the business capability builds at start: the registries and the lookup queue. */
export interface BusinessDeps {
  businessRegistries: BusinessRegistries;
  businessJobs: BusinessJobs;
}

export interface BusinessJobs {
  enqueueLookup(em: EntityManager, businessId: string, startAfterSeconds?: number): Promise<void>;
  /** A job was committed: its worker fetches it now. */
  wake(): void;
}

export interface BusinessServiceDeps {
  registries: BusinessRegistries;
  jobs: BusinessJobs;
  /** The AML screening every director and UBO goes through. */
  aml: AmlServiceDeps;
}

const textError = (field: string, value: string | null | undefined, max: number, required = true): string | null => {
  if (value == null) return required ? `${field} must not be empty` : null;
  if (!value.trim()) return `${field} must not be empty`;
  if (value.length > max) return `${field} must be at most ${max} characters`;
  return null;
};

function personErrors(p: PersonFields, at: string): string[] {
  return [
    textError(`${at}fullName`, p.fullName, 200),
    p.fullName?.trim() && !/\p{L}/u.test(p.fullName) ? `${at}fullName must contain letters` : null,
    p.dateOfBirth != null ? dateOfBirthError(p.dateOfBirth) && `${at}${dateOfBirthError(p.dateOfBirth)}` : null,
    p.nationality != null && !isCountryCode(p.nationality) ? `${at}nationality must be an uppercase ISO 3166-1 alpha-2 country code` : null,
  ].filter((e): e is string => typeof e === 'string');
}

const sum = (values: number[]) => Math.round(values.reduce((a, b) => a + b, 0) * 1000) / 1000;

/** Business verification (KYB): the declared business, its directors and UBOs, the registry lookup and the screenings. */
export class BusinessService implements PersonalDataHolder {
  constructor(
    private readonly em: EntityManager,
    private readonly tenant: Tenant,
    private readonly deps: BusinessServiceDeps,
  ) {}

  /** Records the business PENDING (registration PROCESSING) and queues its registry lookup, in one transaction. */
  async create(input: BusinessSubmission): Promise<BusinessView> {
    const errors = [
      textError('userId', input.userId, 255),
      textError('businessName', input.businessName, 300),
      textError('registrationNumber', input.registrationNumber, 100),
      isCountryCode(input.country) ? null : 'country must be an uppercase ISO 3166-1 alpha-2 country code',
      textError('taxId', input.taxId, 100, false),
    ].filter((e): e is string => typeof e === 'string');
    if (errors.length) throw invalid(errors);
    const submitted = await this.em.transactional(async (em) => {
      const created = BUSINESS_LIFECYCLE.fire(null, 'created');
      const business = em.create(BusinessVerification, {
        organizationId: this.tenant.organizationId,
        environment: this.tenant.environment,
        userId: input.userId.trim(),
        businessName: input.businessName.trim().replace(/\s+/g, ' '),
        registrationNumber: input.registrationNumber.trim(),
        country: input.country,
        businessType: input.businessType ?? null,
        taxId: input.taxId?.trim() || null,
        status: created.status,
        steps: { ...INITIAL_STEPS },
        registryProvider: this.deps.registries.nameFor(this.tenant.environment),
      });
      await em.flush();
      await this.deps.jobs.enqueueLookup(em, business.id);
      const view = { business, people: [] };
      recordBusinessEvent(em, created.event, view);
      return view;
    });
    this.deps.jobs.wake();
    return submitted;
  }

  /** Declares directors (each screened now); the business's steps and status follow. */
  addDirectors(id: string, directors: DirectorSubmission[]): Promise<BusinessView> {
    const errors = this.countErrors('directors', directors.length);
    directors.slice(0, MAX_PEOPLE_PER_CALL).forEach((d, i) => {
      const at = `directors.${i}.`;
      errors.push(...personErrors(d, at));
      const role = textError(`${at}role`, d.role, 100);
      if (role) errors.push(role);
      const idNumber = textError(`${at}idNumber`, d.idNumber, 100, false);
      if (idNumber) errors.push(idNumber);
    });
    if (errors.length) throw invalid(errors);
    return this.declare(id, 'DIRECTOR', directors.length, async (em, business, position) => {
      const made: BusinessPerson[] = [];
      for (const [i, d] of directors.entries()) {
        const screened = await this.screen(em, business, { ...d, documentNumber: d.idNumber ?? null });
        made.push(
          em.create(BusinessPerson, {
            ...this.columns,
            businessId: business.id,
            kind: 'DIRECTOR',
            position: position + i,
            fullName: d.fullName.trim().replace(/\s+/g, ' '),
            role: d.role.trim(),
            dateOfBirth: d.dateOfBirth ?? null,
            nationality: d.nationality ?? null,
            idNumber: d.idNumber?.trim() || null,
            ...screened,
          }),
        );
      }
      return made;
    });
  }

  /** Declares ultimate beneficial owners (each screened now); their ownership may not add up to more than 100 %. */
  addUbos(id: string, ubos: UboSubmission[]): Promise<BusinessView> {
    const errors = this.countErrors('ubos', ubos.length);
    ubos.slice(0, MAX_PEOPLE_PER_CALL).forEach((u, i) => {
      const at = `ubos.${i}.`;
      errors.push(...personErrors(u, at));
      if (!Number.isFinite(u.ownershipPercentage) || u.ownershipPercentage < 0 || u.ownershipPercentage > 100) {
        errors.push(`${at}ownershipPercentage must be between 0 and 100`);
      }
    });
    if (errors.length) throw invalid(errors);
    return this.declare(id, 'UBO', ubos.length, async (em, business, position, people) => {
      const before = sum(people.filter((p) => p.kind === 'UBO').map((p) => p.ownershipPercentage ?? 0));
      const total = sum([before, ...ubos.map((u) => u.ownershipPercentage)]);
      if (total > 100) {
        throw invalid(
          `ubos.ownershipPercentage must not add up to more than 100: the total would be ${total}` +
            (before ? ` (${before} declared before)` : ''),
        );
      }
      const made: BusinessPerson[] = [];
      for (const [i, u] of ubos.entries()) {
        const screened = await this.screen(em, business, u);
        made.push(
          em.create(BusinessPerson, {
            ...this.columns,
            businessId: business.id,
            kind: 'UBO',
            position: position + i,
            fullName: u.fullName.trim().replace(/\s+/g, ' '),
            ownershipPercentage: u.ownershipPercentage,
            controlType: u.controlType ?? null,
            dateOfBirth: u.dateOfBirth ?? null,
            nationality: u.nationality ?? null,
            ...screened,
          }),
        );
      }
      return made;
    });
  }

  private countErrors(field: 'directors' | 'ubos', count: number): string[] {
    if (count === 0) return [`${field} must contain at least one record`];
    if (count > MAX_PEOPLE_PER_CALL) return [`${field} must contain at most ${MAX_PEOPLE_PER_CALL} records`];
    return [];
  }

  private get columns() {
    return { organizationId: this.tenant.organizationId, environment: this.tenant.environment };
  }

  /**
   * Locks the business, checks it still takes declarations, makes the people (screened in this
   * transaction: each screening is an AML screening of the user, with its event) and applies the
   * rules — one transaction.
   */
  private async declare(
    id: string,
    kind: 'DIRECTOR' | 'UBO',
    count: number,
    make: (em: EntityManager, business: BusinessVerification, position: number, people: BusinessPerson[]) => Promise<BusinessPerson[]>,
  ): Promise<BusinessView> {
    await this.get(id);
    return this.em.transactional(async (em) => {
      const business = await em.findOneOrFail(
        BusinessVerification,
        { id, ...this.tenant },
        { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
      );
      const what = kind === 'DIRECTOR' ? 'Directors' : 'UBOs';
      if (!DECLARABLE_STATUSES.includes(business.status)) {
        throw conflict(
          `${what} cannot be added to a business verification in status ${business.status} (allowed until it is decided: ${DECLARABLE_STATUSES.join(', ')})`,
        );
      }
      if (business.reviewedAt)
        throw conflict(`${what} cannot be added to a business verification a reviewer has decided (${business.status})`);
      const people = await this.peopleIn(em, [id]);
      const mine = people.filter((p) => p.kind === kind);
      const field = kind === 'DIRECTOR' ? 'directors' : 'ubos';
      if (mine.length + count > MAX_PEOPLE_PER_BUSINESS) {
        throw invalid(`${field} must not exceed ${MAX_PEOPLE_PER_BUSINESS} per business (${mine.length} declared before)`);
      }
      const position = mine.reduce((max, p) => Math.max(max, p.position + 1), 0);
      // one at a time: the screenings share this transaction's connection
      const made = await make(em, business, position, people);
      const view = { business, people: [...people, ...made] };
      await applyProgress(em, view, true);
      return view;
    });
  }

  /** One person's AML screening (AmlService.screenIn, in the caller's transaction); UNAVAILABLE while no list is loaded. */
  private async screen(
    em: EntityManager,
    business: BusinessVerification,
    p: PersonFields & { documentNumber?: string | null },
  ): Promise<{ amlScreeningId: string | null; screeningStatus: PersonScreening; matchCount: number }> {
    try {
      const { screening } = await new AmlService(em, this.tenant, this.deps.aml).screenIn(
        em,
        {
          userId: business.userId,
          fullName: p.fullName,
          dateOfBirth: p.dateOfBirth ?? null,
          nationality: p.nationality ?? null,
          documentNumber: p.documentNumber ?? null,
        },
        null,
      );
      return {
        amlScreeningId: screening.id,
        screeningStatus: screening.matchCount > 0 ? 'POTENTIAL_MATCH' : 'CLEAR',
        matchCount: screening.matchCount,
      };
    } catch (err) {
      if (err instanceof AppError && err.code === 'UNAVAILABLE')
        return { amlScreeningId: null, screeningStatus: 'UNAVAILABLE', matchCount: 0 };
      throw err;
    }
  }

  /** The businesses the user declared, with their directors and UBOs and the registry's answer. */
  async exportUser(userId: string): Promise<unknown[]> {
    const all = await this.em.find(BusinessVerification, { userId, ...this.tenant }, { orderBy: { createdAt: 'asc', id: 'asc' } });
    const people = await this.peopleIn(
      this.em,
      all.map((b) => b.id),
    );
    return all.map((business) => businessSnapshot({ business, people: people.filter((p) => p.businessId === business.id) }));
  }

  /**
   * The KYB details go: the business's name, numbers and the registry's answer, and the directors'
   * and UBOs' identities; the steps, statuses and screening outcomes stay. A lookup not yet made is
   * not made any more.
   */
  async eraseUser({ userId, pseudonym }: ErasedUser): Promise<number> {
    const { rows } = await sqlOf(this.em).query<{ n: number }>(
      `with businesses as (
         update verification.business_verifications
            set user_id = $4, business_name = null, registration_number = null, tax_id = null, registry_data = null, review_notes = null
          where organization_id = $1 and environment = $2 and user_id = $3 returning id),
       people as (
         update verification.business_people set full_name = null, date_of_birth_plaintext = null, date_of_birth_sealed = null,
                nationality = null, id_number_plaintext = null, id_number_sealed = null
          where business_id in (select id from businesses) returning 1)
       select ((select count(*) from businesses) + (select count(*) from people))::int as n`,
      [this.tenant.organizationId, this.tenant.environment, userId, pseudonym],
    );
    return rows[0]?.n ?? 0;
  }

  /** Retention: the registries' answers past every organization's `providerResponses` period (the outcome stays). */
  static expireRegistryAnswers(pool: pg.Pool): Promise<number> {
    return untilDone(async () => {
      const { rowCount } = await pool.query(
        `update verification.business_verifications set registry_data = null
          where id in (select b.id from verification.business_verifications b
                        where b.registry_data is not null and ${pastRetention('providerResponses', 'b', 'created_at')} limit ${RETENTION_CHUNK})`,
      );
      return rowCount ?? 0;
    });
  }

  async find(id: string): Promise<BusinessView | null> {
    const business = isUuid(id) ? await findOneBy(this.em, BusinessVerification, { id, ...this.tenant }) : null;
    return business ? { business, people: await this.peopleIn(this.em, [business.id]) } : null;
  }

  async get(id: string): Promise<BusinessView> {
    const view = await this.find(id);
    if (!view) throw notFound('Business verification', id);
    return view;
  }

  /** The organization's business verifications (of one user, with one status), newest first, with their people. */
  async list(filter: BusinessFilter, page: ConnectionArgs): Promise<Connection<BusinessView>> {
    const found = await paginate(
      this.em,
      BusinessVerification,
      {
        ...(filter.userId != null && { userId: filter.userId }),
        ...(filter.status != null && { status: filter.status }),
        // last: a session's user wins over the filter's
        ...this.tenant,
      },
      page,
    );
    const people = await this.peopleIn(
      this.em,
      found.nodes.map((b) => b.id),
    );
    const edges = found.edges.map((edge) => ({
      cursor: edge.cursor,
      node: { business: edge.node, people: people.filter((p) => p.businessId === edge.node.id) },
    }));
    return { ...found, edges, nodes: edges.map((edge) => edge.node) };
  }

  /** A reviewer settles a business in MANUAL_REVIEW (409 from any other status): lock, lifecycle, change, event — one transaction. */
  async review(id: string, review: BusinessReview, actor: AuditActor): Promise<BusinessView> {
    await this.get(id);
    return this.em.transactional(async (em) => {
      const business = await em.findOneOrFail(
        BusinessVerification,
        { id, ...this.tenant },
        { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
      );
      const { status, event } = BUSINESS_LIFECYCLE.fire(
        business.status,
        review.decision === 'VERIFIED' ? 'review.verified' : 'review.rejected',
      );
      const now = new Date();
      Object.assign(business, { status, completedAt: now });
      stampReview(business, review, now);
      await em.flush();
      const view = { business, people: await this.peopleIn(em, [id]) };
      recordBusinessEvent(em, event, view);
      await auditReview(em, { tenant: this.tenant, actor, review, record: business, resourceType: 'business_verification', status });
      return view;
    });
  }

  /** People of these businesses (already tenant-checked), re-read with the tenant's columns. */
  private peopleIn(em: EntityManager, businessIds: string[]): Promise<BusinessPerson[]> {
    if (!businessIds.length) return Promise.resolve([]);
    return em.find(
      BusinessPerson,
      { businessId: { $in: businessIds }, organizationId: this.tenant.organizationId, environment: this.tenant.environment },
      { orderBy: { kind: 'asc', position: 'asc' } },
    );
  }
}
