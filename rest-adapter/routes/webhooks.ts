import { CREATED_WEBHOOK, DELETED_WEBHOOK, WEBHOOK } from '../fragments.js';
import type { Route } from '../route.js';

export const webhookRoutes: Route[] = [
  {
    method: 'POST',
    path: '/webhooks/configure',
    summary: 'Configure a webhook; the signing secret is shown once',
    body: [
      { name: 'clientId', type: 'string', required: true },
      { name: 'callbackUrl', type: 'string', required: true, description: 'HTTPS URL' },
      { name: 'events', type: { array: 'string' }, required: true, description: 'At least one' },
    ],
    example: {
      clientId: '0d9f5f3e-2c57-4a43-9d1e-6a1b2c3d4e5f',
      callbackUrl: 'https://hooks.example.com/verification',
      events: ['identity.verified', 'identity.rejected'],
    },
    operation: /* GraphQL */ `
      mutation ConfigureWebhook($input: ConfigureWebhookInput!) {
        configureWebhook(input: $input) {
          ...CreatedWebhookFields
        }
      }
      ${CREATED_WEBHOOK}
    `,
    variables: ({ body }) => ({ input: body }),
    status: 201,
  },
  {
    method: 'GET',
    path: '/webhooks/client/:clientId',
    summary: "List a client's webhooks",
    operation: /* GraphQL */ `
      query WebhooksByClient($clientId: String!) {
        webhooksByClient(clientId: $clientId) {
          ...WebhookFields
        }
      }
      ${WEBHOOK}
    `,
    variables: ({ params }) => ({ clientId: params.clientId }),
  },
  {
    method: 'DELETE',
    path: '/webhooks/:id',
    summary: 'Deactivate a webhook',
    operation: /* GraphQL */ `
      mutation DeleteWebhook($id: ID!) {
        deleteWebhook(id: $id) {
          ...DeletedWebhookFields
        }
      }
      ${DELETED_WEBHOOK}
    `,
    variables: ({ params }) => ({ id: params.id }),
  },
];
