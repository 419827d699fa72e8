import { USER_ERRORS } from '../../../../platform/rest/fragments.js';
import { camelKeys, type ResponseMapping } from '../../../../platform/rest/mapping.js';
import type { Route } from '../../../../platform/rest/route.js';
import { CHANNELS, sendChannels } from '../channels/channels.rest.js';

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

const BATCH_BODY: ResponseMapping = {
  case: 'snake',
  rename: { id: 'batch_id', channelProgress: 'channels' },
  keyBy: { channelProgress: 'channel' },
  flatten: ['template'],
  lowercase: ['status', 'channelProgress.channel'],
};

/** Batches: sent in one request, followed by id. */
export const batchRoutes: Route[] = [
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
];
