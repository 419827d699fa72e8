import { identityProgress, type IdentityFacts } from './identity-progress.js';

const facts = (over: Partial<IdentityFacts>): IdentityFacts => ({
  tier: 'BASIC',
  document: null,
  liveness: null,
  faceMatchScore: null,
  aml: null,
  amlAvailable: true,
  ...over,
});
const verifiedDocument = { status: 'VERIFIED' as const, hasFace: true };
const passedLiveness = { status: 'PASSED' as const, hasReference: true };

describe('identity progress (the automatic moves)', () => {
  it('waits in PENDING until something is submitted, then IN_PROGRESS while it is checked', () => {
    expect(identityProgress(facts({})).status).toBe('PENDING');
    const checking = identityProgress(facts({ document: { status: 'PROCESSING', hasFace: false } }));
    expect(checking).toMatchObject({
      status: 'IN_PROGRESS',
      steps: { document: 'PROCESSING', liveness: 'NOT_REQUIRED', aml: 'NOT_REQUIRED' },
    });
  });

  it('BASIC follows the document: verified, rejected, or to a reviewer', () => {
    expect(identityProgress(facts({ document: verifiedDocument })).status).toBe('VERIFIED');
    expect(identityProgress(facts({ document: { status: 'REJECTED', hasFace: true } }))).toMatchObject({
      status: 'REJECTED',
      reasons: ['DOCUMENT_REJECTED'],
    });
    expect(identityProgress(facts({ document: { status: 'MANUAL_REVIEW', hasFace: true } })).status).toBe('MANUAL_REVIEW');
  });

  it('STANDARD needs liveness and a face match between the document and the selfie', () => {
    const standard = { tier: 'STANDARD' as const, document: verifiedDocument };
    expect(identityProgress(facts(standard))).toMatchObject({
      status: 'IN_PROGRESS',
      steps: { liveness: 'AWAITING', faceMatch: 'AWAITING' },
    });
    expect(identityProgress(facts({ ...standard, liveness: passedLiveness, faceMatchScore: 0.93 }))).toMatchObject({
      status: 'VERIFIED',
      steps: { document: 'PASSED', liveness: 'PASSED', faceMatch: 'PASSED', aml: 'NOT_REQUIRED' },
    });
    expect(identityProgress(facts({ ...standard, liveness: passedLiveness, faceMatchScore: 0.2 }))).toMatchObject({
      status: 'REJECTED',
      reasons: ['FACE_MISMATCH'],
    });
    expect(identityProgress(facts({ ...standard, liveness: passedLiveness, faceMatchScore: 0.6 }))).toMatchObject({
      status: 'MANUAL_REVIEW',
      reasons: ['FACE_MATCH_UNCERTAIN'],
    });
    expect(identityProgress(facts({ ...standard, liveness: { status: 'EXPIRED', hasReference: false } }))).toMatchObject({
      status: 'REJECTED',
      reasons: ['LIVENESS_EXPIRED'],
    });
    // a document without a portrait cannot be compared: a reviewer looks
    expect(
      identityProgress(facts({ tier: 'STANDARD', document: { status: 'MANUAL_REVIEW', hasFace: false }, liveness: passedLiveness })),
    ).toMatchObject({ status: 'MANUAL_REVIEW', steps: { faceMatch: 'MANUAL_REVIEW' } });
  });

  it('ENHANCED screens once everything else passed, and follows the screening', () => {
    const ready = { tier: 'ENHANCED' as const, document: verifiedDocument, liveness: passedLiveness, faceMatchScore: 0.9 };
    expect(identityProgress(facts({ ...ready, liveness: null }))).toMatchObject({ screenAml: false, steps: { aml: 'AWAITING' } });
    expect(identityProgress(facts(ready))).toMatchObject({ screenAml: true, status: 'IN_PROGRESS', steps: { aml: 'PROCESSING' } });
    expect(identityProgress(facts({ ...ready, aml: { status: 'CLEAR' } })).status).toBe('VERIFIED');
    expect(identityProgress(facts({ ...ready, aml: { status: 'POTENTIAL_MATCH' } }))).toMatchObject({
      status: 'MANUAL_REVIEW',
      reasons: ['AML_POTENTIAL_MATCH'],
    });
    expect(identityProgress(facts({ ...ready, amlAvailable: false }))).toMatchObject({
      status: 'MANUAL_REVIEW',
      reasons: ['AML_LISTS_NOT_LOADED'],
      screenAml: false,
    });
  });
});
