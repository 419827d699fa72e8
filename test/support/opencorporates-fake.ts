import http from 'node:http';
import type { Socket } from 'node:net';

/** What the fake answers for one company number: a company record, a status, silence, or a body that is not JSON. */
export type FakeAnswer = { company: Record<string, unknown> } | { status: number; body?: unknown } | { hang: true } | { malformed: string };

export interface FakeRequest {
  method: string;
  jurisdiction: string;
  companyNumber: string;
  apiToken: string | null;
}

/** A company record shaped like OpenCorporates' `results.company` (API v0.4). */
export function openCorporatesCompany(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'KILIMO FRESH PRODUCE LIMITED',
    company_number: 'C.123456',
    jurisdiction_code: 'ke',
    incorporation_date: '2015-03-12',
    dissolution_date: null,
    company_type: 'Private Company Limited by Shares',
    registry_url: null,
    branch: null,
    branch_status: null,
    inactive: false,
    current_status: 'Registered',
    created_at: '2016-01-04T10:11:12+00:00',
    updated_at: '2026-10-01T08:00:00+00:00',
    retrieved_at: '2026-10-01T08:00:00+00:00',
    opencorporates_url: 'https://opencorporates.com/companies/ke/C.123456',
    previous_names: [],
    source: { publisher: 'Business Registration Service', url: null, retrieved_at: '2026-10-01T08:00:00+00:00' },
    registered_address: { street_address: 'Kilimo House, Moi Avenue', locality: 'Nairobi', postal_code: '00100', country: 'Kenya' },
    registered_address_in_full: 'Kilimo House, Moi Avenue, Nairobi, 00100',
    industry_codes: [],
    identifiers: [],
    officers: [
      {
        officer: {
          id: 901,
          name: 'WANJIKU KAMAU',
          position: 'director',
          start_date: '2015-03-12',
          end_date: null,
          opencorporates_url: 'https://opencorporates.com/officers/901',
          occupation: null,
          inactive: false,
        },
      },
      {
        officer: {
          id: 902,
          name: 'FORMER SECRETARY',
          position: 'secretary',
          start_date: '2015-03-12',
          end_date: '2019-06-30',
          opencorporates_url: 'https://opencorporates.com/officers/902',
          inactive: true,
        },
      },
    ],
    ...over,
  };
}

/**
 * A local HTTP server speaking OpenCorporates' company endpoint:
 * `GET /v0.4/companies/{jurisdiction_code}/{company_number}?api_token=…` → 200
 * `{api_version, results: {company}}`, 404 `{error: {message}}` for an unknown number, 401 for a
 * wrong token. `answers(number, …)` scripts one number: each request takes the next answer, the
 * last one repeats.
 */
export async function startOpenCorporatesFake(apiToken: string) {
  const scripts = new Map<string, FakeAnswer[]>();
  const requests: FakeRequest[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const m = /^\/v0\.4\/companies\/([^/]+)\/([^/]+)$/.exec(url.pathname);
    if (!m) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"Not found"}}');
    const request = {
      method: req.method ?? '',
      jurisdiction: decodeURIComponent(m[1]),
      companyNumber: decodeURIComponent(m[2]),
      apiToken: url.searchParams.get('api_token'),
    };
    requests.push(request);
    if (request.apiToken !== apiToken) {
      return void res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"message":"Invalid Api Token"}}');
    }
    const script = scripts.get(request.companyNumber);
    const answer: FakeAnswer = (script && script.length > 1 ? script.shift() : script?.[0]) ?? {
      status: 404,
      body: { error: { message: 'No company found' } },
    };
    if ('hang' in answer) return; // never answers: the adapter's timeout decides
    if ('malformed' in answer) return void res.writeHead(200, { 'content-type': 'application/json' }).end(answer.malformed);
    if ('company' in answer) {
      return void res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ api_version: '0.4', results: { company: answer.company } }));
    }
    res
      .writeHead(answer.status, { 'content-type': 'application/json' })
      .end(JSON.stringify(answer.body ?? { error: { message: 'error' } }));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '::', ipv6Only: false }, resolve));
  const { port } = server.address() as { port: number };
  return {
    // a host name, not an address literal: resolved as in production (the listener is dual-stack)
    url: `http://localhost:${port}`,
    requests,
    answers(companyNumber: string, ...answers: FakeAnswer[]) {
      scripts.set(companyNumber, answers);
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
