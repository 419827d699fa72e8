import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { serveInProcess } from '../platform/http/in-process.js';
import { callSubgraph } from './http-fetcher.js';

/** A loopback port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('callSubgraph', () => {
  it('a subgraph served in this process answers without HTTP; one that declines goes over HTTP', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/graphql`;
    const seen: Array<{ headers: Record<string, string>; body: string }> = [];
    let decline = false;
    const unserve = serveInProcess(url, async (request) => {
      seen.push(request);
      return decline ? null : { status: 200, headers: new Headers({ 'content-type': 'application/json' }), text: '{"data":{}}' };
    });
    try {
      const answer = await callSubgraph(url, { headers: { 'x-one': '1' }, body: '{"query":"{a}"}' });
      expect(answer).toMatchObject({ status: 200, text: '{"data":{}}' });
      expect(seen).toEqual([{ headers: { 'x-one': '1' }, body: '{"query":"{a}"}' }]);
      // the same port by another loopback name is the same subgraph
      expect((await callSubgraph(url.replace('127.0.0.1', 'localhost'), { body: '{}' })).status).toBe(200);
      decline = true;
      await expect(callSubgraph(url, { body: '{}' })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    } finally {
      unserve();
    }
    // gone: HTTP again
    await expect(callSubgraph(url, { body: '{}' })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(seen).toHaveLength(3);
  });
});
