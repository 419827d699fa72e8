import { NOTIFICATION, NOTIFICATION_BATCH, NOTIFICATION_RECIPIENT, NOTIFICATION_TEMPLATE, SANDBOX_MESSAGE } from '../fragments.js';
import { camelKeys, SNAKE_CASE, type ResponseMapping } from '../mapping.js';
import type { Route } from '../route.js';

/**
 * Part B of the spec (notification dispatch), plus templates, recipients and the sandbox outbox.
 * Bodies and answers use the spec's snake_case (`notification_id`, `latency_ms`, `opened_at`…);
 * the GraphQL fields are their camelCase twins. Invalid bodies are 400 (the spec's Part B rule).
 */

const NOTIFICATION_BODY: ResponseMapping = {
  case: 'snake',
  rename: { id: 'notification_id' },
  keyBy: { channels: 'channel' },
  // Opens are tracked for email only: other channels have no opened_at at all.
  keepIf: { 'channels.openedAt': (channel) => channel.channel === 'email' },
};
const BATCH_BODY: ResponseMapping = {
  case: 'snake',
  rename: { id: 'batch_id', channelProgress: 'channels' },
  keyBy: { channelProgress: 'channel' },
};
/** `content` lists only the template's channels. */
const TEMPLATE_BODY: ResponseMapping = { case: 'snake', rename: { id: 'template_id' }, withoutNulls: ['content'] };

const PAGE_QUERY = [
  { name: 'page', type: 'integer', description: 'Default 1' },
  { name: 'limit', type: 'integer', description: 'Default 20, at most 100' },
] as const;

const CHANNELS = { array: { enum: ['email', 'sms', 'push'] } } as const;

export const notifyRoutes: Route[] = [
  {
    method: 'POST',
    path: '/send',
    summary: 'Send one notification (202: accepted, status dispatched); Idempotency-Key header returns the first result again',
    body: [
      { name: 'to', type: 'string', required: true, description: 'Recipient id, or an email address / E.164 number used directly' },
      { name: 'template', type: 'string', required: true, description: 'Template name' },
      { name: 'channels', type: CHANNELS, required: true },
      { name: 'data', type: 'object', description: 'Values of the template placeholders' },
      { name: 'template_version', type: 'integer', description: 'Default: the latest version' },
    ],
    example: { to: '+2348012345678', template: 'welcome', channels: ['sms'], data: { first_name: 'Ada' } },
    operation: /* GraphQL */ `
      mutation SendNotification($input: SendNotificationInput!) {
        sendNotification(input: $input) {
          ...NotificationFields
        }
      }
      ${NOTIFICATION}
    `,
    variables: ({ body }) => ({ input: camelKeys(body) }),
    response: NOTIFICATION_BODY,
    status: 202,
  },
  {
    method: 'POST',
    path: '/send/batch',
    summary: 'Send a template to up to 10,000 recipients (202: batch_id, total, queued, status processing)',
    body: [
      { name: 'template', type: 'string', required: true, description: 'Template name' },
      { name: 'channels', type: CHANNELS, required: true },
      { name: 'recipients', type: { array: 'object' }, required: true, description: 'Up to 10,000 of {to, data}' },
      { name: 'template_version', type: 'integer', description: 'Default: the latest version' },
    ],
    // 10,000 recipients with their data do not fit in the default 2 MB
    bodyLimit: '10mb',
    example: {
      template: 'welcome',
      channels: ['sms'],
      recipients: [
        { to: '+2348012345678', data: { first_name: 'Ada' } },
        { to: 'ada@example.com', data: { first_name: 'Ada' } },
      ],
    },
    operation: /* GraphQL */ `
      mutation SendNotificationBatch($input: SendNotificationBatchInput!) {
        sendNotificationBatch(input: $input) {
          ...NotificationBatchFields
        }
      }
      ${NOTIFICATION_BATCH}
    `,
    variables: ({ body }) => ({ input: camelKeys(body) }),
    response: BATCH_BODY,
    status: 202,
  },
  {
    method: 'GET',
    path: '/send/batch/:id',
    summary: 'Batch progress',
    operation: /* GraphQL */ `
      query NotificationBatch($id: ID!) {
        notificationBatch(id: $id) {
          ...NotificationBatchFields
        }
      }
      ${NOTIFICATION_BATCH}
    `,
    variables: ({ params }) => ({ id: params.id }),
    response: BATCH_BODY,
  },
  {
    method: 'GET',
    path: '/notifications',
    summary: 'List notifications, newest first (a batch: in recipient order)',
    query: [
      { name: 'batch_id', type: 'string' },
      { name: 'status', type: { enum: ['dispatched', 'delivered', 'partially_delivered', 'failed'] } },
      { name: 'to', type: 'string' },
      ...PAGE_QUERY,
    ],
    operation: /* GraphQL */ `
      query Notifications($batchId: ID, $status: NotificationStatus, $to: String, $page: Int, $limit: Int) {
        notifications(batchId: $batchId, status: $status, to: $to, page: $page, limit: $limit) {
          data {
            ...NotificationFields
          }
          total
          page
          limit
        }
      }
      ${NOTIFICATION}
    `,
    variables: ({ query }) => camelKeys(query),
    response: { ...NOTIFICATION_BODY, records: 'data' },
  },
  {
    method: 'GET',
    path: '/notifications/:id',
    summary: 'A notification with the status of each channel',
    operation: /* GraphQL */ `
      query Notification($id: ID!) {
        notification(id: $id) {
          ...NotificationFields
        }
      }
      ${NOTIFICATION}
    `,
    variables: ({ params }) => ({ id: params.id }),
    response: NOTIFICATION_BODY,
  },
  {
    method: 'POST',
    path: '/templates',
    summary: 'Save a template: a new immutable version of the name (201)',
    body: [
      { name: 'name', type: 'string', required: true },
      {
        name: 'channels',
        type: 'object',
        required: true,
        description: 'email {subject, html}, sms {body}, push {title, body}; placeholders {{field}}',
      },
    ],
    example: {
      name: 'welcome',
      channels: {
        email: { subject: 'Welcome, {{first_name}}', html: '<p>Hello {{first_name}}</p>' },
        sms: { body: 'Hello {{first_name}}' },
      },
    },
    operation: /* GraphQL */ `
      mutation CreateNotificationTemplate($input: CreateNotificationTemplateInput!) {
        createNotificationTemplate(input: $input) {
          ...NotificationTemplateFields
        }
      }
      ${NOTIFICATION_TEMPLATE}
    `,
    variables: ({ body }) => ({ input: body }),
    response: TEMPLATE_BODY,
    status: 201,
  },
  {
    method: 'GET',
    path: '/templates',
    summary: 'The latest version of every template',
    query: [...PAGE_QUERY],
    operation: /* GraphQL */ `
      query NotificationTemplates($page: Int, $limit: Int) {
        notificationTemplates(page: $page, limit: $limit) {
          data {
            ...NotificationTemplateFields
          }
          total
          page
          limit
        }
      }
      ${NOTIFICATION_TEMPLATE}
    `,
    variables: ({ query }) => query,
    response: { ...TEMPLATE_BODY, records: 'data' },
  },
  {
    method: 'GET',
    path: '/templates/:name/versions',
    summary: 'Every version of a template, newest first',
    operation: /* GraphQL */ `
      query NotificationTemplateVersions($name: String!) {
        notificationTemplateVersions(name: $name) {
          ...NotificationTemplateFields
        }
      }
      ${NOTIFICATION_TEMPLATE}
    `,
    variables: ({ params }) => ({ name: params.name }),
    result: (data) => ({ versions: data.notificationTemplateVersions }),
    response: { ...TEMPLATE_BODY, records: 'versions' },
  },
  {
    method: 'GET',
    path: '/templates/:name',
    summary: 'A template: the latest version, or ?version=N',
    query: [{ name: 'version', type: 'integer' }],
    operation: /* GraphQL */ `
      query NotificationTemplate($name: String!, $version: Int) {
        notificationTemplate(name: $name, version: $version) {
          ...NotificationTemplateFields
        }
      }
      ${NOTIFICATION_TEMPLATE}
    `,
    variables: ({ params, query }) => ({ name: params.name, version: query.version }),
    response: TEMPLATE_BODY,
  },
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
      mutation UpsertNotificationRecipient($id: String!, $input: NotificationRecipientInput!) {
        upsertNotificationRecipient(id: $id, input: $input) {
          ...NotificationRecipientFields
        }
      }
      ${NOTIFICATION_RECIPIENT}
    `,
    variables: ({ params, body }) => ({ id: params.id, input: camelKeys(body) }),
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
  },
  {
    method: 'DELETE',
    path: '/recipients/:id',
    summary: 'Delete a recipient profile',
    operation: /* GraphQL */ `
      mutation DeleteNotificationRecipient($id: String!) {
        deleteNotificationRecipient(id: $id) {
          id
          deleted
        }
      }
    `,
    variables: ({ params }) => ({ id: params.id }),
  },
  {
    method: 'GET',
    path: '/sandbox/messages',
    summary: 'What the sandbox providers "sent" (test keys; live channels without a provider), newest first',
    query: [
      { name: 'notification_id', type: 'string' },
      { name: 'channel', type: { enum: ['email', 'sms', 'push'] } },
      { name: 'to', type: 'string' },
      ...PAGE_QUERY,
    ],
    operation: /* GraphQL */ `
      query SandboxMessages($notificationId: ID, $channel: String, $to: String, $page: Int, $limit: Int) {
        sandboxMessages(notificationId: $notificationId, channel: $channel, to: $to, page: $page, limit: $limit) {
          data {
            ...SandboxMessageFields
          }
          total
          page
          limit
        }
      }
      ${SANDBOX_MESSAGE}
    `,
    variables: ({ query }) => camelKeys(query),
    response: { ...SNAKE_CASE, records: 'data' },
  },
];
