import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, watchedPage } from './support/chromium.js';
import { AMINA, passportPage } from './support/documents.js';
import { portrait } from './support/faces.js';
import { eventually, startTestStack, type TestStack } from './support/stack.js';
import { LISTED_PERSON, listPerson } from './support/tenants.js';

/**
 * The review console (/console) in headless Chromium — the one `npm ci` installs, driven by
 * playwright-core (test/support/chromium.ts) —
 * against the whole stack: two reviewers signed in side by side (a desktop and a tablet), a
 * document sent to review appears in both queues live, one decides it with notes, it leaves both;
 * a rule edited with a CEL error shown where it is, then saved, blocks the next transaction in the
 * risk feed. Screenshots go to test-artifacts/console/ (CONSOLE_ARTIFACTS overrides).
 */
const ARTIFACTS = process.env.CONSOLE_ARTIFACTS ?? path.join(__dirname, '..', 'test-artifacts', 'console');
const REVIEWER = 'Officer Njeri';

describe('review console in a browser', () => {
  let stack: TestStack;
  let browser: Browser;
  let apiKey: string;
  let desk: Page;
  let tablet: Page;
  const contexts: BrowserContext[] = [];
  /** URLs outside this machine the pages tried to reach (refused), and errors they raised. */
  const outside: string[] = [];
  const pageErrors: string[] = [];

  async function openConsole(viewport: { width: number; height: number }): Promise<Page> {
    const context = await browser.newContext({ viewport });
    contexts.push(context);
    const page = await watchedPage(context, outside, pageErrors);
    const gateway = new URL(stack.urls.gateway!);
    const response = await page.goto(`${gateway.origin}/console`);
    expect(response?.status()).toBe(200);
    expect(page.url()).toBe(`${gateway.origin}/console/`);
    return page;
  }

  async function signIn(page: Page) {
    const before = stack.activeSubscriptions();
    await page.getByLabel('API key or session token').fill(apiKey);
    await page.getByLabel('Your name (recorded with each decision)').fill(REVIEWER);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Views' }).waitFor();
    // the six queues' feeds are served: what happens from now on reaches the page
    await eventually(async () => stack.activeSubscriptions() >= before + 6);
  }

  const shot = (page: Page, name: string) => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
  const row = (page: Page, id: string) => page.locator(`.items li[data-id="${id}"]`);

  /** A passport without its machine-readable zone: the check sends it to a reviewer. */
  async function documentForReview(userId: string): Promise<string> {
    const body = new FormData();
    body.append('userId', userId);
    body.append('documentType', 'PASSPORT');
    body.append('documentCountry', 'KE');
    const page = await passportPage(AMINA, await portrait('woman'), []);
    body.append('frontImage', new Blob([new Uint8Array(page)], { type: 'image/jpeg' }), 'front.jpg');
    const res = await stack.rest('POST', '/v1/verifications/document', body, { 'x-api-key': apiKey });
    expect(res.status).toBe(201);
    return res.body.id;
  }

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    [stack, browser] = await Promise.all([startTestStack(), launchChromium()]);
    // one key for every service: the verification queues and the risk view
    apiKey = (await stack.createClient({ name: 'review console', service: 'all' })).apiKey;
    await listPerson(stack); // a sanctions list holding LISTED_PERSON: screening them makes a hit
    [desk, tablet] = await Promise.all([openConsole({ width: 1280, height: 900 }), openConsole({ width: 820, height: 1180 })]);
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await stack?.stop();
  });
  afterEach(() => {
    expect(outside).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('is served by the gateway: its page under a policy that keeps it on this origin, a missing file in the API’s error body', async () => {
    const origin = new URL(stack.urls.gateway!).origin;
    const page = await fetch(`${origin}/console/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'self'.*connect-src 'self' ws: wss:/);
    const missing = await fetch(`${origin}/console/assets/nothing.js`);
    const body = (await missing.json()) as { errors: Array<{ extensions: { code: string } }> };
    expect([missing.status, body.errors[0]!.extensions.code]).toEqual([404, 'NOT_FOUND']);
  });

  it('signs in with a key kept in sessionStorage only', async () => {
    // a wrong key is refused on the sign-in page, in the API's words
    await desk.getByLabel('API key or session token').fill('ak_live_not-a-key');
    await desk.getByLabel('Your name (recorded with each decision)').fill(REVIEWER);
    await desk.getByRole('button', { name: 'Sign in' }).click();
    await desk.getByRole('alert').filter({ hasText: /key/i }).waitFor();
    pageErrors.length = 0; // the browser logs the refused request (401) as an error
    await Promise.all([signIn(desk), signIn(tablet)]);
    // runs in the page (this file is compiled without the DOM's types)
    const storage = await desk.evaluate(() => {
      const page = globalThis as any;
      return { session: Object.values(page.sessionStorage), local: page.localStorage.length, cookie: page.document.cookie };
    });
    expect(storage).toEqual({ session: expect.arrayContaining([apiKey, REVIEWER]), local: 0, cookie: '' });
    // keyboard: 2 opens the documents queue
    for (const page of [desk, tablet]) {
      await page.keyboard.press('2');
      await page.getByRole('heading', { name: /^Documents/ }).waitFor();
    }
  });

  it('a document sent to review appears live in both consoles, is decided with notes, and leaves both queues', async () => {
    const first = await documentForReview('console-user-1');
    await Promise.all([row(desk, first).waitFor({ timeout: 60_000 }), row(tablet, first).waitFor({ timeout: 60_000 })]);

    // open it by keyboard: the case shows the image (served by /files to this organization), the fields read, the signals
    await desk.keyboard.press('j');
    const caseView = desk.getByRole('article', { name: 'Case' });
    await caseView.getByRole('heading', { name: /PASSPORT \(KE\) of console-user-1/ }).waitFor();
    await caseView.getByText('A12345678').waitFor();
    await caseView.getByText('MRZ_NOT_FOUND').first().waitFor();
    const image = caseView.getByRole('img', { name: 'Front' });
    await image.waitFor();
    expect(await image.evaluate((img: any) => img.complete && img.naturalWidth > 0 && img.src.startsWith('blob:'))).toBe(true);
    await shot(desk, 'case-desktop');

    // a second item arriving is appended below: nothing already on screen moves
    const firstRow = row(desk, first);
    const heading = caseView.getByRole('heading', { level: 2 });
    const [rowBefore, caseBefore] = [await firstRow.boundingBox(), await heading.boundingBox()];
    const second = await documentForReview('console-user-2');
    await row(desk, second).waitFor({ timeout: 60_000 });
    expect([await firstRow.boundingBox(), await heading.boundingBox()]).toEqual([rowBefore, caseBefore]);
    const secondBox = (await row(desk, second).boundingBox())!;
    expect(secondBox.y).toBeGreaterThanOrEqual(rowBefore!.y + rowBefore!.height);
    await shot(desk, 'queue-desktop');

    // notes are mandatory: the decision buttons wait for them
    const verify = caseView.getByRole('button', { name: 'Verify' });
    expect(await verify.isDisabled()).toBe(true);
    await desk.keyboard.press('n');
    await desk.keyboard.type('Passport page checked against the photo; MRZ cut off by the scan.');
    expect(await verify.isDisabled()).toBe(false);
    await desk.keyboard.press('Control+Enter');
    await caseView.getByRole('status').filter({ hasText: 'Decided: VERIFIED' }).waitFor();

    // the case's audit trail shows the view of the image and the decision, with the key and the reviewer
    const trail = caseView.getByRole('region', { name: 'Audit trail of this person' });
    const decision = trail.locator('tr[data-action="DOCUMENT_VERIFICATION_REVIEWED"]');
    await decision.waitFor();
    expect(await decision.innerText()).toMatch(new RegExp(`Decided the document verification: VERIFIED\\s+${REVIEWER} · review console`));
    expect(await trail.locator('tr[data-action="FILE_VIEWED"]').first().innerText()).toMatch(/Viewed the front/);

    // gone from both queues (the tablet's without a reload), the other item still there
    await Promise.all([row(desk, first).waitFor({ state: 'detached' }), row(tablet, first).waitFor({ state: 'detached' })]);
    expect(await row(tablet, second).isVisible()).toBe(true);
    await shot(tablet, 'queue-tablet');

    // the decision went through the API's own mutation, with the reviewer's name and notes
    const decided = await stack.gql(
      `query($id: ID!) { documentVerification(id: $id) { status reviewedBy reviewNotes } }`,
      { id: first },
      { 'x-api-key': apiKey },
    );
    expect(decided.body.data.documentVerification).toEqual({
      status: 'VERIFIED',
      reviewedBy: REVIEWER,
      reviewNotes: 'Passport page checked against the photo; MRZ cut off by the scan.',
    });

    // the tablet opens the other one: the case takes the list's place, with a way back
    await tablet.keyboard.press('j');
    await tablet.getByRole('heading', { name: /console-user-2/ }).waitFor();
    expect(await tablet.getByRole('region', { name: 'Documents queue' }).isVisible()).toBe(false);
    await shot(tablet, 'case-tablet');
    await tablet.getByRole('link', { name: '← Back to the queue' }).click();
    await tablet.getByRole('region', { name: 'Documents queue' }).waitFor();
  }, 120_000);

  it('an AML hit is explained and dismissed with a reason; a record outside the queues opens by its address', async () => {
    for (const page of [desk, tablet]) {
      await page.keyboard.press('5');
      await page.getByRole('heading', { name: /^AML hits/ }).waitFor();
    }
    // the screening index loads the list in the background: screen until it matches
    const screening = await eventually(async () => {
      const res = await stack.rest('POST', '/v1/screening/aml', { userId: 'console-aml-1', ...LISTED_PERSON }, { 'x-api-key': apiKey });
      return res.body.matches?.length ? res.body : null;
    });
    await Promise.all([row(desk, screening.id).waitFor(), row(tablet, screening.id).waitFor()]);
    await desk.locator(`.items li[data-id="${screening.id}"] a`).click();
    const caseView = desk.getByRole('article', { name: 'Case' });
    const hit = caseView.getByRole('group', { name: 'Hit 1' });
    await hit.getByText(/^Name score \d/).waitFor();
    expect(await hit.innerText()).toContain(LISTED_PERSON.fullName.split(' ')[0]);
    const dismiss = hit.getByRole('button', { name: 'Dismiss (false positive)' });
    expect(await dismiss.isDisabled()).toBe(true);
    await hit.getByLabel('Reason (required)').fill('Another person: born in another year, per the passport on file.');
    await dismiss.click();
    await Promise.all([row(desk, screening.id).waitFor({ state: 'detached' }), row(tablet, screening.id).waitFor({ state: 'detached' })]);
    const resolved = await stack.gql(
      `query($id: ID!) { amlScreening(id: $id) { matches { resolution resolvedBy resolutionReason } } }`,
      { id: screening.id },
      { 'x-api-key': apiKey },
    );
    expect(resolved.body.data.amlScreening.matches[0]).toEqual({
      resolution: 'FALSE_POSITIVE',
      resolvedBy: REVIEWER,
      resolutionReason: 'Another person: born in another year, per the passport on file.',
    });
    await shot(desk, 'aml-desktop');

    // an identity verification still PENDING (not in the queue) opened by its URL: shown, not decidable
    const identity = await stack.rest('POST', '/v1/verifications/identity', { userId: 'console-pending' }, { 'x-api-key': apiKey });
    const origin = new URL(stack.urls.gateway!).origin;
    await desk.goto(`${origin}/console/#/queue/identity/${identity.body.id}`);
    await caseView.getByRole('heading', { name: 'Identity verification of console-pending (BASIC)' }).waitFor();
    await caseView.getByText('Not in the review queue (PENDING).').waitFor();
    await caseView.getByText('No document yet.').waitFor();
    expect(await caseView.getByRole('button', { name: 'Verify' }).count()).toBe(0);
  });

  it('risk view: a CEL error is shown where it is, the saved rule blocks the next transaction in the live feed', async () => {
    // the open case follows its record: closed first, so the count below is the risk view's alone
    await desk.getByRole('link', { name: /^Documents/ }).click();
    await desk.getByText('Open an item of the queue').waitFor();
    const before = await eventually(async () => {
      const now = stack.activeSubscriptions();
      return now === 12 ? now : null; // six queue feeds per console
    });
    await desk.keyboard.press('r');
    await desk.getByRole('list', { name: 'Risk evaluations' }).waitFor();
    await eventually(async () => stack.activeSubscriptions() >= before + 2); // review and block feeds
    await desk.getByRole('button', { name: 'New rule' }).click();
    const editor = desk.getByRole('form', { name: 'Rule editor' });
    await editor.getByLabel('Id').fill('console_large_transfer');
    await editor.getByLabel('Name').fill('Large transfer (console)');
    const condition = editor.getByLabel('Condition (CEL)');
    await condition.fill('txn.amount > 1000.0 &&\n  sender.count_7d > 0');
    const error = editor.locator('.condition-check [role="alert"]');
    await error.waitFor();
    expect(await error.getAttribute('data-line')).toBe('2');
    expect(await error.getAttribute('data-column')).toBe('10');
    expect(await error.innerText()).toMatch(/Line 2, column 10: .*count_7d[\s\S]*\^/);
    expect(await editor.getByRole('button', { name: 'Save rule' }).isDisabled()).toBe(true);
    await shot(desk, 'rule-error');

    await condition.fill('txn.amount > 1000.0');
    await editor.getByText('Valid condition').waitFor();
    await editor.getByLabel('Action').selectOption('BLOCK');
    await editor.getByLabel('Severity').selectOption('HIGH');
    await editor.getByRole('button', { name: 'Save rule' }).click();
    await editor.getByText(/Saved version 1/).waitFor();

    // the next evaluation uses it: blocked, live in the feed with the rule as its reason
    const feed = desk.getByRole('list', { name: 'Risk evaluations' });
    const feedBox = await feed.boundingBox();
    const evaluated = await stack.rest(
      'POST',
      '/v1/evaluate',
      { transaction_id: 'console-tx-1', amount: 5000, currency: 'KES', sender: 'acct-a', receiver: 'acct-b' },
      { authorization: `Bearer ${apiKey}` },
    );
    expect(evaluated.body.action).toBe('block');
    const item = feed.locator('li').filter({ hasText: 'console-tx-1' });
    await item.waitFor();
    expect(await item.innerText()).toMatch(/BLOCK[\s\S]*Large transfer \(console\)/);
    expect(await feed.boundingBox()).toEqual(feedBox); // a box of fixed size: the page did not move
    await item.getByRole('button').click();
    await desk
      .getByLabel('Evaluation')
      .getByText(/Large transfer \(console\) \(BLOCK, HIGH, v1\)/)
      .waitFor();
    await shot(desk, 'risk-desktop');
  }, 60_000);
});
