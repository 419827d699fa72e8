import { badInput, notFound } from '../../platform/errors.js';
import { USER_ERRORS } from '../fragments.js';
import { camelKeys, mapMember, SNAKE_CASE, upperCased, type ResponseMapping } from '../mapping.js';
import { connectionSlice, keyedPageBody, pageBody, PAGE_QUERY } from '../paging.js';
import type { Route } from '../route.js';

const NOTIFICATION = /* GraphQL */ `
  fragment NotificationFields on Notification {
    id
    status
    channels {
      channel
      status
      provider
      latencyMs
      openedAt
      reason
      attempts
      sentAt
      deliveredAt
      failedAt
      nextAttemptAt
      updatedAt
    }
    template {
      template: name
      templateVersion: version
      templateId: id
    }
    to
    recipientId
    batchId: batch {
      id
    }
    createdAt
    updatedAt
  }
`;

const NOTIFICATION_BATCH = /* GraphQL */ `
  fragment NotificationBatchFields on NotificationBatch {
    id
    total
    queued
    status
    processed
    succeeded
    failed
    template {
      template: name
      templateVersion: version
    }
    channelProgress {
      channel
      queued
      sent
      delivered
      opened
      failed
      undeliverable
    }
    createdAt
    completedAt
  }
`;

const NOTIFICATION_TEMPLATE = /* GraphQL */ `
  fragment NotificationTemplateFields on NotificationTemplate {
    id
    name
    version
    channels
    placeholders
    content {
      email {
        subject
        html
      }
      sms {
        body
      }
      push {
        title
        body
      }
    }
    createdAt
  }
`;

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

const SANDBOX_MESSAGE = /* GraphQL */ `
  fragment SandboxMessageFields on SandboxMessage {
    id
    notificationId: notification {
      id
    }
    channel
    to
    subject
    html
    title
    body
    createdAt
  }
`;

/**
 * Part B of the spec (notification dispatch), plus templates, recipients and the sandbox outbox.
 * Bodies and answers use the spec's snake_case (`notification_id`, `latency_ms`, `opened_at`…)
 * and lower-case enum values; the GraphQL fields are their camelCase twins, its enums SCREAMING_CASE.
 * Invalid bodies are 400 (the spec's Part B rule).
 */

const NOTIFICATION_BODY: ResponseMapping = {
  case: 'snake',
  rename: { id: 'notification_id' },
  keyBy: { channels: 'channel' },
  // Opens are tracked for email only: other channels have no opened_at at all.
  keepIf: { 'channels.openedAt': (channel) => channel.channel === 'EMAIL' },
  // the template version's name, version and id, in its place
  flatten: ['template'],
  ids: ['batchId'],
  lowercase: ['status', 'channels.channel', 'channels.status'],
};
const BATCH_BODY: ResponseMapping = {
  case: 'snake',
  rename: { id: 'batch_id', channelProgress: 'channels' },
  keyBy: { channelProgress: 'channel' },
  flatten: ['template'],
  lowercase: ['status', 'channelProgress.channel'],
};
/** `content` lists only the template's channels. */
const TEMPLATE_BODY: ResponseMapping = { case: 'snake', rename: { id: 'template_id' }, withoutNulls: ['content'], lowercase: ['channels'] };
const SANDBOX_BODY: ResponseMapping = { case: 'snake', ids: ['notificationId'], lowercase: ['channel'] };

const CHANNEL_NAMES = ['email', 'sms', 'push'] as const;
const CHANNELS = { array: { enum: CHANNEL_NAMES } } as const;
const NOTIFICATION_STATUSES = ['dispatched', 'delivered', 'partially_delivered', 'failed'] as const;

/**
 * A send's channels as the graph's NotificationChannel values. A channel the spec does not list is
 * refused here in the spec's words (a 400, as the service words it; the graph would refuse it as
 * an enum value it does not know).
 */
function sendChannels(body: Record<string, unknown>): Record<string, unknown> {
  return mapMember(body, 'channels', (channels) => {
    if (!Array.isArray(channels)) return upperCased(channels);
    refuseUnknownChannels(channels);
    return upperCased(channels);
  });
}

/** Template content on the spec's channels only: WhatsApp and voice content is for the graph (a 400 here, as for any unknown channel). */
function templateBody(body: Record<string, unknown>): Record<string, unknown> {
  const channels = body.channels;
  if (channels && typeof channels === 'object' && !Array.isArray(channels)) {
    refuseUnknownChannels(Object.keys(channels));
  }
  return body;
}

function refuseUnknownChannels(channels: readonly unknown[]): void {
  if (!channels.length) throw badInput(`channels must contain at least one of ${CHANNEL_NAMES.join(', ')}`);
  const unknown = channels.filter((c) => !(CHANNEL_NAMES as readonly unknown[]).includes(c));
  if (unknown.length) throw badInput(`channels must be among: ${CHANNEL_NAMES.join(', ')} (unknown: ${unknown.join(', ')})`);
}

/** A REST value of the route's own enum in GraphQL's SCREAMING_CASE; any other value as sent, for GraphQL to judge. */
const enumValue =
  (values: readonly string[]) =>
  (value: unknown): unknown =>
    typeof value === 'string' && values.includes(value) ? upperCased(value) : value;

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
          notification {
            ...NotificationFields
          }
          userErrors {
            ...UserErrorFields
          }
        }
      }
      ${NOTIFICATION}
      ${USER_ERRORS}
    `,
    variables: ({ body }) => ({ input: camelKeys(sendChannels(body)) }),
    result: (data) => data.sendNotification.notification,
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
          notificationBatch {
            ...NotificationBatchFields
          }
          userErrors {
            ...UserErrorFields
          }
        }
      }
      ${NOTIFICATION_BATCH}
      ${USER_ERRORS}
    `,
    variables: ({ body }) => ({ input: camelKeys(sendChannels(body)) }),
    result: (data) => data.sendNotificationBatch.notificationBatch,
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
    notFound: 'Batch',
  },
  {
    method: 'GET',
    path: '/notifications',
    summary: 'List notifications, newest first (a batch: in recipient order)',
    query: [
      { name: 'batch_id', type: 'string' },
      { name: 'status', type: { enum: NOTIFICATION_STATUSES } },
      { name: 'to', type: 'string' },
      ...PAGE_QUERY,
    ],
    operation: /* GraphQL */ `
      query Notifications($filter: NotificationFilter, $first: Int, $after: String) {
        notifications(filter: $filter, first: $first, after: $after) {
          nodes {
            ...NotificationFields
          }
          totalCount
        }
      }
      ${NOTIFICATION}
    `,
    variables: ({ query }) => ({
      filter: mapMember({ batchId: query.batch_id, status: query.status, to: query.to }, 'status', enumValue(NOTIFICATION_STATUSES)),
      ...connectionSlice(query),
    }),
    result: (data, { query }) => pageBody(data.notifications, query),
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
    notFound: 'Notification',
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
          notificationTemplate {
            ...NotificationTemplateFields
          }
          userErrors {
            ...UserErrorFields
          }
        }
      }
      ${NOTIFICATION_TEMPLATE}
      ${USER_ERRORS}
    `,
    variables: ({ body }) => ({ input: templateBody(body) }),
    result: (data) => data.createNotificationTemplate.notificationTemplate,
    response: TEMPLATE_BODY,
    status: 201,
  },
  {
    method: 'GET',
    path: '/templates',
    summary: 'The latest version of every template',
    query: PAGE_QUERY,
    operation: /* GraphQL */ `
      query NotificationTemplates($first: Int, $after: String) {
        notificationTemplates(first: $first, after: $after) {
          nodes {
            ...NotificationTemplateFields
          }
          totalCount
        }
      }
      ${NOTIFICATION_TEMPLATE}
    `,
    variables: ({ query }) => connectionSlice(query),
    result: (data, { query }) => pageBody(data.notificationTemplates, query),
    response: { ...TEMPLATE_BODY, records: 'data' },
  },
  {
    method: 'GET',
    path: '/templates/:name/versions',
    summary: 'The versions of a template, newest first (a page)',
    query: PAGE_QUERY,
    operation: /* GraphQL */ `
      query NotificationTemplateVersions($name: String!, $first: Int, $after: String) {
        notificationTemplateVersions(name: $name, first: $first, after: $after) {
          nodes {
            ...NotificationTemplateFields
          }
          totalCount
        }
      }
      ${NOTIFICATION_TEMPLATE}
    `,
    variables: ({ params, query }) => ({ name: params.name, ...connectionSlice(query) }),
    // a name with no version at all is no template
    result: (data, { query }) => {
      const versions = data.notificationTemplateVersions;
      return versions.totalCount ? keyedPageBody('versions', versions, query) : null;
    },
    response: { ...TEMPLATE_BODY, records: 'versions' },
    notFound: 'Template',
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
    result: (data, { params, query }) => {
      if (data.notificationTemplate) return data.notificationTemplate;
      // the record is the name, or that version of it
      throw notFound(query.version !== undefined ? `Template ${params.name} version ${query.version}` : `Template ${params.name}`);
    },
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
      query SandboxMessages($filter: SandboxMessageFilter, $first: Int, $after: String) {
        sandboxMessages(filter: $filter, first: $first, after: $after) {
          nodes {
            ...SandboxMessageFields
          }
          totalCount
        }
      }
      ${SANDBOX_MESSAGE}
    `,
    variables: ({ query }) => ({
      filter: mapMember(
        { notificationId: query.notification_id, channel: query.channel, to: query.to },
        'channel',
        enumValue(CHANNEL_NAMES),
      ),
      ...connectionSlice(query),
    }),
    result: (data, { query }) => pageBody(data.sandboxMessages, query),
    response: { ...SANDBOX_BODY, records: 'data' },
  },
];
