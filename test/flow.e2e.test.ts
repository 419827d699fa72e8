import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { daysAgo, electricityBill } from './support/bills.js';
import { launchChromium, watchedPage } from './support/chromium.js';
import { AMINA, corrupt, passportPage, td3 } from './support/documents.js';
import { portrait } from './support/faces.js';
import { FRONT_CAMERA, REAR_CAMERA, documentScene, fakeCamera } from './support/fake-camera.js';
import { selfSignedCertificate } from './support/https-receiver.js';
import { poses, type Poses } from './support/poses.js';
import { startTestStack, type TestStack } from './support/stack.js';

/**
 * The end user's hosted verification flow (/flow/<link>) and the <verification-flow> web component
 * in headless Chromium, against the whole stack, as a person would go through them: Chromium's
 * fake camera shows what test/support/fake-camera.ts made of the generated passport pages and
 * faces. A browser has one camera file for its life, so a flow that needs another picture (the
 * next pose) goes on in a new browser that carries the first one's localStorage over
 * (storageState): the page resumes where it was, as after a reload. Every screen is checked with
 * axe-core (no serious or critical violation) and photographed into test-artifacts/flow/
 * (FLOW_ARTIFACTS overrides); no request may leave this machine, and the pages may raise no
 * error and break no rule of their Content-Security-Policy.
 */
const ARTIFACTS = process.env.FLOW_ARTIFACTS ?? path.join(__dirname, '..', 'test-artifacts', 'flow');
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const AXE_SOURCE = readFileSync(createRequire(path.resolve('package.json')).resolve('axe-core/axe.min.js'), 'utf8');
/** The page's words, from its message files (what a person reads is what the test looks for). */
const messages = (lang: string): Record<string, string> =>
  JSON.parse(readFileSync(path.join(__dirname, '..', 'flow', 'messages', `${lang}.json`), 'utf8'));
const en = messages('en');
const fr = messages('fr');
const MESSAGES = { en, fr } as const;
type Lang = keyof typeof MESSAGES;

/** A picture the camera shows (poses of the woman, the man's portrait, documents). */
type Scene = keyof Poses | 'man' | 'passport' | 'forgedPassport';

const LOGO = sharp({ create: { width: 160, height: 48, channels: 3, background: '#5b2a86' } })
  .png()
  .toBuffer();

describe('hosted verification flow in a browser', () => {
  let stack: TestStack;
  let apiKey: string;
  let cameraDir: string;
  let poseSet: Poses;
  const scenes = new Map<Scene, Buffer>();
  const servers: Array<http.Server | https.Server> = [];
  const browsers = new Set<Browser>();
  let logoUrl: string;
  let doneUrl: string;
  const outside: string[] = [];
  const pageErrors: string[] = [];
  const violations: string[] = [];

  const gateway = () => new URL(stack.urls.gateway!).origin;

  async function listen<T extends http.Server | https.Server>(server: T): Promise<string> {
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return String((server.address() as AddressInfo).port);
  }

  async function createFlow(body: Record<string, unknown>): Promise<{ id: string; url: string }> {
    const res = await stack.rest('POST', '/v1/verifications/flows', body, { 'x-api-key': apiKey });
    expect(`${res.status} ${JSON.stringify(res.body)}`).toMatch(/^201 /);
    return res.body;
  }

  /** A browser whose camera shows `scene`, one page in it (optionally resuming another's storage). */
  async function visit(
    scene: Scene | null,
    viewport: { width: number; height: number },
    storageState?: Awaited<ReturnType<BrowserContext['storageState']>>,
  ) {
    const args = scene ? await fakeCamera(path.join(cameraDir, `${scene}.y4m`), scenes.get(scene)!, camera(scene)) : [];
    const browser: Browser = await launchChromium(args);
    browsers.add(browser);
    browser.on('disconnected', () => browsers.delete(browser));
    const context = await browser.newContext({ viewport, storageState, ignoreHTTPSErrors: true, permissions: ['camera'] });
    const page = await watchedPage(context, outside, pageErrors);
    return {
      page,
      /** Closes the browser, handing back what it kept (localStorage) for the next one. */
      leave: async () => {
        const state = await context.storageState();
        await browser.close();
        return state;
      },
    };
  }

  const camera = (scene: Scene) => (scene === 'passport' || scene === 'forgedPassport' ? REAR_CAMERA : FRONT_CAMERA);

  /** axe-core on the page as it is (injected through the debugging protocol: the page's CSP allows no inline script), then a screenshot. */
  async function check(page: Page, name: string) {
    await page.evaluate(AXE_SOURCE);
    const found: Array<{ id: string; impact: string; help: string; nodes: Array<{ target: string[] }> }> = await page.evaluate(
      async () => ((await (globalThis as any).axe.run((globalThis as any).document)) as any).violations,
    );
    for (const v of found.filter((v) => v.impact === 'serious' || v.impact === 'critical')) {
      violations.push(`${name}: ${v.id} (${v.impact}) ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    }
    await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
  }

  /** The screen's heading, once it reads `text`; it holds the focus (each screen moves it there). */
  async function screen(page: Page, text: string | RegExp) {
    const heading = page.getByRole('heading', { level: 1, name: text });
    await heading.waitFor();
    await page.waitForFunction((wanted) => (globalThis as any).document.activeElement?.textContent === wanted, await heading.innerText());
  }

  /** The pose a challenge's instruction asks for. */
  function poseFor(lang: Lang, instruction: string): keyof Poses {
    const m = MESSAGES[lang];
    const poseOf: Array<[string, keyof Poses]> = [
      [m['liveness.reference.hint'], 'frontal'],
      [m['liveness.challenge.TURN_LEFT'], 'turnedLeft'],
      [m['liveness.challenge.TURN_RIGHT'], 'turnedRight'],
      [m['liveness.challenge.LOOK_UP'], 'lookingUp'],
      [m['liveness.challenge.SMILE'], 'smiling'],
      [m['liveness.challenge.BLINK'], 'eyesClosed'],
      [m['liveness.challenge.NOD.1'], 'lookingDown'],
      [m['liveness.challenge.NOD.2'], 'lookingUp'],
    ];
    const found = poseOf.find(([text]) => text === instruction);
    if (!found) throw new Error(`no pose for the instruction "${instruction}"`);
    return found[1];
  }

  /**
   * One person's way through a flow: the page in a browser whose camera shows `scene`; asking for
   * another scene closes that browser and opens the link again in a new one with what the first
   * kept (the page resumes from localStorage, as after a reload).
   */
  function journey(url: string, viewport: { width: number; height: number }, lang: Lang, name: string) {
    let state: Awaited<ReturnType<BrowserContext['storageState']>> | undefined;
    let open: Awaited<ReturnType<typeof visit>> | undefined;
    let n = 0;
    const j = {
      lang,
      m: MESSAGES[lang],
      scene: undefined as Scene | null | undefined,
      get page(): Page {
        return open!.page;
      },
      async show(scene: Scene | null): Promise<Page> {
        if (open && j.scene === scene) return open.page;
        if (open) state = await open.leave();
        open = await visit(scene, viewport, state);
        j.scene = scene;
        expect((await open.page.goto(url))?.status()).toBe(200);
        return open.page;
      },
      /** axe and a screenshot, named in order. */
      check: (label: string) => check(open!.page, `${name}-${String(++n).padStart(2, '0')}-${label}`),
      async end() {
        if (open) state = await open.leave();
        open = undefined;
      },
    };
    return j;
  }
  type Journey = ReturnType<typeof journey>;

  /**
   * The face check from its reference selfie to its outcome, each photo taken by a camera that
   * shows what the screen asks for — or, with `challengeScene`, that picture for every movement
   * (another person than the reference selfie).
   */
  async function faceCheck(j: Journey, challengeScene?: Scene): Promise<Page> {
    for (let n = 0; ;) {
      const page = j.page;
      const outcome = page.locator('.outcome');
      const instruction = page.locator('.instruction');
      await outcome.or(instruction).waitFor();
      if (await outcome.isVisible()) return page;
      const heading = (await page.locator('h1').innerText()).trim();
      const asked = (await instruction.innerText()).trim();
      const wanted = heading === j.m['liveness.reference.title'] || !challengeScene ? poseFor(j.lang, asked) : challengeScene;
      if (wanted !== j.scene) {
        await j.show(wanted);
        continue;
      }
      await screen(page, heading);
      if (n++ < 2) await j.check(`liveness-photo-${n}`);
      await page.getByRole('button', { name: j.m['camera.take'] }).click();
      // the next screen: the outcome, the next movement, or a nod's second photo
      await outcome
        .or(page.locator('h1').filter({ hasNotText: exactly(heading) }))
        .or(instruction.filter({ hasNotText: exactly(asked) }))
        .first()
        .waitFor();
    }
  }

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    cameraDir = mkdtempSync(path.join(tmpdir(), 'flow-camera-'));
    const [started, p, woman, man] = await Promise.all([startTestStack(), poses(), portrait('woman'), portrait('man')]);
    stack = started;
    poseSet = p;
    for (const [name, picture] of Object.entries(poseSet)) scenes.set(name as keyof Poses, picture);
    scenes.set('man', man);
    scenes.set('passport', await documentScene(await passportPage(AMINA, woman)));
    // the passport's number changed after its check digit was computed: the zone fails its checks
    const [line1, line2] = td3(AMINA);
    scenes.set('forgedPassport', await documentScene(await passportPage(AMINA, woman, [line1!, corrupt(line2!, 2)])));
    // the sandbox (test keys): every code is 123456
    apiKey = (await stack.createClient({ name: 'Mkopo Bank', environment: 'test' })).apiKey;
    const cert = selfSignedCertificate();
    const logo = await LOGO;
    logoUrl = `https://localhost:${await listen(https.createServer(cert, (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(logo)))}/logo.png`;
    doneUrl = `http://127.0.0.1:${await listen(http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Done</title><h1>Done</h1>')))}/done`;
  }, 90_000);
  afterAll(async () => {
    for (const browser of browsers) await browser.close();
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    await stack?.stop();
    rmSync(cameraDir, { recursive: true, force: true });
  });
  afterEach(() => {
    expect(outside).toEqual([]);
    expect(pageErrors).toEqual([]);
    expect(violations).toEqual([]);
  });

  it('is served by the gateway under a policy that keeps it on its origin', async () => {
    const flow = await createFlow({ userId: 'flow-policy', steps: ['EMAIL'], redirectUrl: doneUrl });
    const page = await fetch(flow.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(
      /default-src 'self'; script-src 'self'; style-src 'self'.*frame-ancestors 'none'/,
    );
    const html = await page.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>|\sstyle=/); // no inline script, no style attribute
    const embed = await fetch(`${gateway()}/flow/embed.js`);
    expect([embed.status, embed.headers.get('content-type')]).toEqual([200, expect.stringMatching(/javascript/)]);
    expect(await embed.text()).toMatch(/customElements\.define\(.verification-flow./);
  });

  /** The page's answers the browser logs as errors on purpose (a refused file, a spent link): expected once, then forgotten. */
  function expectLogged(status: RegExp) {
    const at = pageErrors.findIndex((e) => status.test(e));
    expect(at).toBeGreaterThanOrEqual(0);
    pageErrors.splice(at, 1);
  }

  /** Contrast ratio of two computed CSS colours (`rgb(r, g, b)`), WCAG's formula. */
  function contrast(a: string, b: string): number {
    const lum = (css: string) => {
      const [r, g, bl] = css
        .match(/\d+(\.\d+)?/g)!
        .slice(0, 3)
        .map((c) => {
          const s = Number(c) / 255;
          return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
        });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
    };
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x! + 0.05) / (y! + 0.05);
  }

  const readFlow = async (id: string) =>
    (await stack.gql(`query($id: ID!) { verificationFlow(id: $id) { status steps { step status } } }`, { id }, { 'x-api-key': apiKey }))
      .body.data.verificationFlow;

  it('on a phone, in English: from the link to VERIFIED — document, face check (a browser per pose, resuming), email, proof of address — then back to the organization', async () => {
    const flow = await createFlow({
      userId: 'amina-phone',
      steps: ['DOCUMENT', 'LIVENESS', 'EMAIL', 'ADDRESS'],
      locale: 'en',
      redirectUrl: `${doneUrl}?from=flow`,
      // a light yellow: the page darkens it until white or black text on it reads at 4.5:1
      branding: { logoUrl, primaryColor: '#ffd633', accentColor: '#ffe680' },
    });
    const j = journey(flow.url, PHONE, 'en', 'phone-en');
    let page = await j.show('passport');

    // consent: who asks, what is collected; nothing starts without agreeing
    await screen(page, 'Mkopo Bank asks you to verify your identity');
    for (const step of ['DOCUMENT', 'LIVENESS', 'EMAIL', 'ADDRESS'] as const)
      await page.getByRole('main').getByText(en[`consent.collect.${step}`]).waitFor();
    const logo = page.getByRole('img', { name: 'Mkopo Bank logo' });
    await logo.waitFor();
    await page.waitForFunction(() => ((globalThis as any).document.querySelector('img.logo') as any)?.naturalWidth > 0);
    const start = page.getByRole('button', { name: 'Start' });
    const [background, colour] = await start.evaluate((b: any) => {
      const style = (globalThis as any).getComputedStyle(b);
      return [style.backgroundColor, style.color];
    });
    expect(contrast(background, colour)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(background, 'rgb(255, 255, 255)')).toBeGreaterThanOrEqual(4.5);
    await j.check('consent');
    await start.click();
    await page.getByRole('alert').filter({ hasText: en['consent.required'] }).waitFor();
    await page.getByLabel('I agree that Mkopo Bank collects and checks this information').check();
    await start.click();

    // the document: its type and country, a photo judged before it is used, the check followed live
    await screen(page, 'Your identity document');
    await page.getByRole('navigation', { name: 'Progress' }).getByText('Step 1 of 4').waitFor();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('main').getByText(en['document.missingType']).waitFor();
    await j.check('document-choice');
    await page.getByLabel('Type of document').selectOption('PASSPORT');
    await page.getByLabel('Country that issued it').selectOption('KE');
    await page.getByRole('button', { name: 'Continue' }).click();
    await screen(page, 'Photo of the page with your photo');
    // a file that is not a picture: an instruction, not a code
    await page
      .getByLabel('Or choose a photo')
      .setInputFiles({ name: 'notes.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('not a picture\n'.repeat(40)) });
    await page.getByRole('alert').filter({ hasText: en['error.unsupportedMedia'] }).waitFor();
    await page.getByRole('button', { name: 'Take photo' }).and(page.locator(':enabled')).waitFor();
    await j.check('document-camera');
    await page.getByRole('button', { name: 'Take photo' }).click();
    await screen(page, 'Check your photo');
    await page.getByRole('main').getByText(en['document.assessment.good']).waitFor();
    await j.check('document-photo');
    await page.getByRole('button', { name: 'Use this photo' }).click();
    await page.getByRole('main').getByText(en['document.verified']).waitFor({ timeout: 60_000 });
    await j.check('document-verified');
    await page.getByRole('button', { name: 'Continue' }).click();

    // the face check: a reference selfie then the session's movements, each photo by a camera showing that pose
    await screen(page, 'Check that it is you');
    await j.check('liveness-intro');
    await page.getByRole('button', { name: en['liveness.start'] }).click();
    await screen(page, en['liveness.reference.title']);
    page = await faceCheck(j);
    await page.getByRole('main').getByText(en['liveness.passed']).waitFor();
    await j.check('liveness-passed');
    await page.getByRole('button', { name: 'Continue' }).click();

    // email: a code (the sandbox's), confirmed
    await screen(page, 'Confirm your email address');
    await j.check('email');
    await page.getByLabel('Email address', { exact: true }).fill('amina.wanjiku@example.com');
    await page.getByRole('button', { name: 'Send the code' }).click();
    await screen(page, 'Enter the code');
    await page.getByRole('main').getByText('We sent a 6-digit code to amina.wanjiku@example.com.', { exact: false }).waitFor();
    await j.check('email-code');
    await page.getByLabel('Code', { exact: true }).fill('123456');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('main').getByText(en['email.verified']).waitFor();
    await page.getByRole('button', { name: 'Continue' }).click();

    // proof of address: a recent bill
    await screen(page, 'Your proof of address');
    await j.check('address');
    await page.getByLabel('Type of document').selectOption('UTILITY_BILL');
    await page.getByLabel('Country', { exact: true }).selectOption('KE');
    await page.getByLabel('Your address, as written on the document').fill('12 Moi Avenue, Nairobi');
    const bill = await electricityBill('AMINA WANJIKU', ['12 Moi Avenue', 'Nairobi'], daysAgo(20));
    await page.getByLabel('Photo or scan of the document').setInputFiles({ name: 'bill.jpg', mimeType: 'image/jpeg', buffer: bill });
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('main').getByText(en['address.verified']).waitFor({ timeout: 60_000 });
    await j.check('address-verified');
    await page.getByRole('button', { name: 'Continue' }).click();

    // the result, then back to the organization with the outcome
    await screen(page, 'You are verified');
    expect(await page.getByRole('list', { name: 'Your steps' }).innerText()).toMatch(
      /Identity document\s+Done[\s\S]*Proof of address\s+Done/,
    );
    await j.check('result');
    await page.getByRole('link', { name: 'Continue to Mkopo Bank' }).click();
    await page.waitForURL((url) => url.pathname === '/done');
    const back = new URL(page.url());
    expect(Object.fromEntries(back.searchParams)).toEqual({ from: 'flow', flowId: flow.id, status: 'VERIFIED' });
    await j.end();
    expect(await readFlow(flow.id)).toEqual({
      status: 'COMPLETED',
      steps: ['DOCUMENT', 'LIVENESS', 'EMAIL', 'ADDRESS'].map((step) => ({ step, status: 'PASSED' })),
    });

    // the link opens once: in another browser (nothing kept) it is refused, in words (here in French, as ?lang= asks)
    const other = journey(`${flow.url}?lang=fr`, PHONE, 'fr', 'phone-fr-reopened');
    page = await other.show(null);
    await screen(page, 'Ce lien ne peut plus être utilisé');
    expectLogged(/status of 409/);
    await other.check('link-used');
    await other.end();
  }, 240_000);

  it('on a desktop, in French: a forged passport, another person’s face and an old bill are refused with instructions; the person goes on and is sent back REJECTED', async () => {
    const flow = await createFlow({
      userId: 'amina-desk',
      steps: ['DOCUMENT', 'LIVENESS', 'PHONE', 'ADDRESS'],
      locale: 'fr',
      redirectUrl: doneUrl,
    });
    const j = journey(flow.url, DESKTOP, 'fr', 'desktop-fr');
    let page = await j.show('forgedPassport');
    await screen(page, 'Mkopo Bank vous demande de vérifier votre identité');
    expect(await page.evaluate(() => (globalThis as any).document.documentElement.lang)).toBe('fr');
    await j.check('consentement');
    // by keyboard alone: from the heading (focused), the agreement, then Start
    await page.keyboard.press('Tab');
    expect(
      await page
        .getByLabel('J’accepte que Mkopo Bank recueille et vérifie ces informations')
        .evaluate((e) => e === (globalThis as any).document.activeElement),
    ).toBe(true);
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');

    // a passport whose machine-readable zone fails its check digits: rejected, said as what to do
    await screen(page, 'Votre pièce d’identité');
    await page.getByLabel('Type de document').selectOption('PASSPORT');
    await page.getByLabel('Pays qui l’a délivré').selectOption('KE');
    await page.getByRole('button', { name: 'Continuer' }).click();
    await screen(page, 'Photo de la page avec votre photo');
    await j.check('document-camera');
    await page.getByRole('button', { name: 'Prendre la photo' }).click();
    await screen(page, 'Vérifiez votre photo');
    await j.check('document-verifiez');
    await page.getByRole('button', { name: 'Utiliser cette photo' }).click();
    await page.getByRole('main').getByText(fr['document.rejected']).waitFor({ timeout: 60_000 });
    await page.getByRole('main').getByText(fr['document.reason.mrz']).waitFor();
    await page.getByRole('navigation', { name: 'Progression' }).getByText('Non vérifié').waitFor();
    await j.check('document-refuse');
    await page.getByRole('button', { name: 'Continuer sans réessayer' }).click();

    // the face check: her reference selfie, then another person does the movements
    await screen(page, 'Vérifions que c’est bien vous');
    await j.check('visage-intro');
    await page.getByRole('button', { name: fr['liveness.start'] }).click();
    await screen(page, fr['liveness.reference.title']);
    page = await faceCheck(j, 'man');
    await page.getByRole('main').getByText(fr['liveness.failure.mismatch']).waitFor();
    await j.check('visage-refuse');
    await page.getByRole('button', { name: 'Continuer sans réessayer' }).click();

    // the phone: a number without its country code, then a wrong code, each said as what to do
    await screen(page, 'Confirmez votre numéro de téléphone');
    await page.getByLabel('Numéro de mobile').fill('0712 345 678');
    await page.getByRole('button', { name: 'Envoyer le code' }).click();
    await page.getByRole('main').getByText(fr['error.phone.format']).waitFor();
    await j.check('telephone-erreur');
    await page.getByLabel('Numéro de mobile').fill('+254 712 345 678');
    await page.getByRole('button', { name: 'Envoyer le code' }).click();
    await screen(page, 'Saisissez le code');
    await page.getByLabel('Code', { exact: true }).fill('000000');
    await page.getByRole('button', { name: 'Confirmer' }).click();
    await page.getByRole('main').getByText('Ce code n’est pas le bon. Essais restants : 2.').waitFor();
    await j.check('telephone-code');
    await page.getByLabel('Code', { exact: true }).fill('123456');
    await page.getByRole('button', { name: 'Confirmer' }).click();
    await page.getByRole('main').getByText(fr['phone.verified']).waitFor();
    await page.getByRole('button', { name: 'Continuer' }).click();

    // a bill four months old
    await screen(page, 'Votre justificatif de domicile');
    await page.getByLabel('Type de document').selectOption('UTILITY_BILL');
    await page.getByLabel('Pays', { exact: true }).selectOption('KE');
    const bill = await electricityBill('AMINA WANJIKU', ['12 Moi Avenue', 'Nairobi'], daysAgo(120));
    await page.getByLabel('Photo ou scan du document').setInputFiles({ name: 'facture.jpg', mimeType: 'image/jpeg', buffer: bill });
    await j.check('domicile');
    await page.getByRole('button', { name: 'Envoyer' }).click();
    await page.getByRole('main').getByText(fr['address.reason.tooOld']).waitFor({ timeout: 60_000 });
    await j.check('domicile-refuse');
    await page.getByRole('button', { name: 'Continuer sans réessayer' }).click();

    await screen(page, 'Nous n’avons pas pu vérifier votre identité');
    await j.check('resultat');
    await page.getByRole('link', { name: 'Continuer vers Mkopo Bank' }).click();
    await page.waitForURL((url) => url.pathname === '/done');
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ flowId: flow.id, status: 'REJECTED' });
    await j.end();
    expect(await readFlow(flow.id)).toMatchObject({
      steps: [
        { step: 'DOCUMENT', status: 'FAILED' },
        { step: 'LIVENESS', status: 'FAILED' },
        { step: 'PHONE', status: 'PASSED' },
        { step: 'ADDRESS', status: 'FAILED' },
      ],
    });
  }, 240_000);

  it('the web component: an integrator’s page on another origin embeds the flow and hears its step and complete events (and error, for a spent link)', async () => {
    let token = '';
    const host = http.createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Open an account</title>
<script src="${gateway()}/flow/embed.js"></script></head>
<body><main><h1>Open an account</h1>
<verification-flow token="${token}" title="Verify your identity"></verification-flow></main>
<script>
  window.flowEvents = [];
  for (const type of ['step', 'complete', 'error'])
    document.querySelector('verification-flow').addEventListener(type, (e) => window.flowEvents.push({ type, detail: e.detail }));
</script></body></html>`),
    );
    const hostOrigin = `http://localhost:${await listen(host)}`;
    const flow = await createFlow({ userId: 'amina-embedded', steps: ['EMAIL'], redirectUrl: doneUrl, embedOrigins: [hostOrigin] });
    token = flow.url.split('/').pop()!;
    const events = async (page: Page) =>
      (await page.evaluate(() => (globalThis as any).flowEvents)) as Array<{ type: string; detail: any }>;

    const { page, leave } = await visit(null, DESKTOP);
    await page.goto(`${hostOrigin}/`);
    const frame = page.frameLocator('verification-flow iframe');
    await frame.getByRole('heading', { name: 'Mkopo Bank asks you to verify your identity' }).waitFor();
    await check(page, 'embedded-01-consent');
    await frame.getByLabel('I agree that Mkopo Bank collects and checks this information').check();
    await frame.getByRole('button', { name: 'Start' }).click();
    await frame.getByLabel('Email address', { exact: true }).fill('amina.embedded@example.com');
    await frame.getByRole('button', { name: 'Send the code' }).click();
    await frame.getByLabel('Code', { exact: true }).fill('123456');
    await frame.getByRole('button', { name: 'Confirm' }).click();
    await frame.getByRole('button', { name: 'Continue' }).click();
    await frame.getByRole('heading', { name: 'You are verified' }).waitFor();
    // embedded: no redirect, the integrator's page goes on
    expect(await frame.getByRole('link').count()).toBe(0);
    await page.waitForFunction(() => (globalThis as any).flowEvents.some((e: any) => e.type === 'complete'));
    await check(page, 'embedded-02-result');
    expect(await events(page)).toEqual([
      { type: 'step', detail: { step: 'EMAIL', status: 'IN_PROGRESS' } },
      { type: 'step', detail: { step: 'EMAIL', status: 'PASSED' } },
      { type: 'complete', detail: { flowId: flow.id, status: 'VERIFIED' } },
    ]);
    await leave();

    // the link opened elsewhere (another browser): the element says so with an error event
    const again = await visit(null, DESKTOP);
    await again.page.goto(`${hostOrigin}/`);
    await again.page.frameLocator('verification-flow iframe').getByRole('heading', { name: 'This link can no longer be used' }).waitFor();
    await again.page.waitForFunction(() => (globalThis as any).flowEvents.length > 0);
    expect(await events(again.page)).toEqual([{ type: 'error', detail: { error: 'ALREADY_OPENED' } }]);
    expectLogged(/status of 409/);
    await again.leave();
  });
});

const exactly = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
