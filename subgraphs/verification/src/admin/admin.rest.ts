import { invalid } from '../../../../platform/errors.js';
import { USER_ERRORS } from '../../../../platform/rest/fragments.js';
import type { ResponseMapping } from '../../../../platform/rest/mapping.js';
import type { OperationData, Route } from '../../../../platform/rest/route.js';

const API_CLIENT = /* GraphQL */ `
  fragment ApiClientFields on ApiClient {
    id
    name
    organizationId
    service
    environment
    keyPrefix
    permissions
    rateLimit
    active
    createdAt
  }
`;

const SERVICES = ['verification', 'risk', 'notify', 'all'] as const;
const ENVIRONMENTS = ['live', 'test'] as const;
/** The spec's words with a new key (the graph shows a key once, as a field of the payload). */
const KEY_SHOWN_ONCE = 'Store this API key securely: it will not be shown again.';
/** The spec's client: service and environment in lower case (the graph's are SCREAMING_CASE). */
const API_CLIENT_BODY: ResponseMapping = { lowercase: ['service', 'environment'] };

/**
 * The spec's lower-case service and environment as the graph's enum values. A value the spec does
 * not list is refused as it always was (the graph's own names, `RISK`, are not the spec's).
 */
function graphEnums(body: Record<string, unknown>): Record<string, unknown> {
  const lists: Record<string, readonly string[]> = { service: SERVICES, environment: ENVIRONMENTS };
  const errors: string[] = [];
  const input = { ...body };
  for (const [name, values] of Object.entries(lists)) {
    const value = input[name];
    if (value === undefined || value === null) continue;
    if (typeof value === 'string' && values.includes(value)) input[name] = value.toUpperCase();
    else errors.push(`${name} must be one of: ${values.join(', ')}`);
  }
  if (errors.length) throw invalid(errors);
  return input;
}

/** A client with its new key, as the spec lists them. */
function withKey({ apiClient, apiKey }: OperationData) {
  const { id, name, organizationId, service, environment, keyPrefix, permissions, rateLimit, createdAt } = apiClient;
  return { id, name, organizationId, service, environment, apiKey, keyPrefix, permissions, rateLimit, message: KEY_SHOWN_ONCE, createdAt };
}

export const adminRoutes: Route[] = [
  {
    method: 'POST',
    path: '/admin/api-clients',
    summary: 'Create an API client (header X-Admin-Secret); the API key is shown once',
    body: [
      { name: 'name', type: 'string', required: true },
      { name: 'permissions', type: { array: 'string' }, description: 'Empty or absent = all of the service' },
      { name: 'rateLimit', type: 'integer', description: 'Requests per minute' },
      { name: 'service', type: { enum: SERVICES }, description: 'Default verification; all = a key for every service' },
      { name: 'environment', type: { enum: ENVIRONMENTS }, description: 'Default live' },
      { name: 'organizationId', type: 'string', description: 'A new organization when absent' },
    ],
    example: { name: 'checkout service', service: 'risk', environment: 'test', rateLimit: 600 },
    operation: /* GraphQL */ `
      mutation CreateApiClient($input: CreateApiClientInput!) {
        createApiClient(input: $input) {
          apiClient {
            ...ApiClientFields
          }
          apiKey
          userErrors {
            ...UserErrorFields
          }
        }
      }
      ${API_CLIENT}
      ${USER_ERRORS}
    `,
    variables: ({ body }) => ({ input: graphEnums(body) }),
    result: (data) => withKey(data.createApiClient),
    response: API_CLIENT_BODY,
    status: 201,
  },
  {
    method: 'DELETE',
    path: '/admin/api-clients/:id',
    summary: 'Revoke an API client (header X-Admin-Secret): its key is refused from the next request on',
    operation: /* GraphQL */ `
      mutation RevokeApiClient($id: ID!) {
        revokeApiClient(input: { id: $id }) {
          apiClient {
            ...ApiClientFields
          }
          userErrors {
            ...UserErrorFields
          }
        }
      }
      ${API_CLIENT}
      ${USER_ERRORS}
    `,
    variables: ({ params }) => ({ id: params.id }),
    result: (data) => data.revokeApiClient.apiClient,
    response: API_CLIENT_BODY,
  },
  {
    method: 'POST',
    path: '/admin/api-clients/:id/rotate',
    summary: 'Rotate an API client key (header X-Admin-Secret): the new key is shown once, the old one is refused from now on',
    operation: /* GraphQL */ `
      mutation RotateApiClientKey($id: ID!) {
        rotateApiClientKey(input: { id: $id }) {
          apiClient {
            ...ApiClientFields
          }
          apiKey
          userErrors {
            ...UserErrorFields
          }
        }
      }
      ${API_CLIENT}
      ${USER_ERRORS}
    `,
    variables: ({ params }) => ({ id: params.id }),
    result: (data) => withKey(data.rotateApiClientKey),
    response: API_CLIENT_BODY,
    status: 201,
  },
];
