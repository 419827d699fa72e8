import { LockMode, type RequiredEntityData } from '@mikro-orm/core';
import { findOneBy } from '../../../../platform/db/find-one-by.js';
import { recordAudit, type AuditActor } from '../../../../platform/audit/audit.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Keyring } from '../../../../platform/crypto/keyring.js';
import type pg from 'pg';
import { AppError, invalid, notFound } from '../../../../platform/errors.js';
import { paginate, paginateOffset, type Connection, type ConnectionArgs } from '../../../../platform/graphql/connection.js';
import { isUuid } from '../../../../platform/ids.js';
import type { ListKind, ScreeningEngine } from '../../../../screening/index.js';
import { tenantColumns, type Tenant } from '../../../../platform/auth/tenant.js';
import { generateWebhookSecret } from '../../../../platform/delivery/signature.js';
import { resolveTarget } from '../../../../platform/delivery/target.js';
import { Delivery } from '../../../../platform/delivery/delivery.entity.js';
import { AmlBatch, AmlBatchSubject, AmlHit, AmlScreening, type AmlRequest } from './aml.entity.js';
import {
  AML_BATCH_LIFECYCLE,
  AML_SCREENING_LIFECYCLE,
  AML_SUBJECT_LIFECYCLE,
  amlRiskLevel,
  type AmlStatus,
  resolveHit,
  reviewTrigger,
} from './aml.lifecycle.js';
import { sqlOf } from '../../../../platform/db/transaction.js';
import type { ErasedUser, PersonalDataHolder } from '../../../../platform/privacy/personal-data.js';
import {
  amlSnapshot,
  insertScreening,
  recordAmlEvent,
  recordBatchEvent,
  withCallback,
  type AmlBatchView,
  type BatchResult,
} from './aml.events.js';
import { MAX_BATCH_SUBJECTS, normaliseAmlRequest, validateAmlRequest } from './aml.validation.js';

/** Hits kept per screening (best first). */
export const MAX_MATCHES = 25;

export type ScreeningSearch = Pick<ScreeningEngine, 'search' | 'versions'>;

export interface AmlView {
  screening: AmlScreening;
  hits: AmlHit[];
}

export interface ListChecked {
  source: string;
  version: string;
  kind: ListKind;
}

/** Which list kind each loaded source is (from its newest snapshot), cached per set of versions. */
export class ListCatalog {
  private cache: { key: string; kinds: Map<string, ListKind> } | null = null;

  constructor(
    private readonly pool: Pick<pg.Pool, 'query'>,
    private readonly engine: ScreeningSearch,
    /** true while the shipped lists are being imported on first start (see lists/default-data.ts) */
    readonly importing: () => boolean = () => false,
  ) {}

  /** No list of any kind is loaded in this process. */
  empty(): boolean {
    return Object.keys(this.engine.versions()).length === 0;
  }

  /**
   * Whether this process's index holds the newest snapshot of every source. A process that has not
   * reloaded yet must not rescan watchlists: its older lists would clear matches and re-alert them.
   */
  async inStep(): Promise<boolean> {
    const { rows } = await this.pool.query<{ source: string; version: string }>(
      'select distinct on (source) source, version from screening.list_snapshots order by source, seq desc',
    );
    const loaded = this.engine.versions();
    return rows.length === Object.keys(loaded).length && rows.every((r) => loaded[r.source] === r.version);
  }

  async checked(kinds: readonly ListKind[]): Promise<ListChecked[]> {
    const versions = this.engine.versions();
    const key = JSON.stringify(Object.entries(versions).sort());
    if (this.cache?.key !== key) {
      const { rows } = await this.pool.query<{ source: string; kind: ListKind }>(
        'select distinct on (source) source, kind from screening.list_snapshots order by source, seq desc',
      );
      this.cache = { key, kinds: new Map(rows.map((r) => [r.source, r.kind])) };
    }
    const byKind = this.cache.kinds;
    return Object.entries(versions)
      .filter(([source]) => kinds.includes(byKind.get(source)!))
      .map(([source, version]) => ({ source, version, kind: byKind.get(source)! }))
      .sort((a, b) => a.source.localeCompare(b.source));
  }
}

/** A screening request normalised, with the lists it is screened against. */
interface ValidatedRequest {
  r: ReturnType<typeof normaliseAmlRequest>;
  lists: ListChecked[];
}

/** One subject of a batch as the API shows it. */
export type BatchLine = BatchResult & { fullName: string; screening: AmlView | null };

export interface AmlJobs {
  /** Queues the batch's screening job in the caller's transaction. */
  enqueueBatch(em: EntityManager, batchId: string): Promise<void>;
  /** A job was committed: its worker fetches it now. */
  wake(): void;
}

export interface AmlServiceDeps {
  screening: ScreeningSearch;
  /** Seals the date of birth of a screening written by `screen` (the ORM's writes seal their own). */
  keyring?: Keyring;
  catalog: ListCatalog;
  jobs?: AmlJobs;
  allowPrivateTargets?: boolean;
}

export interface ResolveMatchCommand {
  resolution: 'TRUE_POSITIVE' | 'FALSE_POSITIVE';
  resolvedBy: string;
  reason: string;
}

export interface ScreeningFilter {
  userId?: string | null;
  status?: AmlStatus | null;
  /** true: a match is still OPEN (the review queue); false: none is. */
  hasUnresolvedMatches?: boolean | null;
}

export interface BatchCommand {
  subjects: AmlRequest[];
  callbackUrl?: string | null;
}

const unavailable = () =>
  new AppError('UNAVAILABLE', 'No screening list is loaded; import the lists first (npm run lists:import)', { retryAfter: 60 });
const importing = () =>
  new AppError('UNAVAILABLE', 'The screening lists shipped with the platform are being imported (first start); retry shortly', {
    retryAfter: 15,
  });

/**
 * Refuses to screen while the result could be a wrong CLEAR: during the first start's import, or
 * with no list at all. A requested kind with no list (e.g. PEP) is not an error: `listsChecked` says
 * which lists were screened.
 */
function assertScreenable(catalog: ListCatalog): void {
  if (catalog.importing()) throw importing();
  if (catalog.empty()) throw unavailable();
}

/** AML screening: one subject now, a batch by job; reviews of matches. */
export class AmlService implements PersonalDataHolder {
  constructor(
    private readonly em: EntityManager,
    private readonly tenant: Tenant,
    private readonly deps: AmlServiceDeps,
  ) {}

  /** Screens one subject and records it with its event: one statement (insertScreening). */
  async screen(req: AmlRequest): Promise<AmlView> {
    const keyring = this.deps.keyring;
    if (!keyring) throw new Error('AmlService.screen needs the keyring: it seals the date of birth');
    const { view, event } = this.screened(this.em, await this.validated(req), null, false);
    await insertScreening(sqlOf(this.em), keyring, event, view.screening, view.hits);
    return view;
  }

  /** Screens one subject and records it (with its event) in the caller's transaction. */
  async screenIn(em: EntityManager, req: AmlRequest, batchId: string | null): Promise<AmlView> {
    const { view, event } = this.screened(em, await this.validated(req), batchId, true);
    recordAmlEvent(em, event, view.screening, view.hits);
    return view;
  }

  /** The request normalised, with the lists it is screened against; refused while screening could answer a wrong CLEAR. */
  private async validated(req: AmlRequest): Promise<ValidatedRequest> {
    const errors = validateAmlRequest(req);
    if (errors.length) throw invalid(errors);
    assertScreenable(this.deps.catalog);
    const r = normaliseAmlRequest(req);
    return { r, lists: await this.deps.catalog.checked(r.lists) };
  }

  /** The screening of a validated request and its matches, as entities (`persist`: queued in `em`'s unit of work), and its event. */
  private screened(
    em: EntityManager,
    { r, lists }: ValidatedRequest,
    batchId: string | null,
    persist: boolean,
  ): { view: AmlView; event: string } {
    const found = !lists.length
      ? []
      : this.deps.screening.search({
          fullName: r.fullName,
          dateOfBirth: r.dateOfBirth ?? undefined,
          nationality: r.nationality ?? undefined,
          documentNumber: r.documentNumber ?? undefined,
          entityType: 'INDIVIDUAL',
          kinds: r.lists,
          sources: lists.map((l) => l.source),
          threshold: r.matchThreshold,
          limit: MAX_MATCHES,
        });
    const trigger = found.length ? 'screened.matches' : 'screened.clear';
    const t = AML_SCREENING_LIFECYCLE.fire(null, trigger);
    const status = t.status;
    // written by insertScreening unless `persist`: then plain instances, without the unit of work's bookkeeping
    const make = <T extends object>(entity: new () => T, data: RequiredEntityData<T>): T =>
      persist ? em.create(entity, data, { persist: true }) : Object.assign(new entity(), data);
    const screening = make(AmlScreening, {
      ...this.tenant,
      ...r,
      status,
      riskLevel: amlRiskLevel(
        status,
        found.map((h) => h.kind),
      ),
      matchCount: found.length,
      listsChecked: lists.map((l) => l.source),
      listVersions: lists,
      batchId,
      checkedAt: new Date(),
    });
    const hits = found.map((h, position) =>
      make(AmlHit, {
        screeningId: screening.id,
        position,
        source: h.source,
        kind: h.kind,
        externalId: h.externalId,
        entityType: h.entityType,
        primaryName: h.primaryName,
        matchedName: h.matchedName,
        score: Math.round(h.score * 1000) / 1000,
        explanation: h.explanation,
        programs: h.programs,
        addedDate: h.addedDate ?? null,
        listVersion: h.listVersion,
      }),
    );
    return { view: { screening, hits }, event: t.event };
  }

  async exportUser(userId: string): Promise<unknown[]> {
    const all = await this.em.find(AmlScreening, { userId, ...this.tenant }, { orderBy: { createdAt: 'asc', id: 'asc' } });
    const hits = all.length
      ? await this.em.find(AmlHit, { screeningId: { $in: all.map((s) => s.id) } }, { orderBy: { position: 'asc' } })
      : [];
    return all.map((s) =>
      amlSnapshot(
        s,
        hits.filter((h) => h.screeningId === s.id),
      ),
    );
  }

  /**
   * The subject screened goes (name, date of birth, nationality, document number; the name as
   * compared in each hit's explanation; a reviewer's reasons; the subject of a batch); the
   * screenings stay with their status, risk level and the list entries that matched (the fact of a hit).
   */
  async eraseUser({ userId, pseudonym }: ErasedUser): Promise<number> {
    const { rows } = await sqlOf(this.em).query<{ n: number }>(
      `with screenings as (
         update verification.aml_screenings
            set user_id = $4, full_name = null, date_of_birth_plaintext = null, date_of_birth_sealed = null, nationality = null,
                document_number = null
          where organization_id = $1 and environment = $2 and user_id = $3 returning id),
       hits as (
         update verification.aml_hits
            set explanation = jsonb_build_object('nameScore', explanation -> 'nameScore', 'tokens', '[]'::jsonb, 'qualifiers', '[]'::jsonb),
                resolution_reason = null
          where screening_id in (select id from screenings) returning 1),
       subjects as (
         update verification.aml_batch_subjects bs set input = jsonb_build_object('userId', $4::text)
           from verification.aml_batches b
          where b.id = bs.batch_id and b.organization_id = $1 and b.environment = $2 and bs.input ->> 'userId' = $3 returning 1)
       select ((select count(*) from screenings) + (select count(*) from subjects))::int as n`,
      [this.tenant.organizationId, this.tenant.environment, userId, pseudonym],
    );
    return rows[0]?.n ?? 0;
  }

  /** The caller's screening with this id (with its matches), or null. */
  async find(id: string): Promise<AmlView | null> {
    const screening = isUuid(id) ? await findOneBy(this.em, AmlScreening, { id, ...this.tenant }) : null;
    return screening ? { screening, hits: await this.hitsOf(screening.id) } : null;
  }

  async get(id: string): Promise<AmlView> {
    const view = await this.find(id);
    if (!view) throw notFound('AML screening', id);
    return view;
  }

  /** The organization's screenings (of one user, with one status, with or without open matches), newest first. */
  async list(filter: ScreeningFilter, page: ConnectionArgs): Promise<Connection<AmlView>> {
    const unresolved = { matchCount: { $gt: 0 }, resolvedAt: null };
    const where = {
      ...(filter.userId != null && { userId: filter.userId }),
      ...(filter.status != null && { status: filter.status }),
      ...(filter.hasUnresolvedMatches === true && unresolved),
      ...(filter.hasUnresolvedMatches === false && { $or: [{ matchCount: 0 }, { resolvedAt: { $ne: null } }] }),
      // last: a session's user wins over the filter's
      ...this.tenant,
    };
    const found = await paginate(this.em, AmlScreening, where, page);
    const ids = found.nodes.map((s) => s.id);
    const hits = ids.length ? await this.em.find(AmlHit, { screeningId: { $in: ids } }, { orderBy: { position: 'asc' } }) : [];
    const view = (screening: AmlScreening): AmlView => ({ screening, hits: hits.filter((h) => h.screeningId === screening.id) });
    const edges = found.edges.map((edge) => ({ cursor: edge.cursor, node: view(edge.node) }));
    return { ...found, edges, nodes: edges.map((edge) => edge.node) };
  }

  /** A reviewer marks one match a true or false positive; the screening follows the lifecycle table. */
  async resolveMatch(screeningId: string, matchId: string, cmd: ResolveMatchCommand, actor: AuditActor): Promise<AmlView> {
    if (!isUuid(screeningId)) throw notFound('AML screening', screeningId);
    return this.em.transactional(async (em) => {
      const screening = await em.findOne(
        AmlScreening,
        { id: screeningId, ...this.tenant },
        { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
      );
      if (!screening) throw notFound('AML screening', screeningId);
      const hits = await em.find(AmlHit, { screeningId }, { orderBy: { position: 'asc' }, refresh: true });
      const hit = isUuid(matchId) ? hits.find((h) => h.id === matchId) : undefined;
      if (!hit) throw notFound(`Match of AML screening ${screeningId}`, matchId);
      const now = new Date();
      Object.assign(hit, {
        resolution: resolveHit(hit.resolution, cmd.resolution),
        resolvedBy: cmd.resolvedBy,
        resolutionReason: cmd.reason,
        resolvedAt: now,
      });
      const t = AML_SCREENING_LIFECYCLE.fire(
        screening.status,
        reviewTrigger(
          screening.status,
          hits.map((h) => h.resolution),
        ),
      );
      screening.status = t.status;
      const standing = hits.filter((h) => h.resolution !== 'FALSE_POSITIVE').map((h) => h.kind);
      screening.riskLevel = amlRiskLevel(screening.status, standing);
      if (!hits.some((h) => h.resolution === 'OPEN')) screening.resolvedAt = now;
      // the flush sets updatedAt (onUpdate): the event's snapshot must show the row as stored
      await em.flush();
      recordAmlEvent(em, t.event, screening, hits);
      await recordAudit(em, {
        ...tenantColumns(this.tenant),
        action: 'aml_match.resolved',
        actor,
        reviewer: cmd.resolvedBy,
        resourceType: 'aml_screening',
        resourceId: screening.id,
        userId: screening.userId,
        details: { matchId: hit.id, resolution: cmd.resolution, status: screening.status },
      });
      return { screening, hits };
    });
  }

  async createBatch(cmd: BatchCommand): Promise<{ batch: AmlBatch; callbackSecret: string | null }> {
    const errors: string[] = [];
    if (!cmd.subjects.length) errors.push('subjects must contain at least one subject');
    if (cmd.subjects.length > MAX_BATCH_SUBJECTS) errors.push(`subjects must contain at most ${MAX_BATCH_SUBJECTS} subjects`);
    cmd.subjects.slice(0, MAX_BATCH_SUBJECTS).forEach((s, i) => errors.push(...validateAmlRequest(s, `subjects[${i}].`)));
    let callbackUrl: string | null = null;
    if (cmd.callbackUrl != null) {
      try {
        const url = new URL(cmd.callbackUrl);
        if (url.protocol !== 'https:') errors.push('callbackUrl must be an HTTPS URL');
        else {
          await resolveTarget(url.href, this.deps.allowPrivateTargets ?? false).catch((err: Error) => errors.push(err.message));
          callbackUrl = url.href;
        }
      } catch {
        errors.push('callbackUrl must be a valid URL');
      }
    }
    if (errors.length) throw invalid(errors);
    assertScreenable(this.deps.catalog);
    if (!this.deps.jobs) throw new Error('AML jobs are not configured');
    const callbackSecret = callbackUrl ? generateWebhookSecret() : null;
    const batch = await this.em.transactional(async (em) => {
      const submitted = AML_BATCH_LIFECYCLE.fire(null, 'submitted');
      const b = em.create(AmlBatch, {
        ...tenantColumns(this.tenant),
        total: cmd.subjects.length,
        callbackUrl,
        callbackSecret,
        status: submitted.status,
      });
      const subjectStatus = AML_SUBJECT_LIFECYCLE.next(null, 'submitted');
      cmd.subjects.forEach((input, position) =>
        em.create(AmlBatchSubject, { batchId: b.id, position, input: { ...input }, status: subjectStatus }),
      );
      recordBatchEvent(em, submitted.event, withCallback(b, null), { batchId: b.id, status: b.status, total: b.total });
      await em.flush();
      await this.deps.jobs!.enqueueBatch(em, b.id);
      return b;
    });
    this.deps.jobs.wake();
    return { batch, callbackSecret };
  }

  /** Batches screen many people: a session (one user's records) sees none. */
  private get seesBatches(): boolean {
    return this.tenant.userId === undefined;
  }

  /** The caller's batch with this id (with its callback's state), or null. */
  async findBatch(id: string): Promise<AmlBatchView | null> {
    const batch = isUuid(id) && this.seesBatches ? await findOneBy(this.em, AmlBatch, { id, ...this.tenant }) : null;
    if (!batch) return null;
    const delivery = batch.callbackDeliveryId ? await this.em.findOne(Delivery, { id: batch.callbackDeliveryId, ...this.tenant }) : null;
    return withCallback(batch, delivery);
  }

  /** The caller's batches among these ids, with their callbacks' state (two queries for a page of screenings). */
  async findBatches(ids: readonly string[]): Promise<AmlBatchView[]> {
    const valid = this.seesBatches ? ids.filter(isUuid) : [];
    const batches = valid.length ? await this.em.find(AmlBatch, { id: { $in: valid }, ...this.tenant }) : [];
    const deliveryIds = batches.map((b) => b.callbackDeliveryId).filter((id): id is string => Boolean(id));
    const deliveries = deliveryIds.length ? await this.em.find(Delivery, { id: { $in: deliveryIds }, ...this.tenant }) : [];
    return batches.map((b) => withCallback(b, deliveries.find((d) => d.id === b.callbackDeliveryId) ?? null));
  }

  async getBatch(id: string): Promise<AmlBatchView> {
    const batch = await this.findBatch(id);
    if (!batch) throw notFound('AML batch', id);
    return batch;
  }

  private async ownBatch(id: string): Promise<AmlBatch> {
    const batch = isUuid(id) && this.seesBatches ? await findOneBy(this.em, AmlBatch, { id, ...this.tenant }) : null;
    if (!batch) throw notFound('AML batch', id);
    return batch;
  }

  /** One page of a batch's subjects in submission order, each with its screening once done. */
  async batchSubjects(batchId: string, page: ConnectionArgs): Promise<Connection<BatchLine>> {
    const batch = await this.ownBatch(batchId);
    return paginateOffset(page, async (offset, limit) => {
      const subjects = await this.em.find(AmlBatchSubject, { batchId }, { orderBy: { position: 'asc' }, offset, limit });
      return { nodes: await this.linesOf(subjects), totalCount: batch.total };
    });
  }

  /** One line per subject, in submission order, with its screening once done. */
  async batchResults(batchId: string): Promise<BatchLine[]> {
    await this.ownBatch(batchId);
    return this.linesOf(await this.em.find(AmlBatchSubject, { batchId }, { orderBy: { position: 'asc' } }));
  }

  private async linesOf(subjects: AmlBatchSubject[]): Promise<BatchLine[]> {
    const ids = subjects.map((s) => s.screeningId).filter((id): id is string => Boolean(id));
    const screenings = ids.length ? await this.em.find(AmlScreening, { id: { $in: ids }, ...this.tenant }) : [];
    const hits = ids.length ? await this.em.find(AmlHit, { screeningId: { $in: ids } }, { orderBy: { position: 'asc' } }) : [];
    return subjects.map((s) => {
      const screening = screenings.find((x) => x.id === s.screeningId) ?? null;
      return {
        position: s.position,
        userId: s.input.userId,
        fullName: s.input.fullName,
        screeningId: s.screeningId ?? null,
        status: s.status === 'FAILED' ? 'FAILED' : (screening?.status ?? s.status),
        riskLevel: screening?.riskLevel ?? null,
        matchCount: screening?.matchCount ?? null,
        error: s.error ?? null,
        screening: screening ? { screening, hits: hits.filter((h) => h.screeningId === screening.id) } : null,
      };
    });
  }

  private hitsOf(screeningId: string): Promise<AmlHit[]> {
    return this.em.find(AmlHit, { screeningId }, { orderBy: { position: 'asc' } });
  }
}
