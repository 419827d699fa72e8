import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../../../platform/db/orm.js';
import { AppError } from '../../../../platform/errors.js';
import type { EventStream, OutboxNotice } from '../../../../platform/events/event-stream.js';
import type { Logger } from '../../../../platform/logger.js';
import type { Tenant } from '../../../../platform/auth/tenant.js';
import { AmlScreening } from '../aml/aml.entity.js';
import { AmlService, type AmlServiceDeps } from '../aml/aml.service.js';
import { DocumentVerification } from '../document/document.entity.js';
import { DOCUMENT_RESOURCE } from '../document/document.events.js';
import { LivenessSession } from '../liveness/liveness.entity.js';
import { LIVENESS_RESOURCE } from '../liveness/liveness.events.js';
import { faceMatchScore } from '../vision/face-match.js';
import { IdentityVerification } from './identity.entity.js';
import { recordIdentityEvent } from './identity.events.js';
import { ACTIVE_STATUSES, IDENTITY_LIFECYCLE, type IdentityStatus, type IdentityTrigger } from './identity.lifecycle.js';
import { identityProgress, type IdentityFacts, type IdentitySteps } from './identity-progress.js';

/** Field by field: steps read back from jsonb come in the database's key order, not ours. */
function sameSteps(a: IdentitySteps, b: IdentitySteps | null | undefined): boolean {
  return b != null && (Object.keys(a) as Array<keyof IdentitySteps>).every((step) => a[step] === b[step]);
}

/** The automatic move into each status the rules can reach from IN_PROGRESS. */
const FINAL_TRIGGER: Partial<Record<IdentityStatus, IdentityTrigger>> = {
  VERIFIED: 'processing.verified',
  REJECTED: 'processing.rejected',
  MANUAL_REVIEW: 'processing.flagged',
};

/**
 * Submissions whose changes move identity verifications. Not AML screenings: the one a
 * verification uses is made by `advance` itself, and a later review of its matches finds the
 * verification in MANUAL_REVIEW already (a batch of 10,000 screenings costs nothing here).
 */
const INPUTS = new Set([DOCUMENT_RESOURCE, LIVENESS_RESOURCE]);

export interface IdentityOrchestratorOptions {
  orm: Orm;
  events: EventStream;
  aml: AmlServiceDeps;
  logger: Logger;
  /** How often every process looks for verifications whose submissions changed unseen (a crash, a missed notice). */
  sweepMs: number;
}

/**
 * Identity verifications that complete themselves. Every committed change of a user's document or
 * liveness session (an outbox notice, heard by every process) re-reads that
 * user's active verification and applies identity-progress.ts under the verification's row lock,
 * so several processes hearing the same notice agree. A periodic sweep catches what a crash or a
 * lost notice left: the moves are recomputed from the records, never from the notice.
 */
export class IdentityOrchestrator {
  private unlisten: (() => void) | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();

  constructor(private readonly opts: IdentityOrchestratorOptions) {}

  start(): void {
    this.unlisten = this.opts.events.onNotice((n) => this.heard(n));
    this.timer = setInterval(() => this.queue(() => this.sweep()), this.opts.sweepMs);
    this.timer.unref();
    this.queue(() => this.sweep());
  }

  async stop(): Promise<void> {
    this.unlisten?.();
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  private heard(n: OutboxNotice): void {
    if (!INPUTS.has(n.resourceType) || !n.userId) return;
    const userId = n.userId;
    this.queue(() => this.advance({ organizationId: n.organizationId, environment: n.environment }, userId));
  }

  /** One at a time per process: notices arrive in commit order and are applied in that order. */
  private queue(work: () => Promise<unknown>): void {
    this.running = this.running.then(work).catch((err) => this.opts.logger.error({ err }, 'identity progress failed'));
  }

  /** Verifications whose submissions changed after they last did. */
  async sweep(): Promise<void> {
    const rows = await this.opts.orm.em.getConnection().execute<Array<{ organization_id: string; environment: string; user_id: string }>>(
      `select i.organization_id, i.environment, i.user_id from verification.identity_verifications i
        where i.overall_status in ('PENDING', 'IN_PROGRESS') and i.invalidated_at is null
          and (exists (select 1 from verification.document_verifications d
                        where (d.organization_id, d.environment, d.user_id) = (i.organization_id, i.environment, i.user_id)
                          and d.created_at >= i.created_at and d.updated_at > i.updated_at)
            or exists (select 1 from verification.liveness_sessions l
                        where (l.organization_id, l.environment, l.user_id) = (i.organization_id, i.environment, i.user_id)
                          and l.created_at >= i.created_at and l.updated_at > i.updated_at))
        limit 500`,
    );
    for (const r of rows) await this.advance({ organizationId: r.organization_id, environment: r.environment }, r.user_id);
  }

  /** Applies the rules to the user's active verification (if any); idempotent. */
  async advance(tenant: Tenant, userId: string): Promise<void> {
    await this.opts.orm.em.fork().transactional(async (em) => {
      const identity = await em.findOne(
        IdentityVerification,
        { ...tenant, userId, overallStatus: { $in: [...ACTIVE_STATUSES] }, invalidatedAt: null },
        { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { createdAt: 'desc' } },
      );
      if (!identity) return;
      let facts = await this.facts(em, identity);
      let progress = identityProgress(facts);
      if (progress.screenAml) {
        facts = await this.screen(em, identity, facts);
        progress = identityProgress(facts);
      }
      const changed =
        progress.status !== identity.overallStatus ||
        !sameSteps(progress.steps, identity.steps) ||
        facts.faceMatchScore !== (identity.faceMatchScore ?? null);
      if (!changed) return;
      identity.steps = progress.steps;
      identity.reasons = progress.reasons;
      identity.faceMatchScore = facts.faceMatchScore;
      const moves: IdentityTrigger[] = [];
      if (progress.status !== 'PENDING' && identity.overallStatus === 'PENDING') moves.push('submission.received');
      const final = FINAL_TRIGGER[progress.status];
      if (final) moves.push(final);
      if (!moves.length) {
        // progress within a status (a step moved): subscribers see it, webhooks do not
        await em.flush();
        recordIdentityEvent(em, 'identity.progress', identity);
        return;
      }
      for (const trigger of moves) {
        const { status, event } = IDENTITY_LIFECYCLE.fire(identity.overallStatus, trigger);
        identity.overallStatus = status ?? identity.overallStatus;
        if (identity.overallStatus === 'VERIFIED') identity.verifiedAt = new Date();
        await em.flush();
        recordIdentityEvent(em, event, identity);
      }
      this.opts.logger.info(
        { identityVerificationId: identity.id, status: identity.overallStatus, reasons: progress.reasons },
        'identity progressed',
      );
    });
  }

  /** The user's newest document and liveness session since the verification started, and its screening. */
  private async facts(em: EntityManager, identity: IdentityVerification): Promise<IdentityFacts> {
    const mine = {
      organizationId: identity.organizationId,
      environment: identity.environment,
      userId: identity.userId,
      createdAt: { $gte: identity.createdAt },
    };
    const newest = { orderBy: { createdAt: 'desc' as const, id: 'desc' as const } };
    const [document, liveness, aml] = await Promise.all([
      em.findOne(DocumentVerification, mine, newest),
      identity.tier === 'BASIC' ? null : em.findOne(LivenessSession, mine, newest),
      identity.amlScreeningId ? em.findOne(AmlScreening, { id: identity.amlScreeningId }) : null,
    ]);
    identity.documentVerificationId = document?.id ?? null;
    identity.livenessSessionId = liveness?.id ?? null;
    const documentFace = document?.faceEmbedding ?? null;
    const selfie = liveness?.reference?.embedding ?? null;
    const compare = documentFace && selfie && document?.status === 'VERIFIED' && liveness?.status === 'PASSED';
    return {
      tier: identity.tier,
      document: document && { status: document.status, hasFace: documentFace != null },
      liveness: liveness && { status: liveness.status, hasReference: selfie != null },
      faceMatchScore: compare ? Math.round(faceMatchScore(documentFace, selfie) * 1000) / 1000 : null,
      aml: aml && { status: aml.status as NonNullable<IdentityFacts['aml']>['status'] },
      amlAvailable: true,
    };
  }

  /** ENHANCED: screens the name and date of birth the document gave, in this transaction. */
  private async screen(em: EntityManager, identity: IdentityVerification, facts: IdentityFacts): Promise<IdentityFacts> {
    const document = await em.findOneOrFail(DocumentVerification, { id: identity.documentVerificationId! });
    const read = document.extractedData;
    const tenant = { organizationId: identity.organizationId, environment: identity.environment };
    try {
      const { screening } = await new AmlService(em, tenant, this.opts.aml).screenIn(
        em,
        {
          userId: identity.userId,
          fullName: read?.fullName ?? '',
          dateOfBirth: read?.dateOfBirth ?? null,
          nationality: read?.nationality ?? null,
        },
        null,
      );
      identity.amlScreeningId = screening.id;
      return { ...facts, aml: { status: screening.status as NonNullable<IdentityFacts['aml']>['status'] } };
    } catch (err) {
      // no list loaded, or a name the screening refuses: a reviewer decides
      if (!(err instanceof AppError)) throw err;
      this.opts.logger.warn({ identityVerificationId: identity.id, err: err.message }, 'identity AML screening could not run');
      return { ...facts, amlAvailable: false };
    }
  }
}
