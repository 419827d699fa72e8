import { API_CLIENT, CREATED_API_CLIENT } from '../fragments.js';
import type { Route } from '../route.js';

export const adminRoutes: Route[] = [
  {
    method: 'POST',
    path: '/admin/api-clients',
    summary: 'Create an API client (header X-Admin-Secret); the API key is shown once',
    body: [
      { name: 'name', type: 'string', required: true },
      { name: 'permissions', type: { array: 'string' }, description: 'Empty or absent = all of the service' },
      { name: 'rateLimit', type: 'integer', description: 'Requests per minute' },
      {
        name: 'service',
        type: { enum: ['verification', 'risk', 'notify', 'all'] },
        description: 'Default verification; all = a key for every service',
      },
      { name: 'environment', type: { enum: ['live', 'test'] }, description: 'Default live' },
      { name: 'organizationId', type: 'string', description: 'A new organization when absent' },
    ],
    example: { name: 'checkout service', service: 'risk', environment: 'test', rateLimit: 600 },
    operation: /* GraphQL */ `
      mutation CreateApiClient($input: CreateApiClientInput!) {
        createApiClient(input: $input) {
          ...CreatedApiClientFields
        }
      }
      ${CREATED_API_CLIENT}
    `,
    variables: ({ body }) => ({ input: body }),
    status: 201,
  },
  {
    method: 'DELETE',
    path: '/admin/api-clients/:id',
    summary: 'Revoke an API client (header X-Admin-Secret): its key is refused from the next request on',
    operation: /* GraphQL */ `
      mutation RevokeApiClient($id: ID!) {
        revokeApiClient(id: $id) {
          ...ApiClientFields
        }
      }
      ${API_CLIENT}
    `,
    variables: ({ params }) => ({ id: params.id }),
  },
  {
    method: 'POST',
    path: '/admin/api-clients/:id/rotate',
    summary: 'Rotate an API client key (header X-Admin-Secret): the new key is shown once, the old one is refused from now on',
    operation: /* GraphQL */ `
      mutation RotateApiClientKey($id: ID!) {
        rotateApiClientKey(id: $id) {
          ...CreatedApiClientFields
        }
      }
      ${CREATED_API_CLIENT}
    `,
    variables: ({ params }) => ({ id: params.id }),
    status: 201,
  },
];
