import { RemoteGraphQLDataSource, type GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { hasFileParts, multipartOperation } from '../platform/graphql/upload.js';
import { fetcherResponse, joinOrCall } from './http-fetcher.js';
import { fetchOutcome, type FetchOutcome } from '../platform/metrics/graphql.js';
import type { Principal } from '../platform/auth/principal.js';

type GatewayResponse = Awaited<ReturnType<RemoteGraphQLDataSource['process']>>;
type FetcherResponse = Parameters<RemoteGraphQLDataSource['errorFromResponse']>[0];

/**
 * Apollo's remote data source, sending over `joinOrCall` (node:http, or in-process; an identical
 * query in flight for the same caller is joined, see `sharedAs`). The gateway would
 * serialise uploads into JSON; this data source sends a multipart request instead when the
 * subgraph operation's variables hold files (uploads are buffered at the edge).
 * `apollo-require-preflight` satisfies the subgraph's CSRF prevention for multipart bodies.
 */
export class UploadDataSource<TContext extends Record<string, any> = Record<string, any>> extends RemoteGraphQLDataSource<TContext> {
  constructor(
    url: string,
    /** Told of every call's outcome and its start (`performance.now()`): the gateway's metrics. */
    private readonly observe?: (outcome: FetchOutcome, started: number) => void,
  ) {
    super({ url });
  }

  /** Who the call is for, when identical calls for the same caller may share one (`joinOrCall`); undefined: never. */
  protected sharedAs(_options: GraphQLDataSourceProcessOptions<TContext>): string | undefined {
    return undefined;
  }

  /** The caller, handed as is to a subgraph in this process (`callSubgraph`); undefined: none. */
  protected principal(_options: GraphQLDataSourceProcessOptions<TContext>): Principal | undefined {
    return undefined;
  }

  /** Headers that sign the caller's principal for this call (over HTTP; in-process without `principal`). */
  protected signature(_options: GraphQLDataSourceProcessOptions<TContext>): Record<string, string> {
    return {};
  }

  override async process(options: GraphQLDataSourceProcessOptions<TContext>): Promise<GatewayResponse> {
    const started = performance.now();
    const answer: { status?: number; errors?: unknown } = {};
    try {
      const response = await this.send(options, (status) => (answer.status = status));
      answer.errors = response.errors;
      return response;
    } catch (error) {
      // a 2xx whose body could not be read failed all the same
      answer.errors = [error];
      throw error;
    } finally {
      this.observe?.(fetchOutcome(answer.status === undefined ? null : { status: answer.status, errors: answer.errors }), started);
    }
  }

  /** The call itself; `answered` is told the HTTP status once the subgraph answered. */
  private async send(options: GraphQLDataSourceProcessOptions<TContext>, answered: (status: number) => void): Promise<GatewayResponse> {
    const { request } = options;
    const headers = new Headers();
    for (const [name, value] of request.http?.headers ?? []) headers.append(name, value);
    headers.set('content-type', 'application/json');
    request.http = { method: 'POST', url: this.url, headers } as never;
    if (!request.query) throw new Error('Missing query');

    let response: FetcherResponse;
    // files come from the caller's request only (the context says whether it had any)
    if ((options.context as { uploads?: boolean }).uploads && hasFileParts(request.variables)) {
      await this.willSendRequest?.(options);
      for (const [name, value] of Object.entries(this.signature(options))) headers.set(name, value);
      headers.delete('content-type'); // fetch sets the multipart boundary
      headers.set('apollo-require-preflight', 'true');
      response = (await fetch(this.url, { method: 'POST', headers, body: multipartOperation(request) })) as unknown as FetcherResponse;
    } else {
      const { http: _http, ...operation } = request;
      const body = JSON.stringify(operation);
      const answer = await joinOrCall(
        this.url,
        body,
        this.sharedAs(options),
        async (signed) => {
          await this.willSendRequest?.(options);
          return { ...Object.fromEntries(headers), ...(signed && this.signature(options)) };
        },
        this.principal(options),
      );
      response = fetcherResponse(this.url, answer) as unknown as FetcherResponse;
    }
    answered(response.status);
    if (!response.ok) throw await this.errorFromResponse(response);
    const body = await this.parseBody(response);
    if (typeof body !== 'object' || body === null) throw new Error(`Expected a JSON response from ${this.url}`);
    return { ...(body as GatewayResponse), http: response };
  }
}
