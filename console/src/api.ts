import { createClient, type Client } from 'graphql-ws';

/** The graph's endpoint on the console's own origin (the gateway serves both). */
const GRAPHQL_PATH = new URL('../graphql', location.href);

export interface UserError {
  field: string[] | null;
  code: string;
  message: string;
}

/** A GraphQL error answer, or a refused request (401, 403, 429…), in the API's words. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

/** One connection to the graph with the reviewer's credential: HTTP for queries and mutations, graphql-ws for feeds. */
export class Api {
  private ws: Client | undefined;
  private readonly reconnected = new Set<() => void>();
  private readonly viewed = new Set<() => void>();

  constructor(private readonly credential: string) {}

  private get headers() {
    return { authorization: `Bearer ${this.credential}` };
  }

  async request<T = any>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
    const response = await fetch(GRAPHQL_PATH, {
      method: 'POST',
      credentials: 'omit',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json', ...this.headers },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json().catch(() => null)) as {
      data?: T;
      errors?: Array<{ message: string; extensions?: { code?: string } }>;
    } | null;
    const error = body?.errors?.[0];
    if (error) throw new ApiError(error.message, error.extensions?.code);
    if (!response.ok || !body?.data) throw new ApiError(`The API answered ${response.status}`, undefined);
    return body.data;
  }

  /** Follows a subscription; returns the function that stops it. */
  subscribe<T = any>(
    query: string,
    onData: (data: T) => void,
    onError: (error: ApiError) => void,
    variables: Record<string, unknown> = {},
  ): () => void {
    this.ws ??= createClient({
      url: GRAPHQL_PATH.href.replace(/^http/, 'ws'),
      connectionParams: this.headers,
      // a dropped connection comes back (what happened meanwhile is read again: onReconnect), a refused credential does not
      retryAttempts: Infinity,
      shouldRetry: (event) =>
        !(event && typeof (event as CloseEvent).code === 'number' && [4401, 4403].includes((event as CloseEvent).code)),
      on: {
        connected: (_socket, _payload, wasRetry) => {
          if (wasRetry) this.reconnected.forEach((listener) => listener());
        },
      },
    });
    return this.ws.subscribe<T>(
      { query, variables },
      {
        next: (value) => {
          if (value.errors?.length)
            onError(new ApiError(value.errors[0]!.message, (value.errors[0]!.extensions as { code?: string })?.code));
          else if (value.data) onData(value.data);
        },
        error: (error) => onError(new ApiError(closeMessage(error), undefined)),
        complete: () => undefined,
      },
    );
  }

  /** Called after the live connection came back: events of the gap were missed. */
  onReconnect(listener: () => void): () => void {
    this.reconnected.add(listener);
    return () => this.reconnected.delete(listener);
  }

  /**
   * A document image or selfie (`/files/<id>`), fetched with the credential (an <img> cannot send
   * it) and shown from a blob: URL. The API serves it to the owning organization only.
   */
  async file(path: string): Promise<string> {
    const response = await fetch(new URL(`..${path}`, location.href), { credentials: 'omit', headers: this.headers });
    if (!response.ok) {
      const body = (await response.json().catch(() => null)) as { message?: string | string[] } | null;
      throw new ApiError([body?.message ?? `The API answered ${response.status}`].flat().join('; '), undefined);
    }
    const url = URL.createObjectURL(await response.blob());
    // the view is in the audit trail by now (recorded before the bytes were sent)
    this.viewed.forEach((listener) => listener());
    return url;
  }

  /** Called after each file was viewed: the audit trail on screen has a new entry. */
  onFileViewed(listener: () => void): () => void {
    this.viewed.add(listener);
    return () => this.viewed.delete(listener);
  }

  close(): void {
    void this.ws?.dispose();
  }
}

function closeMessage(error: unknown): string {
  if (Array.isArray(error)) return error.map((e) => e.message).join('; ');
  if (error && typeof (error as CloseEvent).code === 'number') {
    const { code, reason } = error as CloseEvent;
    return `The live connection closed (${code}${reason ? `: ${reason}` : ''})`;
  }
  return error instanceof Error ? error.message : String(error);
}
