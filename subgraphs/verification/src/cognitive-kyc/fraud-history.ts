import type { EntityManager } from '@mikro-orm/postgresql';
import type { Tenant } from '../../../../platform/auth/tenant.js';
import { nameKey } from '../document/document-check.js';
import type { DocumentService } from '../document/document.service.js';
import { DOCUMENT_NUMBER_SCOPE, FULL_NAME_SCOPE, type DocumentVerification } from '../document/document.entity.js';
import type { Keyring } from '../../../../platform/crypto/keyring.js';
import { organizationIndex } from '../../../../platform/crypto/sealed-columns.js';
import { riskLevelOf, type FraudHistorySummary, type FraudRiskLevel } from './cognitive-kyc-check.js';
import { CognitiveKycCheck } from './cognitive-kyc.entity.js';

/** Who or what to look for; at least one. */
export interface FraudSearch {
  userId?: string | null;
  documentNumber?: string | null;
  fullName?: string | null;
}

export type FraudHistoryDecision = 'APPROVED' | 'REJECTED' | 'MANUAL_REVIEW' | 'PENDING';
export type FraudHistorySource = 'AI_IDENTITY_CHECK' | 'DOCUMENT_VERIFICATION';

export interface FraudHistoryEntry {
  verificationId: string;
  source: FraudHistorySource;
  userId: string;
  date: Date;
  decision: FraudHistoryDecision;
  reason: string;
  flagged: boolean;
}

export interface FraudHistory extends FraudHistorySummary {
  matches: number;
  riskLevel: FraudRiskLevel;
  history: FraudHistoryEntry[];
  recommendation: string;
}

/** Records read per source: the newest ones carry the signal; the answer says how many matched. */
export const FRAUD_HISTORY_LIMIT = 100;

const DOCUMENT_DECISIONS: Record<DocumentVerification['status'], FraudHistoryDecision> = {
  VERIFIED: 'APPROVED',
  REJECTED: 'REJECTED',
  MANUAL_REVIEW: 'MANUAL_REVIEW',
  PENDING: 'PENDING',
  PROCESSING: 'PENDING',
};

interface Found {
  verificationId: string;
  source: FraudHistorySource;
  userId: string;
  date: Date;
  decision: FraudHistoryDecision;
  documentNumber: string | null;
  reasons: string[];
}

const fromCheck = (c: CognitiveKycCheck): Found => ({
  verificationId: c.id,
  source: 'AI_IDENTITY_CHECK',
  userId: c.userId,
  date: c.createdAt,
  decision: c.decision,
  documentNumber: c.documentFields.documentNumber ?? null,
  reasons: c.reasons,
});

const fromDocument = (d: DocumentVerification): Found => ({
  verificationId: d.id,
  source: 'DOCUMENT_VERIFICATION',
  userId: d.userId,
  date: d.createdAt,
  decision: DOCUMENT_DECISIONS[d.status],
  documentNumber: d.extractedData?.documentNumber ?? null,
  reasons: d.reasons,
});

function recommendationOf(h: Omit<FraudHistory, 'recommendation'>): string {
  if (h.riskLevel === 'HIGH') {
    const why = h.documentReused
      ? 'the document number is used by more than one user'
      : `${h.flaggedAttempts} of ${h.matches} matching records were flagged`;
    return `Do not approve automatically: ${why}; a reviewer should look into the history before deciding.`;
  }
  if (h.riskLevel === 'MEDIUM') return `Proceed with care: 1 of ${h.matches} matching records was flagged; check why before approving.`;
  if (!h.matches) return 'No earlier records match: there is no history to hold against this person.';
  return `Proceed: none of the ${h.matches} matching records was flagged.`;
}

/**
 * The organization's own earlier records about a person or a document: AI identity checks and
 * document verifications of the same userId, the same document number (as read from the document)
 * or the same name (`nameKey`: accents, case and punctuation ignored, otherwise exact). A record is
 * flagged when it was rejected, or when it holds the document number under another userId.
 */
export class FraudHistoryService {
  constructor(
    private readonly em: EntityManager,
    private readonly tenant: Tenant,
    private readonly documents: DocumentService,
    private readonly keyring: Keyring,
  ) {}

  async search(search: FraudSearch, excludeId?: string): Promise<FraudHistory> {
    // numbers and names are sealed: records are found by their blind indexes
    const index = (scope: string, value: string | null | undefined) =>
      value ? organizationIndex(this.keyring, this.tenant.organizationId, scope, value) : Promise.resolve(null);
    const [documentNumberIndex, fullNameKey] = await Promise.all([
      index(DOCUMENT_NUMBER_SCOPE, search.documentNumber),
      index(FULL_NAME_SCOPE, nameKey(search.fullName)),
    ]);
    const any = [
      ...(search.userId ? [{ userId: search.userId }] : []),
      ...(documentNumberIndex ? [{ documentNumberIndex }] : []),
      ...(fullNameKey ? [{ fullNameKey }] : []),
    ];
    const [checks, documents] = await Promise.all([
      any.length
        ? this.em.find(
            CognitiveKycCheck,
            { $or: any, ...(excludeId && { id: { $ne: excludeId } }), ...this.tenant },
            { orderBy: { createdAt: 'desc', id: 'desc' }, limit: FRAUD_HISTORY_LIMIT },
          )
        : [],
      this.documents.matching({ userId: search.userId, documentNumberIndex, fullNameKey }, FRAUD_HISTORY_LIMIT),
    ]);
    const found = [...checks.map(fromCheck), ...documents.map(fromDocument)].sort((a, b) => b.date.getTime() - a.date.getTime());

    // the document number under more than one userId (the searched one included)
    const holders = new Set(found.filter((f) => search.documentNumber && f.documentNumber === search.documentNumber).map((f) => f.userId));
    if (search.userId && holders.size) holders.add(search.userId);
    const documentReused = holders.size > 1;
    const reusedBy = (f: Found) =>
      documentReused && f.documentNumber === search.documentNumber && (!search.userId || f.userId !== search.userId);

    const history = found.map((f): FraudHistoryEntry => {
      const reused = reusedBy(f);
      const reasons = [...(reused ? [`document number ${f.documentNumber} held by another user (${f.userId})`] : []), ...f.reasons];
      const reason = reasons.join('; ') || (f.decision === 'PENDING' ? 'check in progress' : 'all checks passed');
      return { ...f, reason, flagged: reused || f.decision === 'REJECTED' };
    });
    const flaggedAttempts = history.filter((h) => h.flagged).length;
    const summary = {
      matches: history.length,
      priorVerifications: history.length,
      flaggedAttempts,
      documentReused,
      riskLevel: riskLevelOf({ flaggedAttempts, documentReused }),
      history,
    };
    return { ...summary, recommendation: recommendationOf(summary) };
  }
}
