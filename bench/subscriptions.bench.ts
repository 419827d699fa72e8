import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { BENCH_DIR, f0, f1, table } from './support/processes.js';
import { ADMIN_SECRET, REPO, rest, startPlatform, type Layout, type Running } from './stack.bench.js';
import { verdict } from './support/targets.js';

/**
 * Subscriptions (issue 14, item 6; issue 31, item 5): SUBSCRIPTION_BENCH_SUBSCRIBERS (1000) graphql-ws subscribers on
 * one gateway (`npm start`, one event loop), each its own socket, in SUBSCRIPTION_BENCH_PROCESSES (2)
 * processes of their own, all following the organization's AML screenings
 * (`amlScreeningUpdatedForOrganization`) with API keys of one organization (a key may hold 100
 * subscriptions per gateway). Each of SUBSCRIPTION_BENCH_ROUNDS (20) rounds screens a listed name
 * (not timed; its own event reaches every subscriber before the next step), then resolves its first
 * hit — the review call — and times, from the moment the call
 * is sent, the event's arrival at every subscriber: p50/p99 over all arrivals, and the last
 * subscriber's arrival per round (median and worst); where the time goes: the call's own answer (its
 * transaction committed) and the first subscriber's arrival (medians). Memory per subscriber: the `npm start`
 * process's RSS with the subscribers connected minus before, over their number. BENCH_BASE_DIR:
 * another built checkout measured the same way first (before/after).
 */
const SUBSCRIBERS = Number(process.env.SUBSCRIPTION_BENCH_SUBSCRIBERS ?? 1000);
const PROCESSES = Number(process.env.SUBSCRIPTION_BENCH_PROCESSES ?? 2);
const ROUNDS = Number(process.env.SUBSCRIPTION_BENCH_ROUNDS ?? 20);
const PER_KEY = 100;
const QUERY = 'subscription { event: amlScreeningUpdatedForOrganization { type node { id } } }';
/** On the OFAC SDN list shipped as default data. */
const LISTED = { fullName: 'Joaquin Guzman Loera', dateOfBirth: '1954-12-25' };

const rssKb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
const now = () => performance.timeOrigin + performance.now();
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;

interface SubscriberProcess {
  child: ChildProcess;
  ready: Promise<void>;
  /** Resolves with the arrivals of one event (`<id> <type>`, or the first of an id: `<id> `) once this process reported it. */
  arrivals(event: string): Promise<number[]>;
}

function subscribers(url: string, keys: string[], count: number): SubscriberProcess {
  const child = spawn(
    process.execPath,
    [path.join(BENCH_DIR, 'support', 'subscribers.js'), JSON.stringify({ url, keys, count, query: QUERY })],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const reported = new Map<string, number[]>();
  const waiting: Array<{ event: string; resolve: (arrivals: number[]) => void }> = [];
  const matches = (event: string, wanted: string) => event === wanted || (wanted.endsWith(' ') && event.startsWith(wanted));
  let onReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => {
    onReady = resolve;
    child.once('exit', (code) => reject(new Error(`subscribers exited with ${code}`)));
  });
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const message = JSON.parse(line) as { ready?: number; event?: string; arrivals?: number[] };
    if (message.ready) return onReady();
    if (!message.event) return;
    reported.set(message.event, message.arrivals!);
    for (const [i, waiter] of waiting.entries()) {
      if (!matches(message.event, waiter.event)) continue;
      waiting.splice(i, 1);
      return waiter.resolve(message.arrivals!);
    }
  });
  return {
    child,
    ready,
    arrivals: (event) =>
      new Promise((resolve) => {
        const done = [...reported].find(([key]) => matches(key, event));
        if (done) return resolve(done[1]);
        waiting.push({ event, resolve });
      }),
  };
}

interface Figures {
  /** the review call's own answer (its transaction committed), median */
  answered: number;
  /** the first subscriber's arrival, median */
  first: number;
  p50: number;
  p99: number;
  lastMedian: number;
  lastWorst: number;
  missed: number;
  kbPerSubscriber: number;
}

async function measure(layout: Layout): Promise<Figures> {
  console.log(`… starting ${layout.name}`);
  const platform: Running = await startPlatform(layout);
  const procs: SubscriberProcess[] = [];
  try {
    const admin = { 'x-admin-secret': ADMIN_SECRET };
    const first = await rest(
      platform.urls.rest,
      'POST',
      '/admin/api-clients',
      { name: 'screens 0', service: 'verification', rateLimit: 1_000_000 },
      admin,
    );
    const keys: string[] = [first.body.apiKey];
    for (let i = 1; i < Math.ceil(SUBSCRIBERS / PER_KEY); i++) {
      const res = await rest(
        platform.urls.rest,
        'POST',
        '/admin/api-clients',
        { name: `screens ${i}`, service: 'verification', rateLimit: 1_000_000, organizationId: first.body.organizationId },
        admin,
      );
      keys.push(res.body.apiKey);
    }
    const headers = { 'x-api-key': keys[0]! };
    /** A screening with a hit (the default lists load in the background after the first start). */
    const screened = async (): Promise<{ id: string; matchId: string }> => {
      for (const deadline = Date.now() + 120_000; Date.now() < deadline;) {
        const res = await rest(platform.urls.rest, 'POST', '/v1/screening/aml', { userId: 'screen-user', ...LISTED }, headers);
        if (res.body?.matches?.length) return { id: res.body.id, matchId: res.body.matches[0].id };
        await new Promise((r) => setTimeout(r, 500));
      }
      throw new Error('no hit for the listed name: are the default lists loaded?');
    };
    /** The review call: resolves the hit; returns when it was sent and the event's key. */
    const review = async (s: { id: string; matchId: string }) => {
      const sent = now();
      const res = await fetch(platform.urls.gateway, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({
          query: `mutation($input: ResolveAmlMatchInput!) { resolveAmlMatch(input: $input) { amlScreening { id status } userErrors { message } } }`,
          variables: {
            input: { screeningId: s.id, matchId: s.matchId, resolution: 'FALSE_POSITIVE', reason: 'bench', resolvedBy: 'bench' },
          },
        }),
      });
      const body = (await res.json()) as { data?: { resolveAmlMatch: { amlScreening: { status: string } } }; errors?: unknown };
      if (!body.data) throw new Error(`resolveAmlMatch: ${JSON.stringify(body.errors)}`);
      const type = body.data.resolveAmlMatch.amlScreening.status === 'CLEAR' ? 'AML_CLEAR' : 'AML_MATCH_RESOLVED';
      return { sent, answered: now() - sent, event: `${s.id} ${type}` };
    };

    /** Every subscriber process's arrivals of one event; a clear failure rather than a wait without end. */
    const arrived = async (event: string) => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the subscribers did not report the event "${event}" within 60 s`)), 60_000);
      });
      try {
        return await Promise.race([Promise.all(procs.map((p) => p.arrivals(event))), late]);
      } finally {
        clearTimeout(timer);
      }
    };

    await screened(); // lists loaded
    const before = rssKb(platform.pid);
    const per = Math.ceil(SUBSCRIBERS / PROCESSES);
    for (let p = 0; p < PROCESSES; p++) {
      // each process takes whole keys: at most PER_KEY subscriptions per key
      const share = Math.min(per, SUBSCRIBERS - p * per);
      const own = keys.slice((p * per) / PER_KEY, Math.ceil((p * per + share) / PER_KEY));
      procs.push(subscribers(platform.urls.gateway.replace(/^http/, 'ws'), own, share));
    }
    await Promise.all(procs.map((p) => p.ready));
    // warm-up: every subscriber had one event (its subscription is served)
    const warm = await review(await screened());
    await arrived(warm.event);
    const kbPerSubscriber = (rssKb(platform.pid) - before) / SUBSCRIBERS;

    const all: number[] = [];
    const last: number[] = [];
    const firsts: number[] = [];
    const answered: number[] = [];
    let missed = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const s = await screened();
      // the screening's own event reaches every subscriber first: the review's event is timed alone
      await arrived(`${s.id} `);
      const call = await review(s);
      const { sent, event } = call;
      answered.push(call.answered);
      const arrivals = (await arrived(event)).flat();
      missed += SUBSCRIBERS - arrivals.length;
      const latencies = arrivals.map((at) => at - sent);
      all.push(...latencies);
      last.push(Math.max(...latencies));
      firsts.push(Math.min(...latencies));
    }
    return {
      answered: pct(answered, 50),
      first: pct(firsts, 50),
      p50: pct(all, 50),
      p99: pct(all, 99),
      lastMedian: pct(last, 50),
      lastWorst: Math.max(...last),
      missed,
      kbPerSubscriber,
    };
  } finally {
    for (const p of procs) p.child.kill('SIGTERM');
    await platform.stop();
  }
}

export async function run(): Promise<void> {
  // an idle heap's compaction between the two readings of the resident set would count as memory given back by subscribers
  const env = { IDLE_COMPACTION_SECONDS: '0' };
  const layouts: Layout[] = [
    ...(process.env.BENCH_BASE_DIR ? [{ name: 'base', root: path.resolve(process.env.BENCH_BASE_DIR), env, operations: false }] : []),
    { name: 'this build', root: REPO, env, operations: false },
  ];
  const rows: string[][] = [];
  for (const layout of layouts) {
    let f: Figures;
    try {
      f = await measure(layout);
    } catch (error) {
      // one build failing (the base has lost an event in some runs) leaves the others' figures
      console.log(`${layout.name}: ${(error as Error).message}`);
      rows.push([layout.name, 'failed', '', '', '', '', '', '', '']);
      continue;
    }
    if (layout.name === 'this build') {
      verdict({
        item: '31.5',
        figure: `review call → each of ${SUBSCRIBERS} subscribers, p99; memory per subscriber`,
        measured: `${f1(f.p99)} ms; ${f1(f.kbPerSubscriber)} kB`,
        target: '≤ 50 ms',
        met: f.p99 <= 50 && f.missed === 0,
      });
    }
    rows.push([
      layout.name,
      f1(f.answered),
      f1(f.first),
      f1(f.p50),
      f1(f.p99),
      f1(f.lastMedian),
      f1(f.lastWorst),
      f0(f.missed),
      f1(f.kbPerSubscriber),
    ]);
  }
  console.log(`${SUBSCRIBERS} subscribers in ${PROCESSES} processes, ${ROUNDS} review calls; ms from the call`);
  table(['build', 'call answered', 'first (median)', 'p50', 'p99', 'last (median)', 'last (worst)', 'missed', 'kB/subscriber'], rows);
}
