import { useCallback, useEffect, useState } from 'react';
import type { Api, UserError } from './api';
import {
  AuditTrail,
  DecisionForm,
  Fields,
  FileImage,
  HitExplanation,
  score,
  Section,
  Signals,
  Status,
  Timeline,
  when,
  yesNo,
  type DecisionOption,
  type TimelineEntry,
} from './components';
import { CASE_FEEDS, CASE_QUERIES, DECISIONS, type QueueKind } from './operations';

const VERIFY: DecisionOption[] = [
  { value: 'VERIFIED', label: 'Verify', tone: 'good' },
  { value: 'REJECTED', label: 'Reject', tone: 'bad' },
];
const MATCH: DecisionOption[] = [
  { value: 'FALSE_POSITIVE', label: 'Dismiss (false positive)', tone: 'good' },
  { value: 'TRUE_POSITIVE', label: 'Confirm match', tone: 'bad' },
];
const ALERT: DecisionOption[] = [
  { value: 'DISMISSED', label: 'Dismiss', tone: 'good' },
  { value: 'REVIEWED', label: 'Confirm (reviewed)', tone: 'bad' },
];

/** The input of each kind's decision mutation. */
const decisionInput: Record<QueueKind, (id: string, value: string, notes: string, reviewer: string, extra?: string) => object> = {
  identity: (id, decision, reviewNotes, reviewedBy) => ({ id, decision, reviewNotes, reviewedBy }),
  document: (id, decision, reviewNotes, reviewedBy) => ({ id, decision, reviewNotes, reviewedBy }),
  address: (id, decision, reviewNotes, reviewedBy) => ({ id, decision, reviewNotes, reviewedBy }),
  business: (id, decision, reviewNotes, reviewedBy) => ({ id, decision, reviewNotes, reviewedBy }),
  aml: (screeningId, resolution, reason, resolvedBy, matchId) => ({ screeningId, matchId, resolution, reason, resolvedBy }),
  alert: (id, status, note, reviewedBy) => ({ id, status, note, reviewedBy }),
};

/**
 * One record of a queue, whole: what the checks found, the files, the person's signals, its
 * timeline, and the decision. Its own events are followed while it is open: a decision made
 * elsewhere shows at once (and the form closes).
 */
export function CaseView({
  api,
  kind,
  id,
  reviewer,
  inQueue,
  onDecided,
}: {
  api: Api;
  kind: QueueKind;
  id: string;
  reviewer: string;
  inQueue: boolean;
  onDecided: (id: string) => void;
}) {
  const [record, setRecord] = useState<any>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [events, setEvents] = useState<TimelineEntry[]>([]);
  const [decidedHere, setDecidedHere] = useState<string | null>(null);
  const [loads, setLoads] = useState(0);

  const load = useCallback(async () => {
    try {
      const data = await api.request(CASE_QUERIES[kind], { id });
      setRecord(data.record);
      setLoads((n) => n + 1);
      setError(data.record ? null : 'No such record (or another organization’s).');
    } catch (e) {
      setError((e as Error).message);
    }
  }, [api, kind, id]);

  useEffect(() => {
    setRecord(undefined);
    setEvents([]);
    setDecidedHere(null);
    void load();
    return api.subscribe(
      CASE_FEEDS[kind],
      ({ event }) => {
        setEvents((list) => [...list, { at: event.occurredAt, what: `Event ${event.type.replace(/_/g, ' ').toLowerCase()}` }]);
        void load();
      },
      (e) => setError(e.message),
      { id },
    );
  }, [api, kind, id, load]);

  const decide = async (value: string, notes: string, extra?: string): Promise<UserError[]> => {
    const { result } = await api.request(DECISIONS[kind], { input: decisionInput[kind](id, value, notes, reviewer, extra) });
    if (result.userErrors.length) return result.userErrors;
    // an AML screening stays in its queue until every hit is resolved
    const done = kind !== 'aml' || result.record?.status !== 'POTENTIAL_MATCH';
    if (done) setDecidedHere(value);
    await load();
    if (done) onDecided(id);
    return [];
  };

  if (error && !record)
    return (
      <div className="case" role="alert">
        {error}
      </div>
    );
  if (!record)
    return (
      <div className="case" aria-busy="true">
        Loading…
      </div>
    );
  const status = record.overallStatus ?? record.status;
  return (
    <article className="case" aria-label="Case">
      <header className="case-header">
        <h2>{heading(kind, record)}</h2>
        <Status value={status} />
      </header>
      {!inQueue && !decidedHere && (
        <p className="banner" role="status">
          Not in the review queue{record.reviewedBy ? `: decided by ${record.reviewedBy}` : ` (${status.replace(/_/g, ' ')})`}.
        </p>
      )}
      {decidedHere && (
        <p className="banner good" role="status">
          Decided: {decidedHere.replace(/_/g, ' ')}. Press <kbd>j</kbd> for the next item.
        </p>
      )}
      <CaseBody api={api} kind={kind} record={record} onResolveMatch={(matchId, value, notes) => decide(value, notes, matchId)} />
      <Section title="Device and IP signals">
        <Signals api={api} userId={record.userId} />
      </Section>
      <Section title="Timeline">
        <Timeline entries={[...timelineOf(kind, record), ...events]} />
      </Section>
      {kind !== 'aml' && (
        <Section title="Decision">
          {inQueue && !decidedHere ? (
            <DecisionForm options={kind === 'alert' ? ALERT : VERIFY} onDecide={(value, notes) => decide(value, notes)} />
          ) : (
            <Fields
              rows={[
                ['Decided by', record.reviewedBy],
                ['On', when(record.reviewedAt)],
                ['Notes', record.reviewNotes ?? record.reviewNote],
              ]}
            />
          )}
        </Section>
      )}
      <Section title={record.userId ? 'Audit trail of this person' : 'Audit trail'}>
        <AuditTrail api={api} filter={record.userId ? { userId: record.userId } : { resourceId: id }} version={loads} />
      </Section>
    </article>
  );
}

function heading(kind: QueueKind, r: any): string {
  switch (kind) {
    case 'identity':
      return `Identity verification of ${r.userId} (${r.tier})`;
    case 'document':
      return `${r.documentType} (${r.documentCountry}) of ${r.userId}`;
    case 'address':
      return `Proof of address of ${r.userId}`;
    case 'business':
      return `${r.businessName} (${r.country})`;
    case 'aml':
      return `AML screening of ${r.fullName}`;
    case 'alert':
      return `Watchlist alert: ${r.match.matchedName}`;
  }
}

function timelineOf(kind: QueueKind, r: any): TimelineEntry[] {
  const reviewed = { at: r.reviewedAt, what: `Decided by ${r.reviewedBy}: ${r.reviewNotes ?? r.reviewNote ?? ''}` };
  switch (kind) {
    case 'identity':
      return [
        { at: r.createdAt, what: `Started (${r.tier})` },
        { at: r.document?.checkedAt, what: `Document checked: ${r.document?.status}` },
        { at: r.livenessSession?.completedAt, what: `Liveness ${r.livenessSession?.status}` },
        { at: r.amlScreening?.checkedAt, what: `AML screening: ${r.amlScreening?.status}` },
        reviewed,
        { at: r.verifiedAt, what: 'Verified' },
        { at: r.invalidatedAt, what: 'Restarted (invalidated)' },
      ];
    case 'document':
      return [
        { at: r.createdAt, what: 'Submitted' },
        { at: r.checkedAt, what: `Checked: ${r.reasons.join(', ') || 'no finding'}` },
        reviewed,
      ];
    case 'address':
      return [
        { at: r.createdAt, what: 'Submitted' },
        { at: r.checkedAt, what: `Checked: ${r.reasons.join(', ') || 'no finding'}` },
        reviewed,
        { at: r.completedAt, what: 'Completed' },
      ];
    case 'business':
      return [
        { at: r.createdAt, what: 'Submitted' },
        {
          at: r.registryLookup.lastAttemptAt,
          what: `Registry looked up (${r.registryLookup.provider}, attempt ${r.registryLookup.attempts})`,
        },
        reviewed,
        { at: r.completedAt, what: 'Completed' },
      ];
    case 'aml':
      return [
        { at: r.checkedAt, what: `Screened: ${r.matchCount} hit${r.matchCount === 1 ? '' : 's'}` },
        ...r.matches.map((m: any) => ({
          at: m.resolvedAt,
          what: `Hit ${m.hit.matchedName} resolved ${m.resolution} by ${m.resolvedBy}: ${m.resolutionReason}`,
        })),
      ];
    case 'alert':
      return [
        { at: r.detectedAt, what: `Raised: ${r.match.matchedName} on ${r.match.listName}` },
        { at: r.clearedAt, what: 'Entry left the lists' },
        reviewed,
      ];
  }
}

function DocumentDetails({ api, d }: { api: Api; d: any }) {
  return (
    <>
      <div className="images">
        <FileImage api={api} path={d.frontImageUrl} label="Front" />
        {d.backImageUrl && <FileImage api={api} path={d.backImageUrl} label="Back" />}
      </div>
      {d.imagesDeletedAt && <p className="muted">Images deleted {when(d.imagesDeletedAt)}.</p>}
      <Fields
        rows={[
          ['Full name', d.extractedData?.fullName],
          ['Date of birth', d.extractedData?.dateOfBirth],
          ['Document number', d.extractedData?.documentNumber],
          ['Expiry date', d.extractedData?.expiryDate],
          ['Nationality', d.extractedData?.nationality],
          ['Confidence', score(d.confidence)],
          ['Reasons', d.reasons.join(', ')],
          [
            'Checks',
            d.checks &&
              `MRZ ${d.checks.mrzFound ? (d.checks.mrzValid ? 'valid' : `invalid (${d.checks.mrzFailedChecks.join(', ')})`) : 'not found'} · face ${yesNo(d.checks.faceFound)} · expired ${yesNo(d.checks.expired)} · sharpness ${d.checks.sharpness} · OCR ${d.checks.ocrConfidence}%`,
          ],
        ]}
      />
    </>
  );
}

function ScreeningDetails({
  s,
  onResolve,
}: {
  s: any;
  onResolve?: (matchId: string, value: string, notes: string) => Promise<UserError[]>;
}) {
  return (
    <>
      <Fields
        rows={[
          ['Name screened', s.fullName],
          ['Date of birth', s.dateOfBirth],
          ['Nationality', s.nationality],
          ['Status', <Status key="s" value={s.status} />],
          ['Risk level', s.riskLevel],
          ['Lists checked', s.listsChecked.join(', ')],
          ['Threshold', score(s.matchThreshold)],
        ]}
      />
      {s.matches.map((m: any, i: number) => (
        <div key={m.id} className="match" role="group" aria-label={`Hit ${i + 1}`}>
          <h4>
            Hit {i + 1}: {m.hit.matchedName} <Status value={m.resolution} />
          </h4>
          <HitExplanation hit={m.hit} explanation={m.explanation} />
          {m.resolution === 'OPEN' && onResolve ? (
            <DecisionForm options={MATCH} notesLabel="Reason (required)" onDecide={(value, notes) => onResolve(m.id, value, notes)} />
          ) : m.resolution !== 'OPEN' ? (
            <p className="muted">
              Resolved by {m.resolvedBy} {when(m.resolvedAt)}: {m.resolutionReason}
            </p>
          ) : null}
        </div>
      ))}
    </>
  );
}

function CaseBody({
  api,
  kind,
  record: r,
  onResolveMatch,
}: {
  api: Api;
  kind: QueueKind;
  record: any;
  onResolveMatch: (matchId: string, value: string, notes: string) => Promise<UserError[]>;
}) {
  switch (kind) {
    case 'identity':
      return (
        <>
          <Section title="Verification">
            <Fields
              rows={[
                ['User', r.userId],
                ['Reasons', r.reasons.join(', ')],
                [
                  'Steps',
                  r.steps &&
                    `document ${r.steps.document} · liveness ${r.steps.liveness} · face match ${r.steps.faceMatch} · AML ${r.steps.aml}`,
                ],
                ['Face match', score(r.faceMatchScore)],
              ]}
            />
          </Section>
          <Section title="Document">
            {r.document ? <DocumentDetails api={api} d={r.document} /> : <p className="muted">No document yet.</p>}
          </Section>
          <Section title="Selfie and liveness">
            {r.livenessSession ? (
              <div className="images">
                <FileImage api={api} path={r.livenessSession.referenceSelfieUrl} label="Reference selfie" />
                <Fields
                  rows={[
                    ['Session', <Status key="s" value={r.livenessSession.status} />],
                    ['Alive', yesNo(r.livenessSession.result?.isAlive)],
                    ['Liveness confidence', score(r.livenessSession.result?.confidence)],
                    ['Anti-spoof', score(r.livenessSession.result?.antiSpoofScore)],
                    ['Face match (challenges)', score(r.livenessSession.result?.faceMatchScore)],
                    ['Challenges', r.livenessSession.challenges.map((c: any) => `${c.type} ${c.outcome}`).join(', ')],
                    ['Failure', r.livenessSession.result?.failureReason],
                  ]}
                />
              </div>
            ) : (
              <p className="muted">No liveness session.</p>
            )}
          </Section>
          <Section title="AML screening">
            {r.amlScreening ? <ScreeningDetails s={r.amlScreening} /> : <p className="muted">Not screened.</p>}
          </Section>
        </>
      );
    case 'document':
      return (
        <Section title="Document">
          <DocumentDetails api={api} d={r} />
        </Section>
      );
    case 'address':
      return (
        <Section title="Proof of address">
          <div className="images">
            <FileImage api={api} path={r.documentImageUrl} label={r.documentType} />
          </div>
          <Fields
            rows={[
              ['Expected address', r.expectedAddress],
              ['Address on the document', r.extractedData?.address],
              ['Name on the document', r.extractedData?.fullName],
              ['Issuer', r.extractedData?.issuer],
              ['Issued', `${r.extractedData?.issueDate ?? '—'} (${r.documentAge ?? '—'} old)`],
              ['Address match', `${yesNo(r.addressMatch)} · score ${score(r.addressMatchScore)}`],
              ['Why', r.addressMatchExplanation],
              ['Reasons', r.reasons.join(', ')],
              ['Text confidence', score(r.textConfidence)],
            ]}
          />
        </Section>
      );
    case 'business':
      return (
        <>
          <Section title="Business">
            <Fields
              rows={[
                ['Registration number', r.registrationNumber],
                ['Type', r.businessType],
                ['Tax id', r.taxId],
                ['Reasons', r.reasons.join(', ')],
                [
                  'Steps',
                  `registration ${r.steps.registration} · directors ${r.steps.directors} · UBOs ${r.steps.ubo} · AML ${r.steps.amlScreening}`,
                ],
                [
                  'Registry',
                  r.registryData &&
                    `${r.registryData.legalName} · ${r.registryData.status ?? ''} · ${r.registryData.registeredAddress ?? ''}`,
                ],
                [
                  'Registry lookup',
                  `${r.registryLookup.provider}, ${r.registryLookup.attempts} attempts${r.registryLookup.lastError ? `: ${r.registryLookup.lastError}` : ''}`,
                ],
              ]}
            />
          </Section>
          <Section title="Directors and beneficial owners">
            {[
              ...r.directors.map((p: any) => ({ ...p, as: p.role })),
              ...r.ubos.map((p: any) => ({ ...p, as: `UBO ${p.ownershipPercentage}%` })),
            ].map((p: any) => (
              <div key={p.id} className="match">
                <h4>
                  {p.fullName} ({p.as}) <Status value={p.screeningStatus} />
                </h4>
                {p.amlScreening?.matches.map((m: any) => (
                  <HitExplanation key={m.id} hit={m.hit} explanation={m.explanation} />
                ))}
              </div>
            ))}
          </Section>
        </>
      );
    case 'aml':
      return (
        <Section title="Screening hits">
          <ScreeningDetails s={r} onResolve={onResolveMatch} />
        </Section>
      );
    case 'alert':
      return (
        <>
          <Section title="Hit">
            <HitExplanation hit={r.match} />
          </Section>
          <Section title="Monitored person">
            <Fields
              rows={[
                ['Name', r.subscription.fullName],
                ['Date of birth', r.subscription.dateOfBirth],
                ['Nationality', r.subscription.nationality],
                ['Lists', r.subscription.lists.join(', ')],
                ['Last scan', when(r.subscription.lastScanAt)],
              ]}
            />
          </Section>
        </>
      );
  }
}
