import { createClient, type Client } from 'graphql-ws';

/**
 * The page's one way to the API, with the flow's session token: `POST …/flow/<link>/session` once
 * to open the link, then the public graph at `<prefix>/graphql` over HTTP (JSON, or multipart per
 * graphql-multipart-request-spec when a variable holds a file) and graphql-ws at the same path.
 */

export type StepName = 'DOCUMENT' | 'LIVENESS' | 'PHONE' | 'EMAIL' | 'ADDRESS';
export const STEP_NAMES: StepName[] = ['DOCUMENT', 'LIVENESS', 'PHONE', 'EMAIL', 'ADDRESS'];
export type StepStatus = 'NOT_STARTED' | 'IN_PROGRESS' | 'PROCESSING' | 'PASSED' | 'FAILED' | 'MANUAL_REVIEW';

export interface FlowInfo {
  id: string;
  userId: string;
  organizationName: string;
  steps: StepName[];
  locale?: string | null;
  redirectUrl?: string | null;
  branding?: { logoUrl?: string | null; primaryColor?: string | null; accentColor?: string | null } | null;
  expiresAt: string;
}

export interface OpenedFlow {
  sessionToken: string;
  expiresAt: string;
  flow: FlowInfo;
}

export interface UserError {
  field: string[] | null;
  code: string;
  message: string;
}

/**
 * What went wrong, as the API said it: `code` is a GraphQL error's `extensions.code` or a user
 * error's code, `status` the HTTP status when the request itself was refused. Never shown as is
 * (errors.ts turns it into an instruction).
 */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    readonly status?: number,
    readonly field?: string[] | null,
  ) {
    super(message);
  }
}

/** Where the gateway serves the API, from the page's own address (`<prefix>/flow/<link>`). */
export function locate(href: string = location.href): { prefix: string; linkToken: string | null; origin: string } {
  const url = new URL(href);
  const match = /^(.*)\/flow\/([A-Za-z0-9_-]+)\/?$/.exec(url.pathname);
  return { origin: url.origin, prefix: match ? match[1]! : '', linkToken: match ? match[2]! : null };
}

/**
 * Opens the one-use link: the session token and the flow, or an ApiError with the HTTP status
 * (404: unknown link; 409 CONFLICT: already opened, or expired — `message` says which).
 */
export async function openFlow(base: string, linkToken: string): Promise<OpenedFlow> {
  let response: Response;
  try {
    response = await fetch(`${base}/flow/${encodeURIComponent(linkToken)}/session`, {
      method: 'POST',
      credentials: 'omit',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: '{}',
    });
  } catch {
    throw new ApiError('network', 'NETWORK');
  }
  const body = (await response.json().catch(() => null)) as
    (OpenedFlow & { errors?: Array<{ message?: string; extensions?: { code?: string } }> }) | null;
  if (response.ok && body?.sessionToken) return body;
  const error = body?.errors?.[0];
  throw new ApiError(error?.message ?? `HTTP ${response.status}`, error?.extensions?.code ?? statusCode(response.status), response.status);
}

/** A graphql-ws close code that means the credential is refused (4401 expired, 4403 forbidden). */
const CLOSED_FOR_CREDENTIAL = [4401, 4403];

function hasFile(value: unknown): boolean {
  if (value instanceof Blob) return true;
  if (!value || typeof value !== 'object') return false;
  return Object.values(value).some(hasFile);
}

/** graphql-multipart-request-spec: `operations` with files as null, `map`, one part per file. */
export function multipartBody(query: string, variables: Record<string, unknown>): FormData {
  const files: Array<[Blob, string]> = [];
  const strip = (value: unknown, path: string): unknown => {
    if (value instanceof Blob) {
      files.push([value, path]);
      return null;
    }
    if (Array.isArray(value)) return value.map((item, i) => strip(item, `${path}.${i}`));
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, strip(v, `${path}.${k}`)]));
    return value;
  };
  const operations = { query, variables: strip(variables, 'variables') };
  const form = new FormData();
  form.append('operations', JSON.stringify(operations));
  form.append('map', JSON.stringify(Object.fromEntries(files.map(([, path], i) => [String(i), [path]]))));
  files.forEach(([file], i) => form.append(String(i), file, file instanceof File ? file.name : `photo-${i}.jpg`));
  return form;
}

export class FlowApi {
  private ws: Client | undefined;
  private readonly reconnected = new Set<() => void>();
  private readonly endpoint: string;
  /** Called once when the API refuses the session token (expired): the flow can go no further. */
  onSessionEnded: (() => void) | undefined;

  constructor(
    base: string,
    private readonly token: string,
  ) {
    this.endpoint = `${base}/graphql`;
  }

  async request<T = any>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
    const multipart = hasFile(variables);
    let response: Response;
    try {
      response = await fetch(this.endpoint, {
        method: 'POST',
        credentials: 'omit',
        headers: {
          authorization: `Bearer ${this.token}`,
          accept: 'application/graphql-response+json, application/json',
          // a multipart request is one a form could send: Apollo's CSRF check wants this header on it
          ...(multipart ? { 'apollo-require-preflight': 'true' } : { 'content-type': 'application/json' }),
        },
        body: multipart ? multipartBody(query, variables) : JSON.stringify({ query, variables }),
      });
    } catch {
      throw new ApiError('network', 'NETWORK');
    }
    const body = (await response.json().catch(() => null)) as {
      data?: T;
      errors?: Array<{ message: string; extensions?: { code?: string } }>;
    } | null;
    const error = body?.errors?.[0];
    const code = error?.extensions?.code ?? statusCode(response.status);
    if (code === 'UNAUTHENTICATED') this.onSessionEnded?.();
    if (error) throw new ApiError(error.message, code, response.status);
    if (!response.ok || !body?.data) throw new ApiError(`HTTP ${response.status}`, code, response.status);
    return body.data;
  }

  /** Follows a subscription; returns the function that stops it. */
  subscribe<T = any>(
    query: string,
    variables: Record<string, unknown>,
    onData: (data: T) => void,
    onError: (error: ApiError) => void,
  ): () => void {
    this.ws ??= createClient({
      url: new URL(this.endpoint, location.href).href.replace(/^http/, 'ws'),
      connectionParams: { authorization: `Bearer ${this.token}` },
      // a dropped connection comes back (what happened meanwhile is read again: onReconnect), a refused credential does not
      retryAttempts: Infinity,
      shouldRetry: (event) => !isCredentialClose(event),
      on: {
        connected: (_socket, _payload, wasRetry) => {
          if (wasRetry) this.reconnected.forEach((listener) => listener());
        },
        closed: (event) => {
          if (isCredentialClose(event)) this.onSessionEnded?.();
        },
      },
    });
    return this.ws.subscribe<T>(
      { query, variables },
      {
        next: (value) => {
          const error = value.errors?.[0];
          if (error) onError(new ApiError(error.message, (error.extensions as { code?: string } | undefined)?.code));
          else if (value.data) onData(value.data);
        },
        error: (error) => onError(new ApiError('subscription', isCredentialClose(error) ? 'UNAUTHENTICATED' : 'NETWORK')),
        complete: () => undefined,
      },
    );
  }

  /** Called after the live connection came back: events of the gap were missed, read the record again. */
  onReconnect(listener: () => void): () => void {
    this.reconnected.add(listener);
    return () => this.reconnected.delete(listener);
  }

  close(): void {
    void this.ws?.dispose();
    this.ws = undefined;
  }
}

function isCredentialClose(event: unknown): boolean {
  return !!event && typeof (event as CloseEvent).code === 'number' && CLOSED_FOR_CREDENTIAL.includes((event as CloseEvent).code);
}

function statusCode(status: number): string | undefined {
  return (
    {
      401: 'UNAUTHENTICATED',
      403: 'FORBIDDEN',
      404: 'NOT_FOUND',
      409: 'CONFLICT',
      413: 'PAYLOAD_TOO_LARGE',
      415: 'UNSUPPORTED_MEDIA_TYPE',
      429: 'RATE_LIMITED',
    } as Record<number, string>
  )[status];
}
