import { RemoteGraphQLDataSource, type GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { findFileParts, multipartOperation } from '../platform/graphql/upload.js';

type GatewayResponse = Awaited<ReturnType<RemoteGraphQLDataSource['process']>>;
type FetcherResponse = Parameters<RemoteGraphQLDataSource['errorFromResponse']>[0];

/**
 * The gateway would serialise uploads into JSON; this data source sends a multipart request
 * instead when the subgraph operation's variables hold files (uploads are buffered at the edge).
 * `apollo-require-preflight` satisfies the subgraph's CSRF prevention for multipart bodies.
 */
export class UploadDataSource<TContext extends Record<string, any> = Record<string, any>> extends RemoteGraphQLDataSource<TContext> {
  override async process(options: GraphQLDataSourceProcessOptions<TContext>): Promise<GatewayResponse> {
    if (findFileParts(options.request.variables ?? {}, 'variables').size === 0) return super.process(options);

    const { request } = options;
    const headers = new Headers();
    for (const [name, value] of request.http?.headers ?? []) headers.append(name, value);
    request.http = { method: 'POST', url: this.url, headers };
    await this.willSendRequest?.(options);
    headers.delete('content-type'); // fetch sets the multipart boundary
    headers.set('apollo-require-preflight', 'true');

    const response = await fetch(this.url, { method: 'POST', headers, body: multipartOperation(request) });
    const fetcherResponse = response as unknown as FetcherResponse;
    if (!response.ok) throw await this.errorFromResponse(fetcherResponse);
    const body = await this.parseBody(fetcherResponse);
    if (typeof body !== 'object' || body === null) throw new Error(`Expected a JSON response from ${this.url}`);
    return { ...(body as GatewayResponse), http: fetcherResponse };
  }
}
