import { badInput } from '../../../../platform/errors.js';
import { enumValue, mapMember, upperCased, type ResponseMapping } from '../../../../platform/rest/mapping.js';
import { connectionSlice, pageBody, PAGE_QUERY } from '../../../../platform/rest/paging.js';
import type { Route } from '../../../../platform/rest/route.js';
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

const SANDBOX_BODY: ResponseMapping = { case: 'snake', ids: ['notificationId'], lowercase: ['channel'] };

export const CHANNEL_NAMES = ['email', 'sms', 'push'] as const;
export const CHANNELS = { array: { enum: CHANNEL_NAMES } } as const;

/**
 * A send's channels as the graph's NotificationChannel values. A channel the spec does not list is
 * refused here in the spec's words (a 400, as the service words it; the graph would refuse it as
 * an enum value it does not know).
 */
export function sendChannels(body: Record<string, unknown>): Record<string, unknown> {
  return mapMember(body, 'channels', (channels) => {
    if (!Array.isArray(channels)) return upperCased(channels);
    refuseUnknownChannels(channels);
    return upperCased(channels);
  });
}

/** A 400 in the spec's words for no channel or one the spec does not list. */
export function refuseUnknownChannels(channels: readonly unknown[]): void {
  if (!channels.length) throw badInput(`channels must contain at least one of ${CHANNEL_NAMES.join(', ')}`);
  const unknown = channels.filter((c) => !(CHANNEL_NAMES as readonly unknown[]).includes(c));
  if (unknown.length) throw badInput(`channels must be among: ${CHANNEL_NAMES.join(', ')} (unknown: ${unknown.join(', ')})`);
}

/** The sandbox outbox: what the sandbox provider would have sent. */
export const channelRoutes: Route[] = [
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
