import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface NatsServer {
  url: string;
  /** Stops the server (SIGTERM, then SIGKILL); `kill: true` kills it at once (a crash). */
  stop(opts?: { keepStorage?: boolean }): Promise<void>;
  process: ChildProcess;
  storeDir: string;
}

/** Why NATS suites skip on this machine, or null when `nats-server` is on PATH (`.ci/run` installs it). */
export function natsUnavailable(): string | null {
  const found = spawnSync('nats-server', ['--version'], { encoding: 'utf8' });
  if (found.error || found.status !== 0)
    return 'nats-server is not on PATH (apt-get install -y nats-server): the NATS event-bus tests are skipped';
  return null;
}

/** The transports suites run on: PostgreSQL always, NATS when nats-server is installed (else a printed reason). */
export function eventTransports(): Array<'postgres' | 'nats'> {
  const reason = natsUnavailable();
  if (reason) console.warn(reason);
  return reason ? ['postgres'] : ['postgres', 'nats'];
}

/**
 * A nats-server with JetStream of its own: a random port, a temporary storage folder (`storeDir`
 * reuses one, as a restart does). Resolves once it accepts clients.
 */
export async function startNatsServer(opts: { port?: number; storeDir?: string } = {}): Promise<NatsServer> {
  const storeDir = opts.storeDir ?? mkdtempSync(path.join(tmpdir(), 'nats-test-'));
  const child = spawn('nats-server', ['-js', '-a', '127.0.0.1', '-p', String(opts.port ?? -1), '-sd', storeDir], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let log = '';
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      const port = /Listening for client connections on [^:\s]+:(\d+)/.exec(log)?.[1];
      if (port && /Server is ready/.test(log)) {
        child.stderr!.off('data', onData);
        child.stderr!.resume();
        resolve(`nats://127.0.0.1:${port}`);
      }
    };
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`nats-server exited (${code}) before it was ready:\n${log}`)));
    child.once('error', reject);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url,
    process: child,
    storeDir,
    async stop({ keepStorage = false } = {}) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      if (!keepStorage) rmSync(storeDir, { recursive: true, force: true });
    },
  };
}
