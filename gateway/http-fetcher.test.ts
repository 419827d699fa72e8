import { createServer } from 'node:net';
import { createServer as createHttpServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Principal } from '../platform/auth/principal.js';
import { PRINCIPAL } from './testing/test-stack.js';
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
      const answer = await callSubgraph(url, { headers: () => ({ 'x-one': '1' }), body: '{"query":"{a}"}' });
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

  it('hands the caller to a subgraph in this process without signing; declined, the call goes over HTTP signed', async () => {
    const received: IncomingHttpHeaders[] = [];
    const server = createHttpServer((req, res) => {
      received.push(req.headers);
      req.resume().on('end', () => res.end('{"data":{}}'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
    const seen: Array<{ headers: Record<string, string>; principal?: Principal }> = [];
    let decline = false;
    const unserve = serveInProcess(url, async (request) => {
      seen.push(request);
      return decline ? null : { status: 200, headers: new Headers(), text: '{"data":{"local":true}}' };
    });
    const headers = (signed: boolean) => ({ 'x-request-id': 'r', ...(signed && { 'x-principal-signature': 'signed' }) });
    try {
      expect((await callSubgraph(url, { headers, body: '{}', principal: PRINCIPAL })).text).toBe('{"data":{"local":true}}');
      expect(seen[0]).toMatchObject({ headers: { 'x-request-id': 'r' }, principal: PRINCIPAL });
      expect(seen[0].headers['x-principal-signature']).toBeUndefined();
      // no principal to hand over: signed in-process too, as over HTTP
      await callSubgraph(url, { headers, body: '{}' });
      expect(seen[1].headers['x-principal-signature']).toBe('signed');
      decline = true;
      expect((await callSubgraph(url, { headers, body: '{}', principal: PRINCIPAL })).text).toBe('{"data":{}}');
      expect(received).toHaveLength(1);
      expect(received[0]['x-principal-signature']).toBe('signed');
    } finally {
      unserve();
      server.close();
    }
  });
});
