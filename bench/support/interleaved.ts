import http from 'node:http';
import { cpuSeconds } from './cpu.js';
import type { LoadSpec } from './load.js';

export interface SideResult {
  requests: number;
  p50: number;
  p95: number;
  /** CPU milliseconds per request of the process measured, over this side's slices. */
  cpuMs: number;
}

/**
 * Two (or more) ways of asking for the same thing, measured in turns of `sliceMs` on the same
 * `connections` (closed loop, kept-alive `node:http`), so that both see the same moments of a
 * shared machine: the process `pid`'s CPU of each slice goes to that slice's side, and a request
 * counts for its side only if the turn has not changed by its answer. Runs in the bench's process
 * (never in the one measured); `spec.rotate` goes round its values in the path and the body.
 */
export async function interleaved(
  sides: Record<string, LoadSpec>,
  opts: { connections: number; seconds: number; warmupSeconds: number; sliceMs: number; pid: number },
): Promise<Record<string, SideResult>> {
  const names = Object.keys(sides);
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.connections });
  const latencies = new Map(names.map((n) => [n, [] as number[]]));
  const cpuMs = new Map(names.map((n) => [n, 0]));
  let sequence = 0;
  let turn = 0;
  let measuring = false;
  const ask = (side: string) =>
    new Promise<void>((resolve, reject) => {
      const spec = sides[side];
      const value = spec.rotate?.values[sequence++ % spec.rotate.values.length];
      const fill = (text: string) => (spec.rotate && value !== undefined ? text.replaceAll(spec.rotate.placeholder, value) : text);
      const req = http.request(fill(spec.url), { method: spec.method ?? 'GET', headers: spec.headers, agent }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`${side}: HTTP ${res.statusCode}`));
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end(spec.body === undefined ? undefined : fill(spec.body));
    });
  const started = Date.now();
  const end = started + (opts.warmupSeconds + opts.seconds) * 1000;
  let cpuAtTurn = cpuSeconds(opts.pid);
  const turns = setInterval(() => {
    const now = cpuSeconds(opts.pid);
    if (measuring) cpuMs.set(names[turn], cpuMs.get(names[turn])! + (now - cpuAtTurn) * 1000);
    cpuAtTurn = now;
    measuring = Date.now() >= started + opts.warmupSeconds * 1000;
    turn = (turn + 1) % names.length;
  }, opts.sliceMs);
  try {
    await Promise.all(
      Array.from({ length: opts.connections }, async () => {
        while (Date.now() < end) {
          const [side, counted, t] = [names[turn], measuring, performance.now()];
          await ask(side);
          if (counted && measuring && names[turn] === side) latencies.get(side)!.push(performance.now() - t);
        }
      }),
    );
  } finally {
    clearInterval(turns);
    agent.destroy();
  }
  const at = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
  return Object.fromEntries(
    names.map((n) => {
      const lat = latencies.get(n)!.sort((a, b) => a - b);
      return [n, { requests: lat.length, p50: at(lat, 50), p95: at(lat, 95), cpuMs: cpuMs.get(n)! / lat.length }];
    }),
  );
}
