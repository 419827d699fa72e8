import https from 'node:https';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface ReceivedRequest {
  headers: Record<string, string | string[] | undefined>;
  body: string;
  at: number;
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

/** A local HTTPS webhook receiver that records every request. */
export async function startReceiver(cert: { key: string; cert: string }, respond: Responder = () => 200) {
  const received: ReceivedRequest[] = [];
  const hanging: Array<() => void> = [];
  const server = https.createServer(cert, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const n = received.length;
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const answer = respond(n);
      if (answer === 'hang') {
        hanging.push(() => res.destroy());
        return;
      }
      res.writeHead(answer, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `https://127.0.0.1:${port}/hooks`,
    received,
    close: async () => {
      hanging.forEach((h) => h());
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
