import { rng } from '../../../../test/support/random.js';
import { VelocityCounters } from './graph.velocity.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const KEPT = 25 * HOUR;

/** What a subject counted, as a list: the windows summed over it the slow way. */
interface Counted {
  at: number;
  currency: string;
  count: number;
  sum: number;
}

function expected(events: Counted[], now: number, currency: string) {
  const thisMinute = Math.floor(now / MINUTE);
  const c = { count1h: 0, sum1h: 0, count24h: 0, sum24h: 0 };
  for (const e of events) {
    const minute = Math.floor(e.at / MINUTE);
    if (minute < thisMinute - 1439 || minute > thisMinute) continue;
    const sum = e.currency === currency ? e.sum : 0;
    c.count24h += e.count;
    c.sum24h += sum;
    if (minute >= thisMinute - 59) {
      c.count1h += e.count;
      c.sum1h += sum;
    }
  }
  return c;
}

describe('velocity counters in typed arrays', () => {
  it('answer the 1 h and 24 h windows of every subject as its transfers listed would, over a day and a half of random counts', () => {
    const random = rng(7);
    const emptied: string[] = [];
    const counters = new VelocityCounters<string, number>((owner) => emptied.push(owner));
    const live = new Map<string, { subject: number; events: Counted[] }>();
    let now = Date.UTC(2026, 0, 1);
    let gone = 0;
    for (let step = 0; step < 12_000; step++) {
      now += Math.floor(random() * 20_000);
      // the subjects drift: each is counted for a while, then falls silent and expires
      const name = `s${Math.floor(step / 30) + Math.floor(random() * 120)}`;
      let held = live.get(name);
      if (!held) live.set(name, (held = { subject: counters.open(name, 0), events: [] }));
      // mostly now, sometimes a few minutes back (a load in time order of an older batch)
      const at = random() < 0.9 ? now : now - Math.floor(random() * 10) * MINUTE;
      const currency = random() < 0.85 ? 'NGN' : random() < 0.5 ? 'USD' : 'KES';
      const amount = Math.round(random() * 100_000) / 100;
      const undo = random() < 0.05 && held.events.length > 0;
      const event = undo ? { ...held.events.at(-1)!, count: -1, sum: -held.events.at(-1)!.sum } : { at, currency, count: 1, sum: amount };
      counters.add(held.subject, event.at, event.currency, event.count, event.sum);
      held.events.push(event);
      counters.expire(now - KEPT);
      // a subject is emptied once all its minutes are past the kept window (in the order its buckets came)
      for (const owner of emptied) {
        if (!live.get(owner)!.events.every((e) => e.at < now - KEPT + 10 * MINUTE)) throw new Error(`${owner} emptied too soon`);
        live.delete(owner);
        gone += 1;
      }
      emptied.length = 0;
      if (step % 601 === 0) {
        const wrong: string[] = [];
        for (const [owner, h] of live) {
          for (const currency of ['NGN', 'USD', 'XOF']) {
            const got = counters.windows(h.subject, now, currency);
            const want = expected(h.events, now, currency);
            const close = (x: number, y: number) => Math.abs(x - y) < 1e-6;
            if (
              got.count1h !== want.count1h ||
              got.count24h !== want.count24h ||
              !close(got.sum1h, want.sum1h) ||
              !close(got.sum24h, want.sum24h)
            )
              wrong.push(`${owner} ${currency}: ${JSON.stringify(got)} ≠ ${JSON.stringify(want)}`);
          }
        }
        expect(wrong).toEqual([]);
      }
    }
    // subjects came and went (their numbers reused), and many are still held
    expect(gone).toBeGreaterThan(50);
    expect(live.size).toBeGreaterThan(100);
  });

  it('tells the holder once, with its role and key, when a subject’s last minute expires; its number is reused', () => {
    const told: Array<[string, number, string | undefined]> = [];
    const counters = new VelocityCounters<string, string>((owner, role, key) => told.push([owner, role, key]));
    const t0 = Date.UTC(2026, 0, 1);
    const a = counters.open('alice', 3, 'bob');
    const b = counters.open('carol', 1);
    counters.add(a, t0, 'NGN', 1, 10);
    counters.add(b, t0 + HOUR, 'NGN', 1, 5);
    counters.add(a, t0 + 2 * HOUR, 'NGN', 1, 20);
    counters.expire(t0);
    expect(told).toEqual([]);
    expect(counters.windows(a, t0 + 2 * HOUR, 'NGN')).toEqual({ count1h: 1, sum1h: 20, count24h: 2, sum24h: 30 });
    counters.expire(t0 + HOUR + MINUTE);
    expect(told).toEqual([['carol', 1, undefined]]);
    expect(counters.open('dave', 0)).toBe(b);
    counters.expire(t0 + 3 * HOUR);
    expect(told).toEqual([
      ['carol', 1, undefined],
      ['alice', 3, 'bob'],
    ]);
  });
});
