import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { loadConfig } from '../platform/config.js';
import { freePort, startEmbeddedPostgres, type EmbeddedDatabase } from '../platform/db/embedded-postgres.js';
import { startStack } from '../cli/stack.js';

/**
 * Notify batches of 10,000 recipients through the whole stack (REST adapter → gateway → notify
 * subgraph, one process, embedded PostgreSQL unless DATABASE_URL is set):
 * - time to accept (the 202 with batch_id), against the issue's target of one second;
 * - dispatch throughput (messages/second, from the batch's created_at to completed_at) to the
 *   sandbox provider and to a local SMTP server (smtp-server, nodemailer's pooled transport);
 * - memory of the process while it dispatches.
 */
const RECIPIENTS = 10_000;
const ACCEPT_TARGET_MS = 1_000;
const ADMIN_SECRET = 'bench-admin-secret-0123456789';

// a full collection between batches shows what stays in memory (the peaks are mostly garbage)
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function startSmtpSink() {
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        received++;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    get received() {
      return received;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function run(): Promise<void> {
  let embedded: EmbeddedDatabase | null = null;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'notify-bench-'));
  const smtp = await startSmtpSink();
  try {
    let databaseUrl = process.env.DATABASE_URL;
    if (!databaseUrl) {
      embedded = await startEmbeddedPostgres({ dir: path.join(dataDir, 'pg'), port: await freePort(), persistent: false });
      databaseUrl = embedded.url;
    }
    const config = loadConfig({
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      GATEWAY_PORT: '0',
      VERIFICATION_PORT: '0',
      RISK_PORT: '0',
      NOTIFY_PORT: '0',
      REST_PORT: '0',
      LOG_LEVEL: 'silent',
      SMTP_URL: smtp.url,
    });
    const stack = await startStack({ config, databaseUrl, adminSecret: ADMIN_SECRET, internalSecret: 'bench-internal-secret-0123456789' });
    try {
      const rest = async (method: string, route: string, body?: unknown, headers: Record<string, string> = {}) => {
        const res = await fetch(stack.urls.rest + route, {
          method,
          headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: res.status, body: (await res.json()) as any };
      };
      const key = async (environment: string) => {
        const res = await rest(
          'POST',
          '/v1/admin/api-clients',
          { name: `bench ${environment}`, service: 'notify', environment, rateLimit: 1_000_000 },
          { 'x-admin-secret': ADMIN_SECRET },
        );
        return { authorization: `Bearer ${res.body.apiKey}` };
      };
      const sandbox = await key('test');
      const live = await key('live');
      const template = {
        name: 'statement',
        channels: {
          email: {
            subject: 'Your statement, {{first_name}}',
            html: '<p>Hello {{first_name}},</p><p>Your balance on {{date}} is {{balance}}.</p>',
          },
          sms: { body: 'Hello {{first_name}}, your balance on {{date}} is {{balance}}.' },
        },
      };
      for (const h of [sandbox, live]) await rest('POST', '/v1/templates', template, h);
      const recipients = (to: (i: number) => string, count: number) =>
        Array.from({ length: count }, (_, i) => ({
          to: to(i),
          data: { first_name: `Customer ${i}`, date: '2026-11-22', balance: `KES ${(i * 37) % 100_000}.00` },
        }));

      // every dispatched notification writes an outbox event; the webhook relay reads them all
      const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
      const relayed = async () => {
        const started = performance.now();
        while (Number((await pool.query('select count(*) as n from platform.outbox_events where relayed_at is null')).rows[0].n) > 0) {
          await new Promise((r) => setTimeout(r, 100));
        }
        return performance.now() - started;
      };

      /** Accepts one batch (once the previous one's events are relayed) and follows it to completion, sampling memory. */
      const batch = async (h: Record<string, string>, channel: string, to: (i: number) => string, count = RECIPIENTS) => {
        const relayLagMs = await relayed();
        const body = { template: 'statement', channels: [channel], recipients: recipients(to, count) };
        const started = performance.now();
        const res = await rest('POST', '/v1/send/batch', body, h);
        const acceptMs = performance.now() - started;
        if (res.status !== 202) throw new Error(`batch refused: ${res.status} ${JSON.stringify(res.body)}`);
        let peakRss = 0;
        let peakHeap = 0;
        let done: any;
        for (;;) {
          const { rss, heapUsed } = process.memoryUsage();
          peakRss = Math.max(peakRss, rss);
          peakHeap = Math.max(peakHeap, heapUsed);
          done = (await rest('GET', `/v1/send/batch/${res.body.batch_id}`, undefined, h)).body;
          if (done.status === 'completed') break;
          await new Promise((r) => setTimeout(r, 100));
        }
        const dispatchMs = Date.parse(done.completed_at) - Date.parse(done.created_at);
        gc();
        const retainedHeap = process.memoryUsage().heapUsed;
        return {
          retainedHeap,
          acceptMs,
          dispatchMs,
          relayLagMs,
          rate: count / (dispatchMs / 1000),
          peakRss,
          peakHeap,
          bytes: JSON.stringify(body).length,
          done,
        };
      };

      gc();
      const before = process.memoryUsage();
      // the first batch through a fresh process pays for JIT compilation and the first big buffers
      const cold = await batch(sandbox, 'sms', (n) => `+2547${30_000_000 + n * 10 + 5}`);
      const runs = [];
      for (let i = 0; i < 3; i++) runs.push(await batch(sandbox, 'sms', (n) => `+2547${20_000_000 + n * 10 + 5}`));
      const viaSmtp = await batch(live, 'email', (n) => `customer${n}@example.com`);
      if (smtp.received < RECIPIENTS) throw new Error(`the SMTP server received ${smtp.received} messages`);
      const lastLag = await relayed();
      await pool.end();

      const accept = median(runs.map((r) => r.acceptMs));
      const sandboxRate = median(runs.map((r) => r.rate));
      console.log(`10,000-recipient batch, body ${(runs[0].bytes / 1024 / 1024).toFixed(2)} MB, REST → gateway → notify, one process`);
      console.log(
        `  time to accept (202)       ${runs.map((r) => `${r.acceptMs.toFixed(0)} ms`).join(', ')}; median ${accept.toFixed(0)} ms = ${(accept / ACCEPT_TARGET_MS).toFixed(2)}× the 1 s target`,
      );
      console.log(
        `  time to accept, SMTP batch ${viaSmtp.acceptMs.toFixed(0)} ms; first batch of the process (cold) ${cold.acceptMs.toFixed(0)} ms`,
      );
      console.log(
        `  dispatch to sandbox        ${runs.map((r) => `${r.rate.toFixed(0)}`).join(', ')} msgs/s; median ${sandboxRate.toFixed(0)} msgs/s (${(RECIPIENTS / sandboxRate).toFixed(1)} s per batch)`,
      );
      console.log(
        `  dispatch to local SMTP     ${viaSmtp.rate.toFixed(0)} msgs/s (${(viaSmtp.dispatchMs / 1000).toFixed(1)} s; ${smtp.received} messages received; pool of ${config.SMTP_POOL_SIZE} connections)`,
      );
      console.log(`  SMTP / sandbox throughput  ${(viaSmtp.rate / sandboxRate).toFixed(2)}`);
      console.log(
        `  outbox relay catching up   ${[...runs, viaSmtp].map((r) => `${(r.relayLagMs / 1000).toFixed(1)} s`).join(', ')}, ${(lastLag / 1000).toFixed(1)} s after the batch completed (10,000 events each)`,
      );
      console.log(`  memory before              rss ${mb(before.rss)}, heap ${mb(before.heapUsed)}`);
      console.log(`  heap after each batch (GC) ${[cold, ...runs, viaSmtp].map((r) => mb(r.retainedHeap)).join(', ')}`);
      console.log(
        `  memory while dispatching   peak rss ${mb(Math.max(...runs.map((r) => r.peakRss)))} (sandbox), ${mb(viaSmtp.peakRss)} (SMTP); peak heap ${mb(Math.max(...runs.map((r) => r.peakHeap), viaSmtp.peakHeap))} (the whole process: stack, bench client, SMTP sink)`,
      );
    } finally {
      await stack.stop();
    }
  } finally {
    await smtp.close();
    await embedded?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
