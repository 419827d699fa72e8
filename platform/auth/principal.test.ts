import {
  PRINCIPAL_HEADER,
  PRINCIPAL_TTL_SECONDS,
  principalHeaders,
  readPrincipal,
  requestDigest,
  requestDigestOfJson,
  type Principal,
} from './principal.js';

const SECRET = 'internal-secret-for-tests';
const ADMIN: Principal = { kind: 'admin', organizationId: null, clientId: null, service: null, environment: 'live', permissions: [] };
const query = 'mutation($input: X!) { createIdentity(input: $input) { id } }';
const request = requestDigest({ query, variables: { input: { userId: 'u1' } } });
const scope = { audience: 'verification', request };

describe('signed principal', () => {
  const now = Date.UTC(2026, 10, 25, 12);
  const headers = principalHeaders(ADMIN, SECRET, scope, now);

  it('is accepted by its audience for its request before it expires', () => {
    expect(readPrincipal(headers, SECRET, scope, now + (PRINCIPAL_TTL_SECONDS - 1) * 1000)).toEqual(ADMIN);
  });

  it('cannot be replayed later, on another subgraph, or with another operation or variables', () => {
    expect(readPrincipal(headers, SECRET, scope, now + PRINCIPAL_TTL_SECONDS * 1000)).toBeNull();
    expect(readPrincipal(headers, SECRET, { ...scope, audience: 'notify' }, now)).toBeNull();
    expect(
      readPrincipal(headers, SECRET, { ...scope, request: requestDigest({ query, variables: { input: { userId: 'u2' } } }) }, now),
    ).toBeNull();
    expect(readPrincipal(headers, SECRET, { ...scope, request: requestDigest({ query: '{ apiClients { id } }' }) }, now)).toBeNull();
  });

  it('cannot be edited or signed with another secret', () => {
    const forged = principalHeaders({ ...ADMIN }, 'another-secret-entirely', scope, now);
    expect(readPrincipal(forged, SECRET, scope, now)).toBeNull();
    const edited = { ...headers, [PRINCIPAL_HEADER]: principalHeaders(ADMIN, SECRET, scope, now + 3_600_000)[PRINCIPAL_HEADER] };
    expect(readPrincipal(edited, SECRET, scope, now)).toBeNull();
  });

  it('binds files as null, as they travel in multipart parts', () => {
    class File {}
    const withFile = requestDigest({ query, variables: { file: new File() } }, (value) => value instanceof File);
    expect(withFile).toBe(requestDigest({ query, variables: { file: null } }));
  });

  it('is the same digested from the parts already serialised (the gateway sends that text)', () => {
    const variables = { representations: [{ __typename: 'User', id: '1', note: 'é "q"' }] };
    for (const operationName of ['Op', undefined]) {
      const json = requestDigestOfJson(JSON.stringify(query), JSON.stringify(operationName ?? null), JSON.stringify(variables));
      expect(json).toBe(requestDigest({ query, operationName, variables }));
    }
  });
});
