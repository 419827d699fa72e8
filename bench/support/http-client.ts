import { Agent, request } from 'node:http';

/**
 * A JSON request over kept-alive node:http connections, for load loops the bench drives itself:
 * undici's fetch costs the load generator several times more CPU per request, CPU the two cores
 * then lack for the stack measured.
 */
export function jsonClient(maxSockets: number) {
  const agent = new Agent({ keepAlive: true, maxSockets });
  const send = (url: string, method: string, body: unknown, headers: Record<string, string>) =>
    new Promise<{ status: number; body: any }>((resolve, reject) => {
      const payload = body === undefined ? '' : JSON.stringify(body);
      const req = request(
        url,
        {
          method,
          agent,
          headers: { ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}), ...headers },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('error', reject);
          res.on('end', () => {
            try {
              resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null });
            } catch (err) {
              reject(err);
            }
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  return { send, close: () => agent.destroy() };
}
