import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from './support/chromium.js';
import { eventually, startTestStack, type TestStack } from './support/stack.js';

/**
 * GraphiQL (gateway) and Swagger UI (REST adapter) in a real headless Chromium: the one `npm ci`
 * installs (test/support/chromium.ts), no download at run time.
 */

const WELCOME = { name: 'welcome', channels: { email: { subject: 'Hi {{first_name}}', html: '<p>Hi {{first_name}}</p>' } } };
const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

describe('browser: GraphiQL and Swagger UI work offline, with a key', () => {
  let stack: TestStack;
  let browser: Browser;
  let context: BrowserContext;
  let apiKey: string;
  /** Every URL the pages tried to reach outside this machine (refused). */
  const outside: string[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startTestStack(), launchChromium()]);
    apiKey = (await stack.createClient({ name: 'browser', service: 'notify', environment: 'test' })).apiKey;
    expect((await stack.rest('POST', '/v1/templates', WELCOME, { 'x-api-key': apiKey })).status).toBe(201);
    expect((await stack.rest('PUT', '/v1/recipients/fan-1', { email: 'fan-1@example.com' }, { 'x-api-key': apiKey })).status).toBe(200);
    context = await browser.newContext();
    await context.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (LOCAL_HOSTS.has(url.hostname)) return route.continue();
      outside.push(url.href);
      return route.abort('blockedbyclient');
    });
    // WebSockets are not routed: checked as they open
    context.on('page', (page) => watch(page));
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await stack?.stop();
  });
  afterEach(() => {
    expect(outside).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  function watch(page: Page) {
    page.on('websocket', (ws) => {
      if (!LOCAL_HOSTS.has(new URL(ws.url()).hostname)) outside.push(ws.url());
    });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    // a Content-Security-Policy refusal is only reported on the console
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) pageErrors.push(message.text());
    });
  }

  /** The text of a GraphiQL CodeMirror editor (`query`, `headers`, `response`). */
  const editor = (which: string) =>
    ({
      query: '.graphiql-query-editor .CodeMirror',
      headers: '.graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror',
      response: '.graphiql-response .CodeMirror',
    })[which]!;
  const setEditor = (page: Page, which: string, text: string) =>
    page.locator(editor(which)).evaluate((el, value) => (el as any).CodeMirror.setValue(value), text);
  const readEditor = (page: Page, which: string) =>
    page.locator(editor(which)).evaluate((el) => (el as any).CodeMirror.getValue() as string);

  /** GraphiQL's response pane once it shows `text`. */
  const responseContaining = (page: Page, text: string) =>
    eventually(async () => (await readEditor(page, 'response')).includes(text)).catch(async () => {
      throw new Error(`GraphiQL's response is not ${text} but ${await readEditor(page, 'response')}`);
    });

  it('GraphiQL: the page without a key, a query and a subscription with the key from the header editor', async () => {
    const page = await context.newPage();
    const gatewayUrl = stack.urls.gateway!;
    const response = await page.goto(gatewayUrl);
    expect(response?.status()).toBe(200);
    await page.locator('.graphiql-container').waitFor();
    // the Headers tab is open, waiting for the key
    await page.locator(editor('headers')).waitFor();
    await setEditor(page, 'headers', JSON.stringify({ 'X-API-Key': apiKey }));

    await setEditor(page, 'query', '{ notificationTemplates(first: 5) { nodes { name } } }');
    await page.locator('.graphiql-execute-button').click();
    await responseContaining(page, '"welcome"');
    expect(JSON.parse(await readEditor(page, 'response'))).toEqual({ data: { notificationTemplates: { nodes: [{ name: 'welcome' }] } } });

    // a subscription over graphql-ws, the key in connectionParams
    const before = stack.activeSubscriptions();
    await setEditor(page, 'query', 'subscription { notificationUpdatedForUser(userId: "fan-1") { type node { recipientId } } }');
    await page.locator('.graphiql-execute-button').click();
    await eventually(async () => stack.activeSubscriptions() > before).catch(async () => {
      throw new Error(`no subscription served; GraphiQL shows ${await readEditor(page, 'response')}`);
    });
    const sent = await stack.rest(
      'POST',
      '/v1/send',
      { to: 'fan-1', template: 'welcome', channels: ['email'], data: { first_name: 'F' } },
      { 'x-api-key': apiKey },
    );
    expect(sent.status).toBe(202);
    // the pane shows the latest event (dispatched, then updated as the sandbox delivers)
    await responseContaining(page, '"recipientId": "fan-1"');
    expect(JSON.parse(await readEditor(page, 'response'))).toMatchObject({
      data: { notificationUpdatedForUser: { node: { recipientId: 'fan-1' } } },
    });
    await page.locator('.graphiql-execute-button').click(); // stops it
    await eventually(async () => stack.activeSubscriptions() === before);
    await page.close();
  });

  it('Swagger UI: authorize with X-API-Key and try a route', async () => {
    const page = await context.newPage();
    expect((await page.goto(`${stack.urls.rest!}/docs`))?.status()).toBe(200);
    await page.locator('.swagger-ui .info .title').waitFor();

    await page.locator('.auth-wrapper .authorize').click();
    const apiKeyForm = page.locator('.auth-container').filter({ hasText: 'X-API-Key' });
    await apiKeyForm.locator('input').fill(apiKey);
    await apiKeyForm.locator('button.authorize').click();
    await apiKeyForm.locator('button.btn-done').click();

    const operation = page.locator('.opblock-get').filter({ has: page.locator('.opblock-summary-path[data-path="/templates"]') });
    await operation.locator('.opblock-summary').click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    await operation.getByRole('button', { name: 'Execute' }).click();
    const status = operation.locator('.live-responses-table .response .response-col_status');
    await status.waitFor();
    expect(await status.innerText()).toBe('200');
    expect(await operation.locator('.live-responses-table .response .response-col_description').innerText()).toContain('"welcome"');
    await page.close();
  });
});
