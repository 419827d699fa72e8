import { badInput, invalid } from '../../../../platform/errors.js';
import { USER_ERRORS } from '../../../../platform/rest/fragments.js';
import type { ResponseMapping } from '../../../../platform/rest/mapping.js';
import type { Route } from '../../../../platform/rest/route.js';
import { WEBHOOK_EVENTS } from './webhook-catalog.js';
import { connectionSlice, PAGE_QUERY } from '../../../../platform/rest/paging.js';

const WEBHOOK = /* GraphQL */ `
  fragment WebhookFields on Webhook {
    id
    clientId: client {
      id
    }
    callbackUrl
    events
    active
    createdAt
  }
`;

/**
 * The spec's event names, in the order its error lists them (the webhooks capability's table). The
 * graph's are the same names in SCREAMING_CASE (`identity.manual_review` is IDENTITY_MANUAL_REVIEW).
 */
const EVENTS: readonly string[] = WEBHOOK_EVENTS;
const graphName = (event: string) => event.toUpperCase().replace(/\./g, '_');
const SPEC_NAME = new Map<string, string>(EVENTS.map((event) => [graphName(event), event]));
/** Signing secrets are shown once, with the spec's words. */
const SECRET_SHOWN_ONCE = 'Store this signing secret securely: it will not be shown again.';

/**
 * `events` (a list, or one name: GraphQL takes a single value as a list of it) with the graph's
 * names. What the spec's list of strings refused is refused in its words: a value that is no
 * string (400, as GraphQL said of a list of strings), a name it does not list (422); a missing
 * value (null) goes to GraphQL as sent.
 */
function graphEvents(value: unknown): unknown {
  const list = Array.isArray(value);
  const names = list ? value : [value];
  const notStrings = names.flatMap((name, i) => (name === null || typeof name === 'string' ? [] : [list ? `events[${i}]` : 'events']));
  if (notStrings.length) throw badInput(notStrings.map((at) => `${at} must be a string`));
  const unknown = names.filter((name): name is string => typeof name === 'string' && !EVENTS.includes(name));
  if (unknown.length) throw invalid(`events must be among: ${EVENTS.join(', ')} (unknown: ${unknown.join(', ')})`);
  const mapped = names.map((name) => (typeof name === 'string' ? graphName(name) : name));
  return list ? mapped : mapped[0];
}

/** A webhook as the spec has it: its client's id and the events' dotted names. */
const WEBHOOK_BODY: ResponseMapping = { ids: ['clientId'], values: { events: (e) => SPEC_NAME.get(e) ?? e } };

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
          webhook {
            ...WebhookFields
          }
          secret
          userErrors {
            ...UserErrorFields
          }
        }
      }
      ${WEBHOOK}
      ${USER_ERRORS}
    `,
    variables: ({ body }) => ({ input: 'events' in body ? { ...body, events: graphEvents(body.events) } : body }),
    // the spec's record: the secret and its notice between the events and `active`
    result: (data) => {
      const { webhook, secret } = data.configureWebhook;
      const { active, createdAt, ...head } = webhook;
      return { ...head, secret, message: SECRET_SHOWN_ONCE, active, createdAt };
    },
    response: WEBHOOK_BODY,
    status: 201,
  },
  {
    method: 'GET',
    path: '/webhooks/client/:clientId',
    summary: "A client's webhooks, newest first (a page; the total in X-Total-Count)",
    query: PAGE_QUERY,
    operation: /* GraphQL */ `
      query WebhooksOfClient($clientId: ID!, $first: Int, $after: String) {
        webhooks(filter: { clientId: $clientId }, first: $first, after: $after) {
          nodes {
            ...WebhookFields
          }
          totalCount
        }
      }
      ${WEBHOOK}
    `,
    variables: ({ params, query }) => ({ clientId: params.clientId, ...connectionSlice(query) }),
    // the spec's body is the array itself
    result: (data) => data.webhooks.nodes,
    totalCount: (data) => data.webhooks.totalCount,
    response: WEBHOOK_BODY,
  },
  {
    method: 'DELETE',
    path: '/webhooks/:id',
    summary: 'Deactivate a webhook',
    operation: /* GraphQL */ `
      mutation DeactivateWebhook($id: ID!) {
        deactivateWebhook(input: { id: $id }) {
          webhook {
            ...WebhookFields
          }
          userErrors {
            ...UserErrorFields
          }
        }
      }
      ${WEBHOOK}
      ${USER_ERRORS}
    `,
    variables: ({ params }) => ({ id: params.id }),
    result: (data) => {
      const { id, active } = data.deactivateWebhook.webhook;
      return { id, active, message: `Webhook deactivated: ${id}` };
    },
  },
];
