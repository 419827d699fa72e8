import { startMtnMomoFake, userInfo, type MtnMomoFake } from '../../../../test/support/mtn-momo-fake.js';
import { MobileMoneyProviderError, type LookupRequest } from './adapters/adapter.js';
import { MtnMomoAdapter, parseTargetEnvironment } from './adapters/mtn-momo.adapter.js';
import { MobileMoneyAdapters, fallbackName } from './adapters/registry.js';
import { SANDBOX, SANDBOX_DEFAULT_HOLDER, SANDBOX_OTHER_HOLDER, SandboxMobileMoneyAdapter } from './adapters/sandbox.adapter.js';
import { decideMobileMoney, matchHolderName, NAME_MATCH_THRESHOLD } from './mobile-money.decision.js';
import { MOBILE_MONEY_LIFECYCLE } from './mobile-money.lifecycle.js';
import { validateAccount } from './mobile-money.providers.js';

const never = new AbortController().signal;

describe('mobile money: the account to check', () => {
  it('accepts a mobile number of the country, of a provider that runs mobile money there', () => {
    expect(validateAccount({ phoneNumber: '+233241234567', provider: 'MTN_MOMO', country: 'GH' })).toEqual([]);
    expect(validateAccount({ phoneNumber: '+254712345678', provider: 'MPESA', country: 'KE' })).toEqual([]);
    expect(validateAccount({ phoneNumber: '+221771234567', provider: 'FREE_MONEY', country: 'SN' })).toEqual([]);
    expect(validateAccount({ phoneNumber: '+2250701234567', provider: 'WAVE', country: 'CI' })).toEqual([]);
  });

  it('refuses what is not E.164, not a valid number, not a mobile, of another country, or of a provider absent from it', () => {
    expect(validateAccount({ phoneNumber: '0241234567', provider: 'MTN_MOMO', country: 'GH' })).toEqual([
      'phoneNumber must be in E.164 format: a plus sign and 8 to 15 digits, e.g. +233241234567',
    ]);
    expect(validateAccount({ phoneNumber: '+233 24 123 4567', provider: 'MTN_MOMO', country: 'GH' })[0]).toMatch(
      /^phoneNumber must be in E.164/,
    );
    expect(validateAccount({ phoneNumber: '+23324123', provider: 'MTN_MOMO', country: 'GH' })).toEqual([
      'phoneNumber +23324123 is not a valid number of any numbering plan',
    ]);
    expect(validateAccount({ phoneNumber: '+233302123456', provider: 'MTN_MOMO', country: 'GH' })).toEqual([
      'phoneNumber must be a mobile number (+233302123456 is a fixed-line number)',
    ]);
    expect(validateAccount({ phoneNumber: '+254712345678', provider: 'MTN_MOMO', country: 'GH' })).toEqual([
      'phoneNumber +254712345678 is a number of KE, not of GH',
    ]);
    expect(validateAccount({ phoneNumber: '+254712345678', provider: 'WAVE', country: 'KE' })).toEqual([
      'provider WAVE offers no mobile money service in KE (it does in: BF, CI, GM, ML, SN, UG)',
    ]);
    expect(validateAccount({ phoneNumber: '+233241234567', provider: 'MTN_MOMO', country: 'gh' })).toEqual([
      'country must be an uppercase ISO 3166-1 alpha-2 country code',
    ]);
  });
});

describe('mobile money: the decision', () => {
  it('compares the names with the screening engine: order, case, accents and transliterations do not matter', () => {
    // names in the other order with no family name marked: still a match, a little below 1 (issue 15)
    expect(matchHolderName('Kwame Mensah', 'MENSAH KWAME')).toMatchObject({ nameMatch: true, nameMatchScore: 0.95 });
    expect(matchHolderName('Kwame Mensah', 'KWAME MENSAH')).toMatchObject({ nameMatch: true, nameMatchScore: 1 });
    const equivalent = matchHolderName('Mohammed Traoré', 'MUHAMMAD TRAORE');
    expect(equivalent.nameMatch).toBe(true);
    expect(equivalent.explanation.parts).toEqual([
      { expected: 'mohammed', holder: 'muhammad', how: 'equivalent', score: expect.any(Number) },
      { expected: 'traore', holder: 'traore', how: 'exact', score: 1 },
    ]);
    const other = matchHolderName('Ama Boateng', 'KWAME MENSAH');
    expect(other.nameMatch).toBe(false);
    expect(other.nameMatchScore).toBeLessThan(NAME_MATCH_THRESHOLD);
    expect(other.explanation.summary).toBe(
      'The account holder KWAME MENSAH does not match the expected name Ama Boateng: score 0.00 against a threshold of 0.85; no part of the names matched.',
    );
    // one shared family name is not the same person
    expect(matchHolderName('Ibrahim Traore', 'MOUSSA TRAORE').nameMatch).toBe(false);
  });

  it('VERIFIED, NAME_MISMATCH, NOT_FOUND, PROVIDER_ERROR from what the operator said', () => {
    const found = { outcome: 'found', accountStatus: 'ACTIVE', holderName: 'Kwame Mensah' } as const;
    expect(decideMobileMoney(found, 'kwame mensah')).toMatchObject({
      trigger: 'checked.verified',
      accountHolder: 'KWAME MENSAH',
      accountStatus: 'ACTIVE',
      nameMatch: true,
      nameMatchScore: 1,
      failureReason: null,
    });
    expect(decideMobileMoney(found, 'Ama Serwaa Boateng')).toMatchObject({
      trigger: 'checked.name_mismatch',
      nameMatch: false,
      failureReason: expect.stringMatching(/^The account holder's name does not match expectedName/),
    });
    // nothing to compare with: the account is verified, the name not judged
    expect(decideMobileMoney(found, null)).toMatchObject({ trigger: 'checked.verified', nameMatch: null, nameMatchScore: null });
    expect(decideMobileMoney({ outcome: 'found', accountStatus: 'ACTIVE', holderName: null }, 'Kwame Mensah')).toMatchObject({
      trigger: 'checked.provider_error',
      accountStatus: 'ACTIVE',
    });
    expect(decideMobileMoney({ outcome: 'not_found', accountStatus: 'INACTIVE', reason: 'inactive' }, 'x')).toMatchObject({
      trigger: 'checked.not_found',
      accountStatus: 'INACTIVE',
      nameMatch: null,
    });
    expect(decideMobileMoney({ outcome: 'error', reason: 'HTTP 503' }, 'x')).toMatchObject({
      trigger: 'checked.provider_error',
      failureReason: 'HTTP 503',
    });
  });

  it('the lifecycle: outcomes only from PENDING, a retry only from PROVIDER_ERROR', () => {
    expect(MOBILE_MONEY_LIFECYCLE.fire('PENDING', 'checked.not_found')).toEqual({ status: 'NOT_FOUND', event: 'mobile_money.failed' });
    expect(MOBILE_MONEY_LIFECYCLE.fire('PENDING', 'checked.name_mismatch')).toEqual({
      status: 'NAME_MISMATCH',
      event: 'mobile_money.failed',
    });
    expect(MOBILE_MONEY_LIFECYCLE.fire('PROVIDER_ERROR', 'retried')).toEqual({ status: 'PENDING', event: 'mobile_money.pending' });
    expect(() => MOBILE_MONEY_LIFECYCLE.fire('VERIFIED', 'retried')).toThrow(/Cannot apply retried .* in status VERIFIED/);
    expect(MOBILE_MONEY_LIFECYCLE.allows('PROVIDER_ERROR', 'checked.verified')).toBe(false);
  });
});

describe('mobile money: the sandbox', () => {
  const sandbox = new SandboxMobileMoneyAdapter();
  const ask = (phoneNumber: string, expectedName?: string) =>
    sandbox.lookup({ phoneNumber, provider: 'MTN_MOMO', country: 'GH', expectedName });

  it('answers each magic ending as documented, any other number as the expected holder', async () => {
    await expect(ask('+233240000001')).resolves.toMatchObject({ outcome: 'not_found', accountStatus: null });
    await expect(ask('+233240000002', 'Kwame Mensah')).resolves.toEqual({
      outcome: 'found',
      accountStatus: 'ACTIVE',
      holderName: SANDBOX_OTHER_HOLDER,
    });
    await expect(ask('+233240000003')).rejects.toThrow(MobileMoneyProviderError);
    await expect(ask('+233240000004')).rejects.toThrow(/did not answer in time/);
    await expect(ask('+233240000005')).resolves.toMatchObject({ outcome: 'not_found', accountStatus: 'INACTIVE' });
    await expect(ask('+233240000006', 'Kwame')).resolves.toEqual({ outcome: 'found', accountStatus: 'ACTIVE', holderName: null });
    await expect(ask('+233241234567', 'Adjoa Ñkansah')).resolves.toMatchObject({ holderName: 'ADJOA NKANSAH' });
    await expect(ask('+233241234567')).resolves.toMatchObject({ holderName: SANDBOX_DEFAULT_HOLDER });
  });

  it('is what test keys always get, and live keys of a provider without a real adapter', () => {
    const mtn = new MtnMomoAdapter({
      baseUrl: 'http://127.0.0.1:9',
      subscriptionKey: 's',
      apiUser: 'u',
      apiKey: 'k',
      targetEnvironment: 'sandbox',
    });
    const adapters = new MobileMoneyAdapters({ MTN_MOMO: mtn });
    expect(adapters.adapterFor('test', 'MTN_MOMO').name).toBe(SANDBOX);
    expect(adapters.adapterFor('live', 'MTN_MOMO')).toBe(mtn);
    expect(adapters.adapterFor('live', 'ORANGE_MONEY').name).toBe(fallbackName('ORANGE_MONEY'));
  });
});

describe('mobile money: MTN MoMo against a local fake of its Collection API', () => {
  const credentials = { subscriptionKey: 'sub-key-1', apiUser: '4f1c1a6e-0f3b-4b8e-9d8a-2f0c3c1e5a77', apiKey: 'api-key-1' };
  const clock = { ms: 1_000_000 };
  const now = () => clock.ms;
  let fake: MtnMomoFake;
  let adapter: MtnMomoAdapter;
  const account = (phoneNumber: string): LookupRequest => ({ phoneNumber, provider: 'MTN_MOMO', country: 'GH' });

  beforeAll(async () => {
    fake = await startMtnMomoFake({ ...credentials, targetEnvironment: 'mtnghana', tokenLifeSeconds: 3600, now });
    adapter = new MtnMomoAdapter({ ...credentials, baseUrl: `${fake.url}/`, targetEnvironment: 'mtnghana', timeoutMs: 30_000, now });
    fake.accounts.set('233241234567', { active: true, info: userInfo('Kwame', 'Mensah') });
    fake.accounts.set('233241234568', { active: false });
    fake.accounts.set('233241234569', { active: true });
    fake.accounts.set('233241234570', { active: true, info: { given_name: 'Ama', family_name: 'Boateng' } });
  });
  afterAll(() => fake.close());

  it('gets a token once, then asks whether the account is active and who holds it, with the protocol’s headers', async () => {
    const before = fake.requests.length;
    await expect(adapter.lookup(account('+233241234567'), never)).resolves.toEqual({
      outcome: 'found',
      accountStatus: 'ACTIVE',
      holderName: 'Kwame Mensah',
    });
    const [token, active, info] = fake.requests.slice(before);
    expect(token).toMatchObject({ method: 'POST', path: '/collection/token/' });
    expect(token.headers.authorization).toBe(`Basic ${Buffer.from(`${credentials.apiUser}:${credentials.apiKey}`).toString('base64')}`);
    expect(active).toMatchObject({ method: 'GET', path: '/collection/v1_0/accountholder/msisdn/233241234567/active' });
    expect(active.headers).toMatchObject({
      authorization: 'Bearer fake-token-1',
      'x-target-environment': 'mtnghana',
      'ocp-apim-subscription-key': 'sub-key-1',
    });
    expect(info.path).toBe('/collection/v1_0/accountholder/msisdn/233241234567/basicuserinfo');
    // the cached token serves the next lookup; given and family names make the holder when `name` is absent
    await expect(adapter.lookup(account('+233241234570'), never)).resolves.toMatchObject({ holderName: 'Ama Boateng' });
    expect(fake.tokensIssued()).toBe(1);
  });

  it('fetches a new token when the cached one expires, and when the API refuses it before', async () => {
    const issued = fake.tokensIssued();
    clock.ms += 3_600_000;
    await adapter.lookup(account('+233241234567'), never);
    expect(fake.tokensIssued()).toBe(issued + 1);
    // refused early (a rotation): one new token, one more try
    fake.revokeTokens();
    await expect(adapter.lookup(account('+233241234567'), never)).resolves.toMatchObject({ outcome: 'found' });
    expect(fake.tokensIssued()).toBe(issued + 2);
  });

  it('shares one token request between simultaneous lookups', async () => {
    fake.revokeTokens();
    clock.ms += 3_600_000;
    const issued = fake.tokensIssued();
    await Promise.all([adapter.lookup(account('+233241234567'), never), adapter.lookup(account('+233241234570'), never)]);
    expect(fake.tokensIssued()).toBe(issued + 1);
  });

  it('NOT_FOUND on a 404 or result:false; no name on a basicuserinfo 404', async () => {
    await expect(adapter.lookup(account('+233209999999'), never)).resolves.toMatchObject({ outcome: 'not_found', accountStatus: null });
    await expect(adapter.lookup(account('+233241234568'), never)).resolves.toMatchObject({
      outcome: 'not_found',
      accountStatus: 'INACTIVE',
    });
    await expect(adapter.lookup(account('+233241234569'), never)).resolves.toEqual({
      outcome: 'found',
      accountStatus: 'ACTIVE',
      holderName: null,
    });
  });

  it('a provider error on a 5xx, a timeout, malformed JSON, refused credentials, an unreachable host or the lookup deadline', async () => {
    // a hanging provider meets a short deadline; the others answer at once, however busy the machine
    const impatient = new MtnMomoAdapter({ ...credentials, baseUrl: `${fake.url}/`, targetEnvironment: 'mtnghana', timeoutMs: 300, now });
    const failing = async (msisdn: string, fault: 'server_error' | 'hang' | 'malformed' | 'info_server_error') => {
      fake.accounts.set(msisdn, { active: true, info: userInfo('Kofi', 'Annan') });
      fake.faults.set(msisdn, fault);
      return (fault === 'hang' ? impatient : adapter).lookup(account(`+${msisdn}`), never).catch((err: Error) => err);
    };
    expect(await failing('233241230001', 'server_error')).toEqual(
      new MobileMoneyProviderError('MTN MoMo failed to answer the account holder status (HTTP 500, INTERNAL_PROCESSING_ERROR)'),
    );
    expect(await failing('233241230002', 'hang')).toEqual(new MobileMoneyProviderError('MTN MoMo did not answer within 300 ms'));
    expect(await failing('233241230003', 'malformed')).toEqual(
      new MobileMoneyProviderError('MTN MoMo answered the account holder status with a body that is not a JSON object'),
    );
    expect(await failing('233241230004', 'info_server_error')).toEqual(
      new MobileMoneyProviderError('MTN MoMo failed to answer the basic user info (HTTP 503, SERVICE_UNAVAILABLE)'),
    );

    const wrongKey = new MtnMomoAdapter({ ...credentials, apiKey: 'wrong', baseUrl: fake.url, targetEnvironment: 'mtnghana', now });
    await expect(wrongKey.lookup(account('+233241234567'), never)).rejects.toThrow(
      "MTN MoMo refused the API user's credentials (HTTP 401)",
    );
    const nowhere = new MtnMomoAdapter({ ...credentials, baseUrl: 'http://127.0.0.1:9', targetEnvironment: 'mtnghana' });
    await expect(nowhere.lookup(account('+233241234567'), never)).rejects.toThrow(/^MTN MoMo is unreachable/);
    const deadline = AbortSignal.timeout(100);
    fake.faults.set('233241230005', 'hang');
    await expect(
      new MtnMomoAdapter({ ...credentials, baseUrl: fake.url, targetEnvironment: 'mtnghana', timeoutMs: 5_000, now }).lookup(
        account('+233241230005'),
        deadline,
      ),
    ).rejects.toThrow('MTN MoMo did not answer before the lookup deadline');
  });

  it('takes one target environment per country', async () => {
    const targetOf = parseTargetEnvironment('GH=mtnghana, UG=mtnuganda');
    expect([targetOf('GH'), targetOf('UG'), targetOf('CI')]).toEqual(['mtnghana', 'mtnuganda', null]);
    expect(parseTargetEnvironment('sandbox')('CI')).toBe('sandbox');
    const perCountry = new MtnMomoAdapter({ ...credentials, baseUrl: fake.url, targetEnvironment: 'UG=mtnuganda', now });
    await expect(perCountry.lookup(account('+233241234567'), never)).rejects.toThrow(
      'MTN MoMo is not configured for GH (no target environment)',
    );
  });
});
