import { LIVENESS_LIFECYCLE, LIVENESS_STATUSES } from './liveness.lifecycle.js';

describe('liveness lifecycle table', () => {
  it('opens sessions IN_PROGRESS with liveness.created', () => {
    expect(LIVENESS_LIFECYCLE.fire(null, 'created')).toEqual({ status: 'IN_PROGRESS', event: 'liveness.created' });
  });

  it('records submissions without leaving IN_PROGRESS', () => {
    expect(LIVENESS_LIFECYCLE.fire('IN_PROGRESS', 'challenge.recorded')).toEqual({ status: 'IN_PROGRESS', event: 'liveness.progress' });
    expect(LIVENESS_LIFECYCLE.fire('IN_PROGRESS', 'reference.recorded')).toEqual({
      status: 'IN_PROGRESS',
      event: 'liveness.reference_recorded',
    });
  });

  it('ends a session PASSED, FAILED or EXPIRED; an expiry is reported as liveness.failed', () => {
    expect(LIVENESS_LIFECYCLE.fire('IN_PROGRESS', 'passed')).toEqual({ status: 'PASSED', event: 'liveness.passed' });
    expect(LIVENESS_LIFECYCLE.fire('IN_PROGRESS', 'failed')).toEqual({ status: 'FAILED', event: 'liveness.failed' });
    expect(LIVENESS_LIFECYCLE.fire('IN_PROGRESS', 'expired')).toEqual({ status: 'EXPIRED', event: 'liveness.failed' });
    expect(LIVENESS_LIFECYCLE.sources('expired')).toEqual(['IN_PROGRESS']);
  });

  it('refuses any move out of a finished session with a 409', () => {
    for (const from of LIVENESS_STATUSES.filter((s) => s !== 'IN_PROGRESS')) {
      for (const trigger of ['challenge.recorded', 'reference.recorded', 'passed', 'failed', 'expired'] as const) {
        expect(() => LIVENESS_LIFECYCLE.fire(from, trigger)).toThrow(
          expect.objectContaining({
            code: 'CONFLICT',
            message: `Cannot apply ${trigger} to a liveness session in status ${from} (allowed from: IN_PROGRESS)`,
          }),
        );
      }
    }
    expect(() => LIVENESS_LIFECYCLE.fire('IN_PROGRESS', 'created')).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
  });
});
