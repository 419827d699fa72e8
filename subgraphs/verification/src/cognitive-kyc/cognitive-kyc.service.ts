import { LockMode } from '@mikro-orm/core';
import { auditReview, stampReview } from '../review/review.js';
import type { AuditActor } from '../../../../platform/audit/audit.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Tenant } from '../../../../platform/auth/tenant.js';
import { badInput, invalid, notFound } from '../../../../platform/errors.js';
import { paginate, type Connection, type ConnectionArgs } from '../../../../platform/graphql/connection.js';
import { isUuid } from '../../../../platform/ids.js';
import { decideReadings, DocumentReader } from '../document/document-reader.js';
import type { Keyring } from '../../../../platform/crypto/keyring.js';
import type { DocumentService } from '../document/document.service.js';
import { countryCode } from '../document/printed-fields.js';
import { faceMatchScore, faceSimilarity } from '../vision/face-match.js';
import { readBase64Image } from '../vision/images.js';
import type { VisionPool } from '../vision/vision.pool.js';
import { decideCognitiveKyc, documentTypeOfMrzCode, type CognitiveKycDecision } from './cognitive-kyc-check.js';
import { CognitiveKycCheck } from './cognitive-kyc.entity.js';
import { cognitiveKycSnapshot, recordCognitiveKycEvent } from './cognitive-kyc.events.js';
import type { ErasedUser, PersonalDataHolder } from '../../../../platform/privacy/personal-data.js';
import { COGNITIVE_KYC_LIFECYCLE, type CognitiveKycStatus, type CognitiveKycTrigger } from './cognitive-kyc.lifecycle.js';
import { FraudHistoryService, type FraudHistory, type FraudSearch } from './fraud-history.js';

/** Declared types the check accepts (the bytes decide what an image is; a different declared image type is not an error). */
export const IMAGE_MIME_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'image/heif'] as const;

export interface CognitiveKycSubmission {
  userId: string;
  selfieBase64: string;
  documentBase64: string;
  selfieMimeType?: string | null;
  documentMimeType?: string | null;
}

export interface CognitiveKycReview {
  decision: 'APPROVED' | 'REJECTED';
  reviewedBy: string;
  reviewNotes: string;
}

const TRIGGER_OF: Record<CognitiveKycDecision, CognitiveKycTrigger> = {
  APPROVED: 'check.approved',
  REJECTED: 'check.rejected',
  MANUAL_REVIEW: 'check.flagged',
};

export class CognitiveKycService implements PersonalDataHolder {
  constructor(
    private readonly em: EntityManager,
    private readonly tenant: Tenant,
    private readonly deps: { vision: VisionPool; documents: DocumentService; keyring: Keyring },
  ) {}

  private historyIn(em: EntityManager): FraudHistoryService {
    return new FraudHistoryService(em, this.tenant, this.deps.documents, this.deps.keyring);
  }

  /**
   * Compares a selfie with an identity document and checks both while the caller waits (faces in
   * the vision worker processes, text and zone too), then records the decision with its event. Only
   * the selfie's face description is kept, never the images.
   */
  async verify(input: CognitiveKycSubmission, today = new Date()): Promise<CognitiveKycCheck> {
    const userId = input.userId.trim();
    const mimeTypes = { selfieMimeType: input.selfieMimeType, documentMimeType: input.documentMimeType };
    const errors = [
      ...(userId ? [] : ['userId must not be empty']),
      ...(userId.length > 255 ? ['userId must be at most 255 characters'] : []),
      ...Object.entries(mimeTypes)
        .filter(([, type]) => type != null && !(IMAGE_MIME_TYPES as readonly string[]).includes(type.toLowerCase()))
        .map(([field]) => `${field} must be one of: ${IMAGE_MIME_TYPES.join(', ')}`),
    ];
    if (errors.length) throw invalid(errors);
    const selfieImage = await readBase64Image(input.selfieBase64, 'selfieBase64');
    const documentImage = await readBase64Image(input.documentBase64, 'documentBase64');

    const [selfie, document] = await Promise.all([
      this.deps.vision.analyze(selfieImage.jpeg),
      new DocumentReader(this.deps.vision).read(documentImage.jpeg, today),
    ]);
    if (selfie.faces.length !== 1) throw invalid(`selfieBase64 must show exactly one face (found ${selfie.faces.length})`);
    const selfieFace = selfie.faces[0];

    const mrz = document.mrz;
    const outcome = decideReadings({
      // the request names no document type: the zone says what it is (a card's front has none)
      documentType: documentTypeOfMrzCode(mrz?.documentCode) ?? 'ID_CARD',
      documentCountry: (mrz?.issuingState && countryCode(mrz.issuingState)) || '',
      front: document,
      back: null,
      today,
    });
    const cosine = document.embedding ? faceSimilarity(selfieFace.embedding, document.embedding) : null;
    const score = document.embedding ? faceMatchScore(selfieFace.embedding, document.embedding) : null;
    const documentNumber = outcome.extractedData.documentNumber;

    return this.em.transactional(async (em) => {
      const history = await this.historyIn(em).search({ userId, documentNumber });
      const decided = decideCognitiveKyc({
        selfie: { sharpness: selfie.image.sharpness, real: selfieFace.real, embedding: selfieFace.embedding },
        document: {
          outcome,
          documentType: mrz?.valid ? documentTypeOfMrzCode(mrz.documentCode) : null,
          faceCount: document.evidence.faceScores.length,
          embedding: document.embedding,
        },
        cosine,
        faceMatchScore: score,
        history,
      });
      const { status, event } = COGNITIVE_KYC_LIFECYCLE.fire(null, TRIGGER_OF[decided.decision]);
      const check = em.create(CognitiveKycCheck, {
        ...this.tenant,
        userId,
        decision: status,
        confidence: decided.confidence,
        faceMatchScore: score,
        faceMatchReasoning: decided.faceMatchReasoning,
        documentFields: decided.documentFields,
        fraudIndicators: decided.fraudIndicators,
        priorVerifications: history.priorVerifications,
        flaggedAttempts: history.flaggedAttempts,
        riskLevel: decided.riskLevel,
        reasons: decided.reasons,
        selfieEmbedding: selfieFace.embedding,
      });
      await em.flush();
      recordCognitiveKycEvent(em, event, check);
      return check;
    });
  }

  /** The organization's earlier records of a user, a document number or a name; at least one must be given (400). */
  fraudHistory(search: FraudSearch): Promise<FraudHistory> {
    const given = Object.values(search).some((v) => typeof v === 'string' && v.trim());
    if (!given) throw badInput('userId, documentNumber or fullName: at least one must be given');
    const trimmed = (v?: string | null) => v?.trim() || null;
    return this.historyIn(this.em).search({
      userId: trimmed(search.userId),
      documentNumber: trimmed(search.documentNumber)?.toUpperCase(),
      fullName: trimmed(search.fullName),
    });
  }

  async exportUser(userId: string): Promise<unknown[]> {
    const all = await this.em.find(CognitiveKycCheck, { userId, ...this.tenant }, { orderBy: { createdAt: 'asc', id: 'asc' } });
    return all.map(cognitiveKycSnapshot);
  }

  /** The fields read and the selfie's face description go; the decision, indicators and scores stay. */
  async eraseUser({ userId, pseudonym }: ErasedUser): Promise<number> {
    // through the entities: the emptied fields are sealed again, their blind indexes cleared
    const checks = await this.em.find(CognitiveKycCheck, { userId, ...this.tenant });
    for (const check of checks) Object.assign(check, { userId: pseudonym, documentFields: {}, selfieEmbedding: [], reviewNotes: null });
    await this.em.flush();
    return checks.length;
  }

  find(id: string): Promise<CognitiveKycCheck | null> {
    return isUuid(id) ? this.em.findOne(CognitiveKycCheck, { id, ...this.tenant }) : Promise.resolve(null);
  }

  async get(id: string): Promise<CognitiveKycCheck> {
    const check = await this.find(id);
    if (!check) throw notFound('AI identity check', id);
    return check;
  }

  /** The organization's checks (of one user, with one decision), newest first. */
  list(
    filter: { userId?: string | null; decision?: CognitiveKycStatus | null },
    page: ConnectionArgs,
  ): Promise<Connection<CognitiveKycCheck>> {
    return paginate(
      this.em,
      CognitiveKycCheck,
      {
        ...(filter.userId != null && { userId: filter.userId }),
        ...(filter.decision != null && { decision: filter.decision }),
        // last: a session's user wins over the filter's
        ...this.tenant,
      },
      page,
    );
  }

  /** A reviewer settles a check in MANUAL_REVIEW (409 from any other decision): lock, lifecycle, change, event — one transaction. */
  async review(id: string, review: CognitiveKycReview, actor: AuditActor): Promise<CognitiveKycCheck> {
    await this.get(id);
    return this.em.transactional(async (em) => {
      const check = await em.findOneOrFail(
        CognitiveKycCheck,
        { id, ...this.tenant },
        { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
      );
      const { status, event } = COGNITIVE_KYC_LIFECYCLE.fire(
        check.decision,
        review.decision === 'APPROVED' ? 'review.approved' : 'review.rejected',
      );
      check.decision = status;
      stampReview(check, review, new Date());
      await em.flush();
      recordCognitiveKycEvent(em, event, check);
      await auditReview(em, { tenant: this.tenant, actor, review, record: check, resourceType: 'cognitive_kyc_check', status });
      return check;
    });
  }
}
