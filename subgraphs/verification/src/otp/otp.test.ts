import {
  codeMatches,
  coolDownLeft,
  hashCode,
  judge,
  newCode,
  newLinkToken,
  nonceMatches,
  readLinkToken,
  retryAfterSeconds,
  SANDBOX_CODE,
} from './otp.js';
import { checkPhoneNumber, receivesText } from '../phone/phone-number.js';
import { checkEmail } from '../email/email-address.js';

const SECRET = 'unit-test-secret-0123456789';
const ID = '0b5d1c1e-8a0e-4a47-9a6b-0d4f4c6f2d11';

describe('codes', () => {
  it('test keys always get the sandbox code; live keys get 6 random digits', () => {
    expect(newCode('test')).toBe(SANDBOX_CODE);
    const codes = new Set(Array.from({ length: 200 }, () => newCode('live')));
    for (const c of codes) expect(c).toMatch(/^\d{6}$/);
    expect(codes.size).toBeGreaterThan(190);
  });

  it('stores only a hash bound to the verification, and compares in constant time', () => {
    const hash = hashCode(SECRET, ID, '042917');
    expect(hash).not.toContain('042917');
    expect(codeMatches(SECRET, ID, '042917', hash)).toBe(true);
    expect(codeMatches(SECRET, ID, '042918', hash)).toBe(false);
    expect(codeMatches(SECRET, 'another-id', '042917', hash)).toBe(false);
    expect(codeMatches('another-secret-0123456789', ID, '042917', hash)).toBe(false);
    expect(codeMatches(SECRET, ID, '', hash)).toBe(false);
  });
});

describe('judge', () => {
  const state = (attemptsRemaining: number, expiresInMs = 60_000) => ({
    id: ID,
    codeHash: hashCode(SECRET, ID, '123456'),
    attemptsRemaining,
    expiresAt: new Date(Date.now() + expiresInMs),
  });

  it('a match verifies', () => expect(judge(SECRET, state(3), '123456').outcome).toBe('verified'));
  it('a miss spends an attempt', () => expect(judge(SECRET, state(3), '000000')).toEqual({ outcome: 'wrong', attemptsRemaining: 2 }));
  it('the last miss fails', () => expect(judge(SECRET, state(1), '000000')).toEqual({ outcome: 'failed', attemptsRemaining: 0 }));
  it('a late code finds it expired, even the right one', () => expect(judge(SECRET, state(3, -1), '123456').outcome).toBe('expired'));
});

describe('magic link tokens', () => {
  it('carry the verification, and only their signature admits them', () => {
    const { token, nonceHash } = newLinkToken(SECRET, ID);
    const read = readLinkToken(SECRET, token);
    expect(read).toEqual({ verificationId: ID, nonceHash });
    expect(nonceMatches(nonceHash, read!.nonceHash)).toBe(true);
    expect(readLinkToken('another-secret-0123456789', token)).toBeNull();
    expect(readLinkToken(SECRET, token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA'))).toBeNull();
    expect(readLinkToken(SECRET, 'nonsense')).toBeNull();
    expect(nonceMatches(null, nonceHash)).toBe(false);
  });
});

describe('send limits', () => {
  const now = new Date('2026-11-28T10:00:00Z');
  it('allows below the limit, and says when the window frees a send', () => {
    expect(retryAfterSeconds({ count: 2, oldest: now }, 3, 3600, now)).toBe(0);
    expect(retryAfterSeconds({ count: 3, oldest: new Date(now.getTime() - 3_000_000) }, 3, 3600, now)).toBe(600);
  });
  it('counts down a resend cool-down', () => {
    expect(coolDownLeft(new Date(now.getTime() - 20_000), 30, now)).toBe(10);
    expect(coolDownLeft(new Date(now.getTime() - 40_000), 30, now)).toBe(0);
  });
});

describe('phone numbers (full metadata)', () => {
  it('accepts a valid mobile and reports its type and country', () => {
    expect(checkPhoneNumber('+254712345678')).toEqual({ e164: '+254712345678', country: 'KE', lineType: 'MOBILE' });
    expect(checkPhoneNumber('+254202345678').lineType).toBe('FIXED_LINE');
    expect(receivesText('FIXED_LINE')).toBe(false);
    expect(receivesText('MOBILE')).toBe(true);
  });
  it('refuses a number of the right length outside the country’s ranges, and non-E.164 text, naming the field', () => {
    expect(() => checkPhoneNumber('+254012345678')).toThrow(/phoneNumber is not a valid phone number/);
    expect(() => checkPhoneNumber('0712345678')).toThrow(/phoneNumber must be in E.164/);
    expect(() => checkPhoneNumber('+254 712 345 678')).toThrow(/phoneNumber must be in E.164/);
  });
});

describe('email addresses', () => {
  it('accepts valid addresses and flags disposable domains', () => {
    expect(checkEmail('Amina.W@Example.COM')).toEqual({ email: 'Amina.W@example.com', domain: 'example.com', disposable: false });
    expect(checkEmail('someone@mailinator.com').disposable).toBe(true);
  });
  it.each(['plain', '@example.com', 'a@b', 'a..b@example.com', 'a@-x.com', 'a b@example.com', 'a@example.c0m'])('refuses %s', (email) =>
    expect(() => checkEmail(email)).toThrow(/email must be a valid email address/),
  );
});
