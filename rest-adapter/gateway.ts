import { AppError } from '../platform/errors.js';
import { hasFileParts, multipartOperation } from '../platform/graphql/upload.js';

/** Longest wait for one GraphQL operation before answering 503. */
export const GATEWAY_TIMEOUT_MS = 30_000;
/** Readiness probe budget: `/ready` must answer quickly. */
const PROBE_TIMEOUT_MS = 2_000;
/** Seconds a client is told to wait when the gateway cannot be reached. */
export const UNAVAILABLE_RETRY_AFTER_S = 5;

export interface GraphQLErrorShape {
  message?: string;
  extensions?: { code?: unknown; messages?: unknown; retryAfter?: unknown };
}

export interface GatewayReply {
  status: number;
  headers: Headers;
  data?: Record<string, unknown> | null;
  errors?: GraphQLErrorShape[];
}

export interface GatewayClient {
  /** `request.bodyBytes`: the size of the caller's body, when known (the gateway's body limits apply to it). */
  execute(
    operation: string,
    variables: Record<string, unknown>,
    headers: Record<string, string>,
    request?: { bodyBytes?: number },
  ): Promise<GatewayReply>;
  /** Checks the credentials in `headers` without running anything: null when valid, else the gateway's refusal. */
  checkCredentials(headers: Record<string, string>): Promise<Pick<GatewayReply, 'status' | 'errors'> | null>;
  /** An uploaded file (`/files/<id>`): its bytes, or the gateway's refusal. */
  getFile(
    id: string,
    headers: Record<string, string>,
  ): Promise<{ ok: true; contentType: string; bytes: Buffer } | { ok: false; status: number; errors: GraphQLErrorShape[] }>;
  /** True when the gateway answers HTTP at all (any status: auth errors still prove it is up). */
  reachable(): Promise<boolean>;
}

/** Where the gateway answers credential checks (gateway/side-routes.ts AUTH_CHECK_PATH), next to its GraphQL endpoint. */
const authCheckUrl = (graphqlUrl: string) => new URL('/auth/check', graphqlUrl).toString();

export function createGatewayClient(url: string): GatewayClient {
  const post = (body: unknown, headers: Record<string, string>, timeoutMs: number) =>
    fetch(url, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });

  /** An operation whose variables hold files, as the graphql-multipart-request-spec sends it. */
  const postMultipart = (operation: string, variables: Record<string, unknown>, headers: Record<string, string>) => {
    return fetch(url, {
      method: 'POST',
      // the gateway reads multipart only from a request that says it is not a simple CSRF-able form
      headers: { ...headers, accept: 'application/json', 'apollo-require-preflight': 'true' },
      body: multipartOperation({ query: operation, variables }),
      signal: AbortSignal.timeout(GATEWAY_TIMEOUT_MS),
    });
  };

  return {
    async execute(operation, variables, headers) {
      let response: Response;
      let text: string;
      try {
        response = await (hasFileParts(variables)
          ? postMultipart(operation, variables, headers)
          : post({ query: operation, variables }, headers, GATEWAY_TIMEOUT_MS));
        text = await response.text();
      } catch {
        throw new AppError('UNAVAILABLE', 'The service is temporarily unavailable', { retryAfter: UNAVAILABLE_RETRY_AFTER_S });
      }
      const body = parseGraphQLResponse(text);
      // Anything else is a gateway fault, not the caller's: the 500 path logs it with an error id.
      if (!body) throw new Error(`Gateway answered HTTP ${response.status} with no GraphQL response: ${text.slice(0, 200)}`);
      return { status: response.status, headers: response.headers, ...body };
    },

    async checkCredentials(headers) {
      let response: Response;
      let text: string;
      try {
        response = await fetch(authCheckUrl(url), { headers, signal: AbortSignal.timeout(GATEWAY_TIMEOUT_MS) });
        text = await response.text();
      } catch {
        throw new AppError('UNAVAILABLE', 'The service is temporarily unavailable', { retryAfter: UNAVAILABLE_RETRY_AFTER_S });
      }
      if (response.status === 204) return null;
      const body = parseGraphQLResponse(text);
      if (!body) throw new Error(`Gateway answered the credential check with HTTP ${response.status}: ${text.slice(0, 200)}`);
      return { status: response.status, errors: body.errors };
    },

    async getFile(id, headers) {
      let response: Response;
      let bytes: Buffer;
      try {
        response = await fetch(new URL(`/files/${encodeURIComponent(id)}`, url), {
          headers,
          signal: AbortSignal.timeout(GATEWAY_TIMEOUT_MS),
        });
        bytes = Buffer.from(await response.arrayBuffer());
      } catch {
        throw new AppError('UNAVAILABLE', 'The service is temporarily unavailable', { retryAfter: UNAVAILABLE_RETRY_AFTER_S });
      }
      if (response.ok) return { ok: true, contentType: response.headers.get('content-type') ?? 'application/octet-stream', bytes };
      const body = parseGraphQLResponse(bytes.toString('utf8'));
      if (!body?.errors)
        throw new Error(`Gateway answered a file download with HTTP ${response.status}: ${bytes.toString('utf8', 0, 200)}`);
      return { ok: false, status: response.status, errors: body.errors };
    },

    async reachable() {
      try {
        await (await post({ query: '{ __typename }' }, {}, PROBE_TIMEOUT_MS)).arrayBuffer();
        return true;
      } catch {
        return false;
      }
    },
  };
}

/**
 * A gateway in this process (gateway.ts `RunningGateway`): the same authentication, limits and
 * pipeline as its HTTP endpoint, without the loopback round trip.
 */
export interface LocalGateway {
  execute(request: {
    query: string;
    variables: Record<string, unknown>;
    headers: Record<string, string>;
    ip?: string;
    bodyBytes?: number;
  }): Promise<{ status: number; headers: Headers } & ({ body: string } | { result: { data?: unknown; errors?: unknown[] } })>;
  checkCredentials(headers: Record<string, string>, ip?: string): Promise<{ status: number; body: string } | null>;
}

/** The client's address, which the HTTP client sends as X-Forwarded-For. */
const CLIENT_IP_HEADER = 'x-forwarded-for';

/**
 * Operations and credential checks go to the gateway of this process; file downloads and the
 * readiness probe still use its HTTP endpoint (`http`).
 */
export function createLocalGatewayClient(local: LocalGateway, http: GatewayClient): GatewayClient {
  return {
    async execute(operation, variables, headers, request) {
      const reply = await local.execute({
        query: operation,
        variables,
        headers,
        ip: headers[CLIENT_IP_HEADER],
        bodyBytes: request?.bodyBytes,
      });
      // the single-fetch shortcut's answer comes as a value: no JSON round trip in this process
      const body = 'result' in reply ? (reply.result as Pick<GatewayReply, 'data' | 'errors'>) : parseGraphQLResponse(reply.body);
      if (!body)
        throw new Error(
          `Gateway answered HTTP ${reply.status} with no GraphQL response: ${(reply as { body: string }).body.slice(0, 200)}`,
        );
      return { status: reply.status, headers: reply.headers, ...body };
    },
    async checkCredentials(headers) {
      const refused = await local.checkCredentials(headers, headers[CLIENT_IP_HEADER]);
      if (!refused) return null;
      return { status: refused.status, errors: parseGraphQLResponse(refused.body)?.errors };
    },
    getFile: (id, headers) => http.getFile(id, headers),
    reachable: async () => true,
  };
}

function parseGraphQLResponse(text: string): Pick<GatewayReply, 'data' | 'errors'> | undefined {
  try {
    const body = JSON.parse(text) as Pick<GatewayReply, 'data' | 'errors'> | null;
    if (
      body &&
      typeof body === 'object' &&
      ((Array.isArray(body.errors) && body.errors.length > 0) || (body.data && typeof body.data === 'object'))
    ) {
      return body;
    }
  } catch {
    // not JSON: reported by the caller
  }
  return undefined;
}
