import { RemoteGraphQLDataSource, type GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { BufferedUpload, findUploads } from './uploads.js';

type GatewayResponse = Awaited<ReturnType<RemoteGraphQLDataSource['process']>>;
type FetcherResponse = Parameters<RemoteGraphQLDataSource['errorFromResponse']>[0];

/** A copy of the variables with every file replaced by null, as the multipart spec's `operations` wants. */
function withoutUploads(value: unknown): unknown {
  if (value instanceof BufferedUpload) return null;
  if (Array.isArray(value)) return value.map(withoutUploads);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutUploads(v)]));
  return value;
}

/** The subgraph's operation as a graphql-multipart-request-spec form: `operations`, `map`, then one part per file. */
function multipartBody(request: GraphQLDataSourceProcessOptions['request'], uploads: Map<BufferedUpload, string[]>): FormData {
  const files = [...uploads];
  const form = new FormData();
  const operations = { query: request.query, operationName: request.operationName, variables: withoutUploads(request.variables) };
  form.append('operations', JSON.stringify(operations));
  form.append('map', JSON.stringify(Object.fromEntries(files.map(([, paths], i) => [String(i), paths]))));
  files.forEach(([upload], i) => form.append(String(i), new Blob([upload.content], { type: upload.mimetype }), upload.filename));
  return form;
}

/**
 * The gateway would serialise uploads into JSON; this data source sends a multipart request
 * instead when the subgraph operation's variables hold files (uploads are buffered at the edge).
 * `apollo-require-preflight` satisfies the subgraph's CSRF prevention for multipart bodies.
 */
export class UploadDataSource<TContext extends Record<string, any> = Record<string, any>> extends RemoteGraphQLDataSource<TContext> {
  override async process(options: GraphQLDataSourceProcessOptions<TContext>): Promise<GatewayResponse> {
    const uploads = findUploads(options.request.variables ?? {}, 'variables');
    if (uploads.size === 0) return super.process(options);

    const { request } = options;
    const headers = new Headers();
    for (const [name, value] of request.http?.headers ?? []) headers.append(name, value);
    request.http = { method: 'POST', url: this.url, headers };
    await this.willSendRequest?.(options);
    headers.delete('content-type'); // fetch sets the multipart boundary
    headers.set('apollo-require-preflight', 'true');

    const response = await fetch(this.url, { method: 'POST', headers, body: multipartBody(request, uploads) });
    const fetcherResponse = response as unknown as FetcherResponse;
    if (!response.ok) throw await this.errorFromResponse(fetcherResponse);
    const body = await this.parseBody(fetcherResponse);
    if (typeof body !== 'object' || body === null) throw new Error(`Expected a JSON response from ${this.url}`);
    return { ...(body as GatewayResponse), http: fetcherResponse };
  }
}
