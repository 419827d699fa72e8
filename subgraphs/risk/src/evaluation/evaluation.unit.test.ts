import { AppError } from '../../../../platform/errors.js';
import { validateTransaction } from './evaluation.validation.js';
import { actionForScore, combineLayers, mostSevere, noisyOr } from './evaluation.scoring.js';
import { mockScore } from './evaluation.engine.js';

function messages(input: Record<string, unknown>): string[] {
  try {
    validateTransaction(input);
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('BAD_USER_INPUT');
    return (err as AppError).messages;
  }
  throw new Error('expected a validation failure');
}

const valid = { transactionId: 'tx-1', amount: 1500.5, currency: 'KES', sender: '254700000001', receiver: '254700000002' };

describe('evaluation input', () => {
  it('normalises a valid transaction with the known metadata keys', () => {
    const t = validateTransaction({
      ...valid,
      channel: 'mobile_money',
      metadata: { device_id: 'dev-1', ip: '2001:DB8::1', location: { lat: -1.29, lng: 36.82 }, sender_name: 'Jane Doe', note: 'rent' },
    });
    expect(t).toMatchObject({
      transactionId: 'tx-1',
      amount: 1500.5,
      currency: 'KES',
      channel: 'mobile_money',
      deviceId: 'dev-1',
      ip: '2001:db8::1',
      location: { lat: -1.29, lng: 36.82 },
      senderName: 'Jane Doe',
      receiverName: null,
      mockScore: null,
    });
    expect(t.metadata.note).toBe('rent');
  });

  it('lists every missing required field', () => {
    expect(messages({})).toEqual([
      'transactionId is required',
      'sender is required',
      'receiver is required',
      'amount is required',
      'currency is required',
    ]);
  });

  it.each([
    [{ amount: 0 }, 'amount must be greater than 0'],
    [{ amount: -5 }, 'amount must be greater than 0'],
    [{ amount: 1e14 }, 'amount must be at most 10000000000000'],
    [{ amount: '100' }, 'amount must be a number'],
    [{ currency: 'kes' }, 'currency must be an ISO 4217 code in upper case (e.g. KES, NGN, GHS)'],
    [{ currency: 'XYZ' }, 'currency must be an ISO 4217 code in upper case (e.g. KES, NGN, GHS)'],
    [{ receiver: valid.sender }, 'receiver must differ from sender'],
    [{ sender: ' padded' }, 'sender must be 1–128 printable characters without leading or trailing spaces'],
    [{ transactionId: 'x'.repeat(129) }, 'transactionId must be 1–128 printable characters without leading or trailing spaces'],
    [{ channel: 'mobile money!' }, 'channel must be 1–32 letters, digits, "_", "-" or "."'],
    [{ metadata: [] }, 'metadata must be an object'],
    [{ metadata: { ip: '999.1.1.1' } }, 'metadata.ip must be an IPv4 or IPv6 address'],
    [{ metadata: { device_id: '' } }, 'metadata.device_id must be a non-empty string of at most 128 characters'],
    [{ metadata: { location: { lat: 91, lng: 0 } } }, 'metadata.location.lat must be a number between -90 and 90'],
    [{ metadata: { location: { lat: 0, lng: -181 } } }, 'metadata.location.lng must be a number between -180 and 180'],
    [{ metadata: { location: 'Nairobi' } }, 'metadata.location must be an object with lat and lng'],
    [{ metadata: { mock_score: 101 } }, 'metadata.mock_score must be an integer between 0 and 100'],
    [{ metadata: { blob: 'x'.repeat(9000) } }, 'metadata must be at most 8192 bytes of JSON'],
  ])('rejects %j', (patch, message) => {
    expect(messages({ ...valid, ...patch })).toEqual([message]);
  });
});

describe('score combination', () => {
  it('noisy-OR: one strong signal scores high, weak ones add up, never above 100', () => {
    expect(noisyOr([])).toBe(0);
    expect(noisyOr([55])).toBe(55);
    expect(noisyOr([30, 30])).toBe(51);
    expect(noisyOr([100, 30])).toBe(100);
    expect(noisyOr([150, -20])).toBe(100);
  });

  it('combines the three layers into an integer 0–100', () => {
    expect(combineLayers({ rules: 0, graph: 0, sanctions: 0 })).toBe(0);
    expect(combineLayers({ rules: 30, graph: 45, sanctions: 0 })).toBe(62);
    expect(combineLayers({ rules: 0, graph: 0, sanctions: 92 })).toBe(92);
  });

  it('maps the score onto the configured thresholds; the most severe action wins', () => {
    const t = { review: 50, block: 80 };
    expect([49, 50, 79, 80].map((s) => actionForScore(s, t))).toEqual(['allow', 'review', 'review', 'block']);
    expect(actionForScore(60, { review: 70, block: 90 })).toBe('allow');
    expect(mostSevere('allow', 'review', 'allow')).toBe('review');
    expect(mostSevere('review', 'block')).toBe('block');
    expect(mostSevere()).toBe('allow');
  });

  it('sandbox mock scores are deterministic and in the allow band', () => {
    expect(mockScore('tx-1')).toBe(mockScore('tx-1'));
    const scores = Array.from({ length: 200 }, (_, i) => mockScore(`tx-${i}`));
    expect(Math.min(...scores)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...scores)).toBeLessThan(30);
    expect(new Set(scores).size).toBeGreaterThan(10);
  });
});
