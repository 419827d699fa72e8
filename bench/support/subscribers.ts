import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

/**
 * Subscribers in a process of their own (bench/subscriptions.bench.ts): argv[2] is
 * `{ url, keys, count, query }`; opens `count` graphql-ws connections (one socket each, the keys
 * taken in turn), each with the subscription `query`. Prints `{"ready": count}` once every socket is
 * acknowledged, then for every event one line per event id once all subscribers had it (or after
 * 5 s): `{"event": "<node id> <event type>", "arrivals": [epoch ms…]}`. Exits on SIGTERM.
 */
const { url, keys, count, query } = JSON.parse(process.argv[2]!) as { url: string; keys: string[]; count: number; query: string };
const now = () => performance.timeOrigin + performance.now();
const pending = new Map<string, { arrivals: number[]; timer: NodeJS.Timeout }>();
const report = (id: string) => {
  const event = pending.get(id);
  if (!event) return;
  pending.delete(id);
  clearTimeout(event.timer);
  process.stdout.write(`${JSON.stringify({ event: id, arrivals: event.arrivals })}\n`);
};

const clients: Client[] = [];
let acknowledged = 0;
for (let i = 0; i < count; i++) {
  const client = createClient({
    url,
    webSocketImpl: WebSocket,
    connectionParams: { 'x-api-key': keys[i % keys.length]! },
    lazy: false,
    retryAttempts: 0,
    on: {
      connected: () => {
        if (++acknowledged === count) process.stdout.write(`${JSON.stringify({ ready: count })}\n`);
      },
    },
    onNonLazyError: (error) => process.stderr.write(`subscriber ${i}: ${String(error)}\n`),
  });
  clients.push(client);
  client.subscribe<{ event: { type: string; node: { id: string } } }>(
    { query },
    {
      next: (value) => {
        const at = now();
        const received = value.data?.event;
        const id = received && `${received.node.id} ${received.type}`;
        if (!id) return process.stderr.write(`subscriber ${i}: ${JSON.stringify(value.errors)}\n`);
        let event = pending.get(id);
        if (!event) {
          event = { arrivals: [], timer: setTimeout(() => report(id), 5_000) };
          pending.set(id, event);
        }
        event.arrivals.push(at);
        if (event.arrivals.length === count) report(id);
      },
      error: (error) => process.stderr.write(`subscriber ${i}: ${JSON.stringify(error)}\n`),
      complete: () => undefined,
    },
  );
}
process.on('SIGTERM', () => {
  for (const client of clients) void client.dispose();
  process.exit(0);
});
