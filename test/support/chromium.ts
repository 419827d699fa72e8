import { execFileSync } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress } from 'node:zlib';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's and Ubuntu's Chromium, where a system has one. */
const SYSTEM_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

/**
 * Headless Chromium for the browser suites, with no download at run time, the first found of:
 * CHROMIUM_PATH; the system's (unless SYSTEM_CHROMIUM=false); the build the @sparticuz/chromium dev
 * dependency ships compressed, unpacked once per install into node_modules/.cache with the NSS and
 * expat libraries it needs (packed beside it: a plain Debian image has none of them) and a font.
 * `args`: more switches (a fake camera's: test/support/fake-camera.ts).
 */
export async function launchChromium(args: string[] = []): Promise<Browser> {
  const system = process.env.SYSTEM_CHROMIUM === 'false' ? undefined : SYSTEM_PATHS.find((file) => existsSync(file));
  const given = process.env.CHROMIUM_PATH || system;
  if (given) return chromium.launch({ executablePath: given, args: ['--no-sandbox', ...args] });
  const unpacked = await unpackedChromium();
  return chromium.launch({
    executablePath: path.join(unpacked, 'chromium'),
    args: ['--no-sandbox', ...args],
    env: {
      ...process.env,
      LD_LIBRARY_PATH: [path.join(unpacked, 'lib'), process.env.LD_LIBRARY_PATH].filter(Boolean).join(':'),
      FONTCONFIG_PATH: unpacked,
    },
  });
}

/**
 * The package's browser unpacked into a folder named after its version, whole or not at all: it is
 * unpacked beside and renamed into place, so two suites starting at once both find a complete one.
 */
async function unpackedChromium(): Promise<string> {
  const require = createRequire(path.resolve('package.json'));
  const packageDir = path.dirname(path.dirname(require.resolve('@sparticuz/chromium')));
  const { version } = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { version: string };
  const target = path.resolve('node_modules', '.cache', `chromium-${version}`);
  if (existsSync(path.join(target, 'chromium'))) return target;

  const staging = `${target}.${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const bin = path.join(packageDir, 'bin');
  await unbrotli(path.join(bin, 'chromium.br'), path.join(staging, 'chromium'), 0o755);
  // lib/: libnss3, libnspr4, libexpat… built for Amazon Linux, which lacks them as plain Debian does
  for (const archive of ['al2023.tar.br', 'fonts.tar.br']) {
    const tar = path.join(staging, archive.replace(/\.br$/, ''));
    await unbrotli(path.join(bin, archive), tar, 0o644);
    execFileSync('tar', ['-xf', tar, '-C', staging]);
    rmSync(tar);
  }
  writeFileSync(
    path.join(staging, 'fonts.conf'),
    `<?xml version="1.0"?>\n<fontconfig><dir>${path.join(target, 'fonts')}</dir><cachedir>${path.join(target, 'fonts-cache')}</cachedir></fontconfig>\n`,
  );
  try {
    renameSync(staging, target);
  } catch {
    // another suite unpacked it first
    rmSync(staging, { recursive: true, force: true });
  }
  return target;
}

async function unbrotli(from: string, to: string, mode: number): Promise<void> {
  await pipeline(createReadStream(from), createBrotliDecompress(), createWriteStream(to, { mode }));
}

/** Hosts of this machine: a browser test's pages may reach nothing else. */
export const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * A new page of `context` kept on this machine and watched: requests elsewhere are refused and
 * listed in `outside` (WebSockets too), errors the page raises or logs (Content-Security-Policy
 * refusals among them) in `pageErrors`.
 */
export async function watchedPage(context: BrowserContext, outside: string[], pageErrors: string[]): Promise<Page> {
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (LOCAL_HOSTS.has(url.hostname)) return route.continue();
    outside.push(url.href);
    return route.abort('blockedbyclient');
  });
  const page = await context.newPage();
  page.on('websocket', (ws) => {
    if (!LOCAL_HOSTS.has(new URL(ws.url()).hostname)) outside.push(ws.url());
  });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' || /Content Security Policy/i.test(message.text())) pageErrors.push(message.text());
  });
  return page;
}
