import { AML_BATCH, AML_SCREENING, WATCHLIST_ALERT, WATCHLIST_SUBSCRIPTION } from '../fragments.js';
import { mapMember, onlyMembers } from '../mapping.js';
import type { Field, Route } from '../route.js';

const LISTS = ['SANCTIONS', 'PEP', 'ADVERSE_MEDIA', 'LAW_ENFORCEMENT'] as const;
const WATCHLIST_LISTS = ['SANCTIONS', 'PEP', 'ADVERSE_MEDIA'] as const;

/** The spec's AML request record. */
const AML_REQUEST: Field[] = [
  { name: 'userId', type: 'string', required: true },
  { name: 'fullName', type: 'string', required: true },
  { name: 'dateOfBirth', type: 'string', description: 'YYYY-MM-DD' },
  { name: 'nationality', type: 'string', description: 'ISO 3166-1 alpha-2' },
  { name: 'documentNumber', type: 'string' },
  { name: 'matchThreshold', type: 'number', description: '0–1, default 0.85' },
  { name: 'lists', type: { array: { enum: LISTS } }, description: 'Default: all' },
];
const AML_REQUEST_FIELDS = AML_REQUEST.map((f) => f.name);

/** Subjects keep only the request record's fields (as top-level bodies do). */
const subjectsOf = (value: unknown) => (Array.isArray(value) ? value.map((s) => onlyMembers(s, AML_REQUEST_FIELDS)) : value);

export const screeningRoutes: Route[] = [
  {
    method: 'POST',
    path: '/screening/aml',
    summary: 'Screen a person against sanctions, PEP, adverse-media and law-enforcement lists',
    body: AML_REQUEST,
    example: { userId: 'user_1001', fullName: 'Amina Wanjiru Odhiambo', dateOfBirth: '1984-02-29', nationality: 'KE' },
    operation: /* GraphQL */ `
      mutation ScreenAml($input: AmlScreeningInput!) {
        screenAml(input: $input) {
          ...AmlScreeningFields
        }
      }
      ${AML_SCREENING}
    `,
    variables: ({ body }) => ({ input: body }),
  },
  {
    method: 'POST',
    path: '/screening/aml/batch',
    summary: 'Screen up to 100 people in the background (202); callbackUrl is POSTed, signed, when done',
    body: [
      { name: 'subjects', type: { array: 'object' }, required: true, description: 'AML request records, at most 100' },
      { name: 'callbackUrl', type: 'string', description: 'HTTPS URL' },
    ],
    example: {
      subjects: [
        { userId: 'user_1001', fullName: 'Amina Wanjiru Odhiambo', nationality: 'KE' },
        { userId: 'user_1002', fullName: 'Kwame Osei Mensah' },
      ],
    },
    operation: /* GraphQL */ `
      mutation CreateAmlBatch($input: AmlBatchInput!) {
        createAmlBatch(input: $input) {
          id
          batchId
          status
          total
          callbackUrl
          callbackSecret
          message
          createdAt
        }
      }
    `,
    variables: ({ body }) => ({ input: mapMember(body, 'subjects', subjectsOf) }),
    status: 202,
  },
  {
    method: 'GET',
    path: '/screening/aml/batch/:id',
    summary: 'Status and results of an AML batch',
    operation: /* GraphQL */ `
      query AmlBatch($id: ID!) {
        amlBatch(id: $id) {
          ...AmlBatchFields
        }
      }
      ${AML_BATCH}
    `,
    variables: ({ params }) => ({ id: params.id }),
  },
  {
    method: 'GET',
    path: '/screening/aml/user/:userId',
    summary: "List a user's AML screenings",
    query: [
      { name: 'page', type: 'integer', description: 'Default 1' },
      { name: 'limit', type: 'integer', description: 'Default 20, at most 100' },
    ],
    operation: /* GraphQL */ `
      query AmlScreeningsByUser($userId: String!, $page: Int, $limit: Int) {
        amlScreeningsByUser(userId: $userId, page: $page, limit: $limit) {
          data {
            ...AmlScreeningFields
          }
          total
          page
          limit
        }
      }
      ${AML_SCREENING}
    `,
    variables: ({ params, query }) => ({ userId: params.userId, page: query.page, limit: query.limit }),
  },
  {
    method: 'GET',
    path: '/screening/aml/:id',
    summary: 'Get an AML screening',
    operation: /* GraphQL */ `
      query AmlScreening($id: ID!) {
        amlScreening(id: $id) {
          ...AmlScreeningFields
        }
      }
      ${AML_SCREENING}
    `,
    variables: ({ params }) => ({ id: params.id }),
  },
  {
    method: 'POST',
    path: '/screening/aml/:id/matches/:matchId/resolve',
    summary: 'Resolve a match as a true or false positive (reviewer and reason kept)',
    body: [
      { name: 'resolution', type: { enum: ['TRUE_POSITIVE', 'FALSE_POSITIVE'] }, required: true },
      { name: 'resolvedBy', type: 'string', required: true },
      { name: 'reason', type: 'string', required: true },
    ],
    example: { resolution: 'FALSE_POSITIVE', resolvedBy: 'officer@example.com', reason: 'Different date of birth' },
    operation: /* GraphQL */ `
      mutation ResolveAmlMatch($id: ID!, $matchId: ID!, $input: ResolveAmlMatchInput!) {
        resolveAmlMatch(screeningId: $id, matchId: $matchId, input: $input) {
          ...AmlScreeningFields
        }
      }
      ${AML_SCREENING}
    `,
    variables: ({ params, body }) => ({ id: params.id, matchId: params.matchId, input: body }),
  },
];

const SUBSCRIBE = /* GraphQL */ `
  mutation SubscribeWatchlist($input: WatchlistSubscribeInput!) {
    subscribeWatchlist(input: $input) {
      ...WatchlistSubscriptionFields
    }
  }
  ${WATCHLIST_SUBSCRIPTION}
`;
const UNSUBSCRIBE = /* GraphQL */ `
  mutation UnsubscribeWatchlist($id: ID!) {
    unsubscribeWatchlist(id: $id) {
      ...WatchlistSubscriptionFields
    }
  }
  ${WATCHLIST_SUBSCRIPTION}
`;
const ALERTS = /* GraphQL */ `
  query WatchlistAlerts($userId: String, $status: WatchlistAlertStatus, $subscriptionId: ID, $page: Int, $limit: Int) {
    watchlistAlerts(userId: $userId, status: $status, subscriptionId: $subscriptionId, page: $page, limit: $limit) {
      data {
        ...WatchlistAlertFields
      }
      pagination {
        page
        limit
        total
      }
    }
  }
  ${WATCHLIST_ALERT}
`;
const SUBSCRIPTIONS = /* GraphQL */ `
  query WatchlistSubscriptions($status: WatchlistSubscriptionStatus, $userId: String, $page: Int, $limit: Int) {
    watchlistSubscriptions(status: $status, userId: $userId, page: $page, limit: $limit) {
      data {
        ...WatchlistSubscriptionFields
      }
      pagination {
        page
        limit
        total
      }
    }
  }
  ${WATCHLIST_SUBSCRIPTION}
`;
const REVIEW_ALERT = /* GraphQL */ `
  mutation ReviewWatchlistAlert($id: ID!, $input: ReviewWatchlistAlertInput!) {
    reviewWatchlistAlert(id: $id, input: $input) {
      ...WatchlistAlertFields
    }
  }
  ${WATCHLIST_ALERT}
`;

const PAGE: Field[] = [
  { name: 'page', type: 'integer', description: 'Default 1' },
  { name: 'limit', type: 'integer', description: 'Default 20, at most 100' },
];
const ALERT_QUERY: Field[] = [
  { name: 'userId', type: 'string' },
  { name: 'status', type: { enum: ['OPEN', 'REVIEWED', 'DISMISSED'] } },
  { name: 'subscriptionId', type: 'string' },
  ...PAGE,
];
const SUBSCRIPTION_QUERY: Field[] = [
  { name: 'status', type: { enum: ['ACTIVE', 'CANCELLED'] } },
  { name: 'userId', type: 'string' },
  ...PAGE,
];
const REVIEW_BODY: Field[] = [
  { name: 'status', type: { enum: ['REVIEWED', 'DISMISSED'] }, required: true },
  { name: 'reviewedBy', type: 'string', required: true },
  { name: 'note', type: 'string', required: true },
];
const SUBSCRIBER: Field[] = [
  { name: 'userId', type: 'string', required: true },
  { name: 'fullName', type: 'string', required: true },
  { name: 'dateOfBirth', type: 'string', description: 'YYYY-MM-DD' },
  { name: 'nationality', type: 'string', description: 'ISO 3166-1 alpha-2' },
];
const alertVariables = ({ query }: { query: Record<string, string | number> }) => ({
  userId: query.userId,
  status: query.status,
  subscriptionId: query.subscriptionId,
  page: query.page,
  limit: query.limit,
});
const subscriptionVariables = ({ query }: { query: Record<string, string | number> }) => ({
  status: query.status,
  userId: query.userId,
  page: query.page,
  limit: query.limit,
});

/** Watchlist monitoring: Form A under /monitoring/watchlist, Form B under /screening/watchlist. */
export const watchlistRoutes: Route[] = [
  {
    method: 'POST',
    path: '/monitoring/watchlist/subscribe',
    summary: 'Subscribe a user to watchlist monitoring (Form A)',
    body: [...SUBSCRIBER, { name: 'lists', type: { array: { enum: WATCHLIST_LISTS } }, description: 'Default: all three' }],
    example: {
      userId: 'user_1001',
      fullName: 'Amina Wanjiru Odhiambo',
      dateOfBirth: '1984-02-29',
      nationality: 'KE',
      lists: ['SANCTIONS', 'PEP'],
    },
    operation: SUBSCRIBE,
    variables: ({ body }) => ({ input: body }),
    status: 201,
  },
  {
    method: 'POST',
    path: '/screening/watchlist/subscribe',
    summary: 'Subscribe a user to watchlist monitoring (Form B)',
    body: [...SUBSCRIBER, { name: 'country', type: 'string', description: 'ISO 3166-1 alpha-2' }],
    example: { userId: 'user_1001', fullName: 'Amina Wanjiru Odhiambo', country: 'KE' },
    operation: SUBSCRIBE,
    variables: ({ body }) => ({ input: body }),
    status: 201,
  },
  {
    method: 'DELETE',
    path: '/monitoring/watchlist/subscribe/:id',
    summary: 'Cancel a watchlist subscription (Form A)',
    operation: UNSUBSCRIBE,
    variables: ({ params }) => ({ id: params.id }),
  },
  {
    method: 'DELETE',
    path: '/screening/watchlist/unsubscribe/:id',
    summary: 'Cancel a watchlist subscription (Form B)',
    operation: UNSUBSCRIBE,
    variables: ({ params }) => ({ id: params.id }),
  },
  {
    method: 'GET',
    path: '/monitoring/watchlist/alerts',
    summary: 'List watchlist alerts (Form A)',
    query: ALERT_QUERY,
    operation: ALERTS,
    variables: alertVariables,
  },
  {
    method: 'GET',
    path: '/screening/watchlist/alerts',
    summary: 'List watchlist alerts (Form B)',
    query: ALERT_QUERY,
    operation: ALERTS,
    variables: alertVariables,
  },
  {
    method: 'GET',
    path: '/monitoring/watchlist/subscriptions',
    summary: 'List watchlist subscriptions (Form A)',
    query: SUBSCRIPTION_QUERY,
    operation: SUBSCRIPTIONS,
    variables: subscriptionVariables,
  },
  {
    method: 'GET',
    path: '/screening/watchlist/subscriptions',
    summary: 'List watchlist subscriptions (Form B)',
    query: SUBSCRIPTION_QUERY,
    operation: SUBSCRIPTIONS,
    variables: subscriptionVariables,
  },
  {
    method: 'POST',
    path: '/monitoring/watchlist/alerts/:id/review',
    summary: 'Review or dismiss an OPEN alert (Form A path)',
    body: REVIEW_BODY,
    example: { status: 'DISMISSED', reviewedBy: 'officer@example.com', note: 'Different person: date of birth differs' },
    operation: REVIEW_ALERT,
    variables: ({ params, body }) => ({ id: params.id, input: body }),
  },
  {
    method: 'POST',
    path: '/screening/watchlist/alerts/:id/review',
    summary: 'Review or dismiss an OPEN alert (Form B path)',
    body: REVIEW_BODY,
    example: { status: 'REVIEWED', reviewedBy: 'officer@example.com', note: 'Confirmed, account frozen' },
    operation: REVIEW_ALERT,
    variables: ({ params, body }) => ({ id: params.id, input: body }),
  },
];
