import https from 'node:https';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';

export interface ReceivedRequest {
  headers: Record<string, string | string[] | undefined>;
  body: string;
  at: number;
}

/** Receivers still open: `closeReceivers` (run after every test, see cleanup.ts) closes them. */
const open = new Set<() => Promise<void>>();

export async function closeReceivers(): Promise<void> {
  await Promise.all([...open].map((close) => close()));
}

/** What the receiver answers to the n-th request (0-based): a status, or 'hang' to never answer. */
export type Responder = (n: number) => number | 'hang';

/** A self-signed certificate for 127.0.0.1/localhost, made with the openssl CLI. */
export function selfSignedCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'receiver-cert-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(path.join(dir, 'key.pem'), 'utf8'), cert: readFileSync(path.join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * What a receiver does with the official Standard Webhooks library: check the signature, id and
 * timestamp headers against the endpoint's secret; answers the verified payload, throws otherwise.
 */
export function verifiedPayload(secret: string, req: ReceivedRequest): any {
  return new Webhook(secret).verify(req.body, req.headers as Record<string, string>);
}

/**
 * A local HTTPS webhook receiver that records every request. Its URL names the host `localhost`
 * (not an IP literal), as a customer's endpoint names its host: the delivery resolves and pins it.
 * `port`: the port of a receiver an earlier test closed (its webhooks' URLs reach the new one).
 */
export async function startReceiver(cert: { key: string; cert: string }, respond: Responder = () => 200, port = 0) {
  const received: ReceivedRequest[] = [];
  const hanging: Array<() => void> = [];
  const waiting: Array<{ n: number; resolve: () => void }> = [];
  const server = https.createServer(cert, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const n = received.length;
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      for (const w of waiting.filter((w) => received.length >= w.n)) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve();
      }
      const answer = respond(n);
      if (answer === 'hang') {
        hanging.push(() => res.destroy());
        return;
      }
      res.writeHead(answer, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  // `localhost` may resolve to ::1 before 127.0.0.1: listen on both
  await new Promise<void>((resolve) => server.listen({ port, host: '::', ipv6Only: false }, resolve));
  const listening = (server.address() as { port: number }).port;
  const close = async () => {
    if (!open.delete(close)) return;
    hanging.forEach((h) => h());
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  };
  open.add(close);
  return {
    url: `https://localhost:${listening}/hooks`,
    received,
    /** Resolves once `n` requests have arrived (whatever the answer). */
    requests: (n: number) => (received.length >= n ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ n, resolve }))),
    close,
  };
}
