import { openCorporatesCompany, startOpenCorporatesFake } from '../../../../test/support/opencorporates-fake.js';
import { OpenCorporatesRegistry } from './registry-opencorporates.js';
import { SandboxRegistry } from './registry-sandbox.js';

const TOKEN = 'unit-token-0123456789';
/** Answers are awaited this long (a busy machine's first request can take longer than a deadline made to fail fast); a hanging fake meets HANG_MS. */
const ANSWER_MS = 30_000;
const HANG_MS = 300;
const query = (registrationNumber: string, country = 'KE') => ({ registrationNumber, country, businessName: 'Kilimo Fresh', attempt: 1 });

describe('OpenCorporates registry adapter, against a local fake of the company endpoint', () => {
  let fake: Awaited<ReturnType<typeof startOpenCorporatesFake>>;
  let registry: OpenCorporatesRegistry;
  beforeAll(async () => {
    fake = await startOpenCorporatesFake(TOKEN);
    registry = new OpenCorporatesRegistry({ apiUrl: fake.url, apiToken: TOKEN, timeoutMs: ANSWER_MS });
  });
  afterAll(() => fake.close());

  it('found: the company record mapped, current officers only', async () => {
    fake.answers('C.1', { company: openCorporatesCompany({ company_number: 'C.1' }) });
    expect(await registry.lookup(query('C.1'))).toEqual({
      outcome: 'FOUND',
      company: {
        legalName: 'KILIMO FRESH PRODUCE LIMITED',
        registrationNumber: 'C.1',
        dateIncorporated: '2015-03-12',
        status: 'Registered',
        registeredAddress: 'Kilimo House, Moi Avenue, Nairobi, 00100',
        capital: null,
        companyType: 'Private Company Limited by Shares',
        officers: [{ name: 'WANJIKU KAMAU', position: 'director' }],
      },
    });
    expect(fake.requests.at(-1)).toEqual({ method: 'GET', jurisdiction: 'ke', companyNumber: 'C.1', apiToken: TOKEN });
  });

  it('an inactive company without a status reads Inactive; odd fields are left out', async () => {
    fake.answers('C.2', {
      company: openCorporatesCompany({ current_status: null, inactive: true, incorporation_date: 'sometime', officers: 'none' }),
    });
    const answer = await registry.lookup(query('C.2'));
    expect(answer).toMatchObject({ outcome: 'FOUND', company: { status: 'Inactive', dateIncorporated: null, officers: [] } });
  });

  it('404: not found', async () => {
    expect(await registry.lookup(query('UNKNOWN-1'))).toEqual({ outcome: 'NOT_FOUND' });
  });

  it.each([
    ['HTTP 500', { status: 500 }, 'opencorporates: HTTP 500'],
    ['HTTP 429', { status: 429 }, 'opencorporates: HTTP 429'],
    ['not JSON', { malformed: 'Bad gateway' }, 'opencorporates: the answer is not JSON'],
    ['no company', { malformed: '{"results":{"company":{"name":""}}}' }, 'opencorporates: the answer holds no company record'],
  ])('%s: unavailable, with the reason', async (_what, answer, reason) => {
    const number = `E-${reason.length}-${Math.random()}`;
    fake.answers(number, answer);
    expect(await registry.lookup(query(number))).toEqual({ outcome: 'UNAVAILABLE', reason });
  });

  it('a timeout: unavailable, with the reason', async () => {
    fake.answers('HANG-1', { hang: true });
    const impatient = new OpenCorporatesRegistry({ apiUrl: fake.url, apiToken: TOKEN, timeoutMs: HANG_MS });
    expect(await impatient.lookup(query('HANG-1'))).toEqual({
      outcome: 'UNAVAILABLE',
      reason: `opencorporates: no answer within ${HANG_MS} ms`,
    });
  });

  it('a wrong token is unavailable (401), and the token never appears in a reason', async () => {
    const wrong = new OpenCorporatesRegistry({ apiUrl: fake.url, apiToken: 'wrong-token-000', timeoutMs: ANSWER_MS });
    const answer = await wrong.lookup(query('C.1'));
    expect(answer).toEqual({ outcome: 'UNAVAILABLE', reason: 'opencorporates: HTTP 401' });
  });

  it('a refused connection is unavailable', async () => {
    const closed = new OpenCorporatesRegistry({ apiUrl: 'http://127.0.0.1:1', timeoutMs: ANSWER_MS });
    expect(await closed.lookup(query('C.1'))).toMatchObject({
      outcome: 'UNAVAILABLE',
      reason: expect.stringMatching(/^opencorporates: request failed/),
    });
  });
});

describe('sandbox registry', () => {
  const sandbox = new SandboxRegistry();
  it('answers by the documented beginnings of the registration number', async () => {
    expect(await sandbox.lookup(query('notfound-1'))).toEqual({ outcome: 'NOT_FOUND' });
    expect((await sandbox.lookup({ ...query('DOWN-1'), attempt: 4 })).outcome).toBe('UNAVAILABLE');
    expect((await sandbox.lookup(query('FLAKY-1'))).outcome).toBe('UNAVAILABLE');
    expect((await sandbox.lookup({ ...query('FLAKY-1'), attempt: 2 })).outcome).toBe('FOUND');
    expect(await sandbox.lookup(query('DISSOLVED-1'))).toMatchObject({ company: { status: 'Dissolved' } });
    expect(await sandbox.lookup(query('MISMATCH-1'))).toMatchObject({ company: { legalName: 'Sandbox Mismatch Holdings Limited' } });
    expect(await sandbox.lookup(query('PVT-1'))).toMatchObject({
      outcome: 'FOUND',
      company: { legalName: 'Kilimo Fresh', status: 'Active' },
    });
  });
});
