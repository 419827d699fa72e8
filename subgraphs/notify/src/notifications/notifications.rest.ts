import { USER_ERRORS } from '../../../../platform/rest/fragments.js';
import { camelKeys, enumValue, mapMember, type ResponseMapping } from '../../../../platform/rest/mapping.js';
import { connectionSlice, pageBody, PAGE_QUERY } from '../../../../platform/rest/paging.js';
import type { Route } from '../../../../platform/rest/route.js';
import { CHANNELS, sendChannels } from '../channels/channels.rest.js';

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
const NOTIFICATION_STATUSES = ['dispatched', 'delivered', 'partially_delivered', 'failed'] as const;

/** Sending one notification. */
export const sendRoutes: Route[] = [
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
];

/** The notifications sent (listed after the batch routes: OpenAPI keeps its order). */
export const notificationRoutes: Route[] = [
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
];
