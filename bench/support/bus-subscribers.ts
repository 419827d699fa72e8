import { createLogger } from '../../platform/logger.js';
import { EventStream } from '../../platform/events/event-stream.js';
import { NatsBus } from '../../platform/events/nats-bus.js';

/**
 * One "gateway process" of the event-bus bench: an EventStream on the transport it is given (LISTEN
 * on PostgreSQL, or the NATS bus) with `count` subscribers; prints `{"ready":true}`, then for every
 * event one line `{"resourceId", "arrivals": [epoch ms per subscriber]}`.
 */
const { databaseUrl, bus: busUrl, count } = JSON.parse(process.argv[2]!) as { databaseUrl: string; bus?: string; count: number };
const logger = createLogger('bench-bus', 'warn');
const bus = busUrl ? await NatsBus.connect(busUrl, logger) : null;
const events = new EventStream(databaseUrl, logger, bus);
await events.start();
const now = () => performance.timeOrigin + performance.now();
const arrivals = new Map<string, number[]>();
for (let i = 0; i < count; i++) {
  const iterator = events.subscribe((n) => n.resourceType === 'bench');
  void (async () => {
    for await (const e of iterator) {
      const list = arrivals.get(e.resourceId) ?? [];
      list.push(now());
      arrivals.set(e.resourceId, list);
      if (list.length === count) {
        arrivals.delete(e.resourceId);
        process.stdout.write(JSON.stringify({ resourceId: e.resourceId, arrivals: list }) + '\n');
      }
    }
  })();
}
process.stdout.write(JSON.stringify({ ready: true }) + '\n');
process.once('SIGTERM', () => {
  void events
    .stop()
    .then(() => bus?.close())
    .finally(() => process.exit(0));
});
