import { ACTIVE_STATUSES, IDENTITY_LIFECYCLE, IDENTITY_STATUSES } from './identity.lifecycle.js';

describe('identity lifecycle table', () => {
  it('creates PENDING verifications with identity.created', () => {
    expect(IDENTITY_LIFECYCLE.fire(null, 'created')).toEqual({ status: 'PENDING', event: 'identity.created' });
    expect(ACTIVE_STATUSES).toContain('PENDING');
  });

  it('lets a reviewer decide a PENDING or MANUAL_REVIEW verification', () => {
    for (const from of ['PENDING', 'MANUAL_REVIEW'] as const) {
      expect(IDENTITY_LIFECYCLE.fire(from, 'review.verified')).toEqual({ status: 'VERIFIED', event: 'identity.verified' });
      expect(IDENTITY_LIFECYCLE.fire(from, 'review.rejected')).toEqual({ status: 'REJECTED', event: 'identity.rejected' });
    }
  });

  it('moves through processing: PENDING → IN_PROGRESS → MANUAL_REVIEW | VERIFIED | REJECTED', () => {
    expect(IDENTITY_LIFECYCLE.next('PENDING', 'submission.received')).toBe('IN_PROGRESS');
    expect(IDENTITY_LIFECYCLE.fire('IN_PROGRESS', 'processing.flagged')).toEqual({
      status: 'MANUAL_REVIEW',
      event: 'identity.manual_review',
    });
    expect(IDENTITY_LIFECYCLE.next('IN_PROGRESS', 'processing.verified')).toBe('VERIFIED');
    expect(IDENTITY_LIFECYCLE.next('IN_PROGRESS', 'processing.rejected')).toBe('REJECTED');
  });

  it('restarts from any status, keeping it (the verification is invalidated and replaced)', () => {
    for (const from of IDENTITY_STATUSES) {
      expect(IDENTITY_LIFECYCLE.fire(from, 'restarted')).toEqual({ status: from, event: 'identity.restarted' });
    }
  });

  it('refuses every other move with a 409 naming the allowed statuses', () => {
    expect(() => IDENTITY_LIFECYCLE.fire('VERIFIED', 'review.rejected')).toThrow(
      expect.objectContaining({
        code: 'CONFLICT',
        message: 'Cannot apply review.rejected to a verification in status VERIFIED (allowed from: MANUAL_REVIEW, PENDING)',
      }),
    );
    expect(() => IDENTITY_LIFECYCLE.fire('IN_PROGRESS', 'review.verified')).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
    expect(() => IDENTITY_LIFECYCLE.fire('PENDING', 'processing.verified')).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
    expect(() => IDENTITY_LIFECYCLE.fire('PENDING', 'created')).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
    expect(IDENTITY_LIFECYCLE.allows('REJECTED', 'submission.received')).toBe(false);
  });
});
