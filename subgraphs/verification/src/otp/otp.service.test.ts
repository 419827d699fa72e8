import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { Keyring } from '../../../../platform/crypto/keyring.js';
import { LocalKeyProvider } from '../../../../platform/crypto/key-provider.js';
import { openOrm, type Orm } from '../../../../platform/db/orm.js';
import { AppError } from '../../../../platform/errors.js';
import { createTestDatabase } from '../../../../test/support/database.js';
import { OtpVerification } from './otp.entity.js';
import { expireOverdueOtps, OtpService, type OtpDeps, type OtpPolicy } from './otp.service.js';
import type { OtpMessage, OtpSender } from './notify-client.js';
import { readLinkToken } from './otp.js';
import { PLATFORM_ENTITIES } from '../../../../platform/entities.js';

/** Takes every message as a provider would, and keeps it: tests read codes only from here. */
class ReceivingSender implements OtpSender {
  readonly received: OtpMessage[] = [];
  failNext: AppError | null = null;
  async send(m: OtpMessage): Promise<string> {
    if (this.failNext) {
      const err = this.failNext;
      this.failNext = null;
      throw err;
    }
    this.received.push(m);
    return randomUUID();
  }
  codeFor(to: string): string {
    return String([...this.received].reverse().find((m) => m.to === to)!.data.code);
  }
}

const policy = (over: Partial<OtpPolicy> = {}): OtpPolicy => ({
  ttlSeconds: 600,
  maxAttempts: 3,
  resendCoolDownSeconds: 0,
  perAddressPerHour: 5,
  perOrganizationPerHour: 100,
  ...over,
});

let orm: Orm;
let pool: pg.Pool;
let keyring: Keyring;
beforeAll(async () => {
  const url = await createTestDatabase();
  pool = new pg.Pool({ connectionString: url, max: 2 });
  // addresses are sealed with the organization's data key
  keyring = new Keyring(pool, new LocalKeyProvider(randomBytes(32)));
  orm = await openOrm({ url, entities: [...PLATFORM_ENTITIES, OtpVerification], poolSize: 2, keyring });
});
afterAll(async () => {
  await orm.close();
  await pool.end();
});

function setup(environment: 'live' | 'test', kind: 'phone' | 'email' = 'phone', over: Partial<OtpPolicy> = {}) {
  const sender = new ReceivingSender();
  const deps: OtpDeps = {
    secret: 'unit-test-secret-0123456789',
    sender,
    policy: { phone: policy(over), email: policy({ ttlSeconds: 900, ...over }) },
    linkBaseUrl: 'https://verify.example',
    whatsapp: { template: 'verification_code', language: 'en' },
    keyring,
  };
  const tenant = { organizationId: randomUUID(), environment };
  const service = () => new OtpService(orm.em.fork(), tenant, kind, deps);
  return { sender, service, tenant };
}

const events = (id: string) =>
  orm.em
    .fork()
    .getConnection()
    .execute<Array<{ event: string; payload: unknown }>>(
      `select event, payload from platform.outbox_events where resource_id = ? order by created_at`,
      [id],
    );

describe('OTP verifications', () => {
  it('live keys: the code reaches only the recipient, is stored as a hash, and verifies once', async () => {
    const { sender, service } = setup('live');
    const v = await service().start({ userId: 'u1', address: '+254712345678', channel: 'SMS' });
    expect(v.status).toBe('PENDING');
    const code = sender.codeFor('+254712345678');
    expect(code).toMatch(/^\d{6}$/);
    const row = await orm.em.fork().findOneOrFail(OtpVerification, { id: v.id });
    expect(JSON.stringify(row)).not.toContain(code);
    const done = await service().verify(v.id, code);
    expect(done.status).toBe('VERIFIED');
    expect(done.verifiedAt).toBeInstanceOf(Date);
    await expect(service().verify(v.id, code)).rejects.toMatchObject({ code: 'CONFLICT' });
    const fired = await events(v.id);
    expect(fired.map((e) => e.event)).toEqual(['phone.created', 'phone.verified']);
    expect(JSON.stringify(fired)).not.toContain(code);
  });

  it('test keys: the code is always 123456', async () => {
    const { sender, service } = setup('test');
    const v = await service().start({ userId: 'u1', address: '+254712345679', channel: 'SMS' });
    expect(sender.codeFor('+254712345679')).toBe('123456');
    expect((await service().verify(v.id, '123456')).status).toBe('VERIFIED');
  });

  it('three wrong codes fail it, attemptsRemaining counts down, a fourth is refused', async () => {
    const { service } = setup('test');
    const v = await service().start({ userId: 'u2', address: '+254712345670', channel: 'SMS' });
    expect((await service().verify(v.id, '000001')).attemptsRemaining).toBe(2);
    expect((await service().verify(v.id, '000002')).attemptsRemaining).toBe(1);
    const failed = await service().verify(v.id, '000003');
    expect(failed).toMatchObject({ status: 'FAILED', attemptsRemaining: 0, failureReason: 'MAX_ATTEMPTS_EXCEEDED' });
    await expect(service().verify(v.id, '123456')).rejects.toMatchObject({ code: 'CONFLICT' });
    expect((await events(v.id)).map((e) => e.event)).toEqual([
      'phone.created',
      'phone.attempt_failed',
      'phone.attempt_failed',
      'phone.failed',
    ]);
  });

  it('expires by time, without a request (the sweep), as a phone.failed', async () => {
    const { service } = setup('test', 'phone', { ttlSeconds: 1 });
    const v = await service().start({ userId: 'u3', address: '+254712345671', channel: 'SMS' });
    await orm.em
      .fork()
      .getConnection()
      .execute(`update verification.otp_verifications set expires_at = now() - interval '1 second' where id = ?`, [v.id]);
    expect(await expireOverdueOtps(orm.em)).toBeGreaterThanOrEqual(1);
    const row = await orm.em.fork().findOneOrFail(OtpVerification, { id: v.id });
    expect(row).toMatchObject({ status: 'EXPIRED', failureReason: 'EXPIRED' });
    expect((await events(v.id)).map((e) => e.event)).toEqual(['phone.created', 'phone.failed']);
    await expect(service().verify(v.id, '123456')).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('limits codes per number (429 with a retry delay) and resends only after the cool-down', async () => {
    const { service } = setup('test', 'phone', { perAddressPerHour: 2, resendCoolDownSeconds: 30 });
    const first = await service().start({ userId: 'u4', address: '+254712345672', channel: 'SMS' });
    await service().start({ userId: 'u4', address: '+254712345672', channel: 'SMS' });
    await expect(service().start({ userId: 'u4', address: '+254712345672', channel: 'SMS' })).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      extensions: { retryAfter: expect.any(Number) },
    });
    await expect(service().resend(first.id)).rejects.toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('a notify failure refuses the start (503) and leaves no verification behind', async () => {
    const { sender, service, tenant } = setup('test');
    sender.failNext = new AppError('UNAVAILABLE', 'notify down');
    await expect(service().start({ userId: 'u5', address: '+254712345673', channel: 'SMS' })).rejects.toMatchObject({
      code: 'UNAVAILABLE',
    });
    expect(await orm.em.fork().count(OtpVerification, { organizationId: tenant.organizationId })).toBe(0);
  });

  it('email magic link: single use, verifies, keeps the redirect URL', async () => {
    const { sender, service } = setup('live', 'email');
    const v = await service().start({
      userId: 'u6',
      address: 'amina@example.com',
      channel: 'EMAIL',
      method: 'MAGIC_LINK',
      redirectUrl: 'https://app.example/welcome',
    });
    const link = String(sender.received[0].data.link);
    const token = new URL(link).searchParams.get('token')!;
    expect(readLinkToken('unit-test-secret-0123456789', token)?.verificationId).toBe(v.id);
    const done = await service().verifyLink(token);
    expect(done).toMatchObject({ status: 'VERIFIED', redirectUrl: 'https://app.example/welcome' });
    await expect(service().verifyLink(token)).rejects.toMatchObject({ code: 'CONFLICT' });
    expect((await events(v.id)).map((e) => e.event)).toEqual(['email.created', 'email.verified']);
  });

  it('another organization’s verification does not exist for the caller', async () => {
    const a = setup('test');
    const b = setup('test');
    const v = await a.service().start({ userId: 'u7', address: '+254712345674', channel: 'SMS' });
    expect(await b.service().find(v.id)).toBeNull();
    await expect(b.service().verify(v.id, '123456')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
