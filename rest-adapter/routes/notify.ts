import type { OperationData, Route } from '../route.js';

/**
 * Part B of the spec (notification dispatch), plus templates, recipients and the sandbox outbox.
 * Bodies and answers use the spec's snake_case (`notification_id`, `latency_ms`, `opened_at`…);
 * the GraphQL fields are their camelCase twins. Invalid bodies are 400 (the spec's Part B rule).
 */

const CHANNEL_FIELDS = `channel status provider latencyMs openedAt reason attempts sentAt deliveredAt failedAt nextAttemptAt updatedAt`;

export const NOTIFICATION = /* GraphQL */ `
fragment NotificationFields on Notification {
  id to recipientId template templateVersion templateId status batchId createdAt updatedAt
  channels { ${CHANNEL_FIELDS} }
}`;

export const NOTIFICATION_BATCH = /* GraphQL */ `
  fragment NotificationBatchFields on NotificationBatch {
    id
    template
    templateVersion
    templateId
    channels
    total
    queued
    processed
    succeeded
    failed
    status
    createdAt
    completedAt
    channelProgress {
      channel
      queued
      sent
      delivered
      opened
      failed
      undeliverable
    }
  }
`;

export const NOTIFICATION_TEMPLATE = /* GraphQL */ `
  fragment NotificationTemplateFields on NotificationTemplate {
    id
    name
    version
    channels
    placeholders
    createdAt
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
  }
`;

export const NOTIFICATION_RECIPIENT = /* GraphQL */ `
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

/** `channels` as the spec's map: channel name → {status, provider, latency_ms, opened_at (email)…}. */
function channelMap(channels: OperationData[]) {
  return Object.fromEntries(
    channels.map((c) => [
      c.channel,
      {
        status: c.status,
        provider: c.provider,
        latency_ms: c.latencyMs,
        ...(c.channel === 'email' ? { opened_at: c.openedAt } : {}),
        reason: c.reason,
        attempts: c.attempts,
        sent_at: c.sentAt,
        delivered_at: c.deliveredAt,
        failed_at: c.failedAt,
        next_attempt_at: c.nextAttemptAt,
        updated_at: c.updatedAt,
      },
    ]),
  );
}

export function notificationBody(n: OperationData) {
  return {
    notification_id: n.id,
    status: n.status,
    channels: channelMap(n.channels),
    template: n.template,
    template_version: n.templateVersion,
    template_id: n.templateId,
    to: n.to,
    recipient_id: n.recipientId,
    batch_id: n.batchId,
    created_at: n.createdAt,
    updated_at: n.updatedAt,
  };
}

export function batchBody(b: OperationData) {
  return {
    batch_id: b.id,
    total: b.total,
    queued: b.queued,
    status: b.status,
    processed: b.processed,
    succeeded: b.succeeded,
    failed: b.failed,
    template: b.template,
    template_version: b.templateVersion,
    channels: Object.fromEntries(b.channelProgress.map(({ channel, ...counts }: OperationData) => [channel, counts])),
    created_at: b.createdAt,
    completed_at: b.completedAt,
  };
}

export function templateBody(t: OperationData) {
  return {
    template_id: t.id,
    name: t.name,
    version: t.version,
    channels: t.channels,
    placeholders: t.placeholders,
    content: Object.fromEntries(Object.entries(t.content).filter(([, v]) => v !== null)),
    created_at: t.createdAt,
  };
}

export function recipientBody(r: OperationData) {
  return {
    id: r.id,
    email: r.email,
    phone: r.phone,
    push_tokens: r.pushTokens,
    web_push_subscriptions: r.webPushSubscriptions,
    locale: r.locale,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
  };
}

const page = (result: OperationData, map: (item: OperationData) => unknown) => ({
  data: result.data.map(map),
  total: result.total,
  page: result.page,
  limit: result.limit,
});

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
    operation: /* GraphQL */ `
      mutation SendNotification($input: SendNotificationInput!) {
        sendNotification(input: $input) {
          ...NotificationFields
        }
      }
      ${NOTIFICATION}
    `,
    variables: ({ body }) => ({
      input: { to: body.to, template: body.template, channels: body.channels, data: body.data, templateVersion: body.template_version },
    }),
    result: (data) => notificationBody(data.sendNotification),
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
    operation: /* GraphQL */ `
      mutation SendNotificationBatch($input: SendNotificationBatchInput!) {
        sendNotificationBatch(input: $input) {
          ...NotificationBatchFields
        }
      }
      ${NOTIFICATION_BATCH}
    `,
    variables: ({ body }) => ({
      input: { template: body.template, channels: body.channels, recipients: body.recipients, templateVersion: body.template_version },
    }),
    result: (data) => batchBody(data.sendNotificationBatch),
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
    result: (data) => batchBody(data.notificationBatch),
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
    variables: ({ query }) => ({ batchId: query.batch_id, status: query.status, to: query.to, page: query.page, limit: query.limit }),
    result: (data) => page(data.notifications, notificationBody),
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
    result: (data) => notificationBody(data.notification),
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
    operation: /* GraphQL */ `
      mutation CreateNotificationTemplate($input: CreateNotificationTemplateInput!) {
        createNotificationTemplate(input: $input) {
          ...NotificationTemplateFields
        }
      }
      ${NOTIFICATION_TEMPLATE}
    `,
    variables: ({ body }) => ({ input: { name: body.name, channels: body.channels } }),
    result: (data) => templateBody(data.createNotificationTemplate),
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
    variables: ({ query }) => ({ page: query.page, limit: query.limit }),
    result: (data) => page(data.notificationTemplates, templateBody),
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
    result: (data) => ({ versions: data.notificationTemplateVersions.map(templateBody) }),
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
    result: (data) => templateBody(data.notificationTemplate),
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
    operation: /* GraphQL */ `
      mutation UpsertNotificationRecipient($id: String!, $input: NotificationRecipientInput!) {
        upsertNotificationRecipient(id: $id, input: $input) {
          ...NotificationRecipientFields
        }
      }
      ${NOTIFICATION_RECIPIENT}
    `,
    variables: ({ params, body }) => ({
      id: params.id,
      input: {
        email: body.email,
        phone: body.phone,
        pushTokens: body.push_tokens,
        webPushSubscriptions: body.web_push_subscriptions,
        locale: body.locale,
      },
    }),
    result: (data) => recipientBody(data.upsertNotificationRecipient),
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
    result: (data) => recipientBody(data.notificationRecipient),
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
            id
            notificationId
            channel
            to
            subject
            html
            title
            body
            createdAt
          }
          total
          page
          limit
        }
      }
    `,
    variables: ({ query }) => ({
      notificationId: query.notification_id,
      channel: query.channel,
      to: query.to,
      page: query.page,
      limit: query.limit,
    }),
    result: (data) =>
      page(data.sandboxMessages, (m) => ({
        id: m.id,
        notification_id: m.notificationId,
        channel: m.channel,
        to: m.to,
        subject: m.subject,
        html: m.html,
        title: m.title,
        body: m.body,
        created_at: m.createdAt,
      })),
  },
];
