import { USER_ERRORS } from '../../../../platform/rest/fragments.js';
import { camelKeys, SNAKE_CASE } from '../../../../platform/rest/mapping.js';
import type { Route } from '../../../../platform/rest/route.js';

const NOTIFICATION_RECIPIENT = /* GraphQL */ `
  fragment NotificationRecipientFields on NotificationRecipient {
    id
    email
    phone
    pushTokens
    webPushSubscriptions {
      endpoint
      keys {
        p256dh
        auth
      }
    }
    locale
    createdAt
    updatedAt
  }
`;

/** A recipient's contact points and preferences. */
export const recipientRoutes: Route[] = [
  {
    method: 'PUT',
    path: '/recipients/:id',
    summary: 'Create or update a recipient profile (fields given replace, null clears)',
    body: [
      { name: 'email', type: 'string' },
      { name: 'phone', type: 'string', description: 'E.164' },
      { name: 'push_tokens', type: { array: 'string' }, description: 'FCM registration tokens' },
      { name: 'web_push_subscriptions', type: { array: 'object' }, description: 'PushSubscription JSON: {endpoint, keys {p256dh, auth}}' },
      { name: 'locale', type: 'string' },
    ],
    example: { email: 'ada@example.com', phone: '+2348012345678', locale: 'en-NG' },
    operation: /* GraphQL */ `
      mutation UpsertNotificationRecipient($input: UpsertNotificationRecipientInput!) {
        upsertNotificationRecipient(input: $input) {
          notificationRecipient {
            ...NotificationRecipientFields
          }
          userErrors {
            ...UserErrorFields
          }
        }
      }
      ${NOTIFICATION_RECIPIENT}
      ${USER_ERRORS}
    `,
    variables: ({ params, body }) => ({ input: { ...camelKeys(body), id: params.id } }),
    result: (data) => data.upsertNotificationRecipient.notificationRecipient,
    response: SNAKE_CASE,
  },
  {
    method: 'GET',
    path: '/recipients/:id',
    summary: 'A recipient profile',
    operation: /* GraphQL */ `
      query NotificationRecipient($id: String!) {
        notificationRecipient(id: $id) {
          ...NotificationRecipientFields
        }
      }
      ${NOTIFICATION_RECIPIENT}
    `,
    variables: ({ params }) => ({ id: params.id }),
    response: SNAKE_CASE,
    notFound: 'Recipient',
  },
  {
    method: 'DELETE',
    path: '/recipients/:id',
    summary: 'Delete a recipient profile',
    operation: /* GraphQL */ `
      mutation DeleteNotificationRecipient($id: String!) {
        deleteNotificationRecipient(input: { id: $id }) {
          deletedNotificationRecipientId
          userErrors {
            ...UserErrorFields
          }
        }
      }
      ${USER_ERRORS}
    `,
    variables: ({ params }) => ({ id: params.id }),
    result: (data) => ({ id: data.deleteNotificationRecipient.deletedNotificationRecipientId, deleted: true }),
  },
];
