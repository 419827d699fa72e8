import { USER_ERRORS } from '../../../../platform/rest/fragments.js';
import type { ResponseMapping } from '../../../../platform/rest/mapping.js';
import { connectionSlice, pageBody, PAGE_QUERY } from '../../../../platform/rest/paging.js';
import type { Field, Route, RouteInput } from '../../../../platform/rest/route.js';

const WATCHLIST_SUBSCRIPTION = /* GraphQL */ `
  fragment WatchlistSubscriptionFields on WatchlistSubscription {
    id
    userId
    fullName
    dateOfBirth
    nationality
    country
    status
    lists
    matchThreshold
    nextScanAt
    lastScanAt
    createdAt
    cancelledAt
  }
`;

const WATCHLIST_ALERT = /* GraphQL */ `
  fragment WatchlistAlertFields on WatchlistAlert {
    id
    subscriptionId: subscription {
      id
    }
    userId
    status
    match {
      listName
      matchScore: score
      matchedName
      source
      addedDate
      kind
      externalId
      primaryName
      listVersion
      programs
    }
    detectedAt
    clearedAt
    reviewedBy
    reviewNote
    reviewedAt
  }
`;

const WATCHLIST_LISTS = ['SANCTIONS', 'PEP', 'ADVERSE_MEDIA'] as const;

const SUBSCRIBE = /* GraphQL */ `
  mutation SubscribeWatchlist($input: SubscribeWatchlistInput!) {
    subscribeWatchlist(input: $input) {
      watchlistSubscription {
        ...WatchlistSubscriptionFields
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
  ${WATCHLIST_SUBSCRIPTION}
  ${USER_ERRORS}
`;
const CANCEL = /* GraphQL */ `
  mutation CancelWatchlistSubscription($id: ID!) {
    cancelWatchlistSubscription(input: { id: $id }) {
      watchlistSubscription {
        ...WatchlistSubscriptionFields
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
  ${WATCHLIST_SUBSCRIPTION}
  ${USER_ERRORS}
`;
const ALERTS = /* GraphQL */ `
  query WatchlistAlerts($userId: String, $status: WatchlistAlertStatus, $subscriptionId: ID, $first: Int, $after: String) {
    watchlistAlerts(filter: { userId: $userId, status: $status, subscriptionId: $subscriptionId }, first: $first, after: $after) {
      nodes {
        ...WatchlistAlertFields
      }
      totalCount
    }
  }
  ${WATCHLIST_ALERT}
`;
const SUBSCRIPTIONS = /* GraphQL */ `
  query WatchlistSubscriptions($status: WatchlistSubscriptionStatus, $userId: String, $first: Int, $after: String) {
    watchlistSubscriptions(filter: { status: $status, userId: $userId }, first: $first, after: $after) {
      nodes {
        ...WatchlistSubscriptionFields
      }
      totalCount
    }
  }
  ${WATCHLIST_SUBSCRIPTION}
`;
const REVIEW_ALERT = /* GraphQL */ `
  mutation ReviewWatchlistAlert($input: ReviewWatchlistAlertInput!) {
    reviewWatchlistAlert(input: $input) {
      watchlistAlert {
        ...WatchlistAlertFields
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
  ${WATCHLIST_ALERT}
  ${USER_ERRORS}
`;

const ALERT_QUERY: Field[] = [
  { name: 'userId', type: 'string' },
  { name: 'status', type: { enum: ['OPEN', 'REVIEWED', 'DISMISSED'] } },
  { name: 'subscriptionId', type: 'string' },
  ...PAGE_QUERY,
];
const SUBSCRIPTION_QUERY: Field[] = [
  { name: 'status', type: { enum: ['ACTIVE', 'CANCELLED'] } },
  { name: 'userId', type: 'string' },
  ...PAGE_QUERY,
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
const alertVariables = ({ query }: RouteInput) => ({
  userId: query.userId,
  status: query.status,
  subscriptionId: query.subscriptionId,
  ...connectionSlice(query),
});
const subscriptionVariables = ({ query }: RouteInput) => ({
  status: query.status,
  userId: query.userId,
  ...connectionSlice(query),
});
/** The watchlist spec's page: `{ data, pagination: { page, limit, total } }`. */
const watchlistPage = (connection: { nodes: unknown[]; totalCount: number }, query: RouteInput['query']) => {
  const { data, total, page, limit } = pageBody(connection, query);
  return { data, pagination: { page, limit, total } };
};
/** The spec's alert: its subscription by id. */
const ALERT_BODY: ResponseMapping = { ids: ['subscriptionId'] };

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
    result: (data) => data.subscribeWatchlist.watchlistSubscription,
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
    result: (data) => data.subscribeWatchlist.watchlistSubscription,
    status: 201,
  },
  {
    method: 'DELETE',
    path: '/monitoring/watchlist/subscribe/:id',
    summary: 'Cancel a watchlist subscription (Form A)',
    operation: CANCEL,
    variables: ({ params }) => ({ id: params.id }),
    result: (data) => data.cancelWatchlistSubscription.watchlistSubscription,
  },
  {
    method: 'DELETE',
    path: '/screening/watchlist/unsubscribe/:id',
    summary: 'Cancel a watchlist subscription (Form B)',
    operation: CANCEL,
    variables: ({ params }) => ({ id: params.id }),
    result: (data) => data.cancelWatchlistSubscription.watchlistSubscription,
  },
  {
    method: 'GET',
    path: '/monitoring/watchlist/alerts',
    summary: 'List watchlist alerts (Form A)',
    query: ALERT_QUERY,
    operation: ALERTS,
    variables: alertVariables,
    result: (data, { query }) => watchlistPage(data.watchlistAlerts, query),
    response: { ...ALERT_BODY, records: 'data' },
  },
  {
    method: 'GET',
    path: '/screening/watchlist/alerts',
    summary: 'List watchlist alerts (Form B)',
    query: ALERT_QUERY,
    operation: ALERTS,
    variables: alertVariables,
    result: (data, { query }) => watchlistPage(data.watchlistAlerts, query),
    response: { ...ALERT_BODY, records: 'data' },
  },
  {
    method: 'GET',
    path: '/monitoring/watchlist/subscriptions',
    summary: 'List watchlist subscriptions (Form A)',
    query: SUBSCRIPTION_QUERY,
    operation: SUBSCRIPTIONS,
    variables: subscriptionVariables,
    result: (data, { query }) => watchlistPage(data.watchlistSubscriptions, query),
  },
  {
    method: 'GET',
    path: '/screening/watchlist/subscriptions',
    summary: 'List watchlist subscriptions (Form B)',
    query: SUBSCRIPTION_QUERY,
    operation: SUBSCRIPTIONS,
    variables: subscriptionVariables,
    result: (data, { query }) => watchlistPage(data.watchlistSubscriptions, query),
  },
  {
    method: 'POST',
    path: '/monitoring/watchlist/alerts/:id/review',
    summary: 'Review or dismiss an OPEN alert (Form A path)',
    body: REVIEW_BODY,
    example: { status: 'DISMISSED', reviewedBy: 'officer@example.com', note: 'Different person: date of birth differs' },
    operation: REVIEW_ALERT,
    variables: ({ params, body }) => ({ input: { ...body, id: params.id } }),
    result: (data) => data.reviewWatchlistAlert.watchlistAlert,
    response: ALERT_BODY,
  },
  {
    method: 'POST',
    path: '/screening/watchlist/alerts/:id/review',
    summary: 'Review or dismiss an OPEN alert (Form B path)',
    body: REVIEW_BODY,
    example: { status: 'REVIEWED', reviewedBy: 'officer@example.com', note: 'Confirmed, account frozen' },
    operation: REVIEW_ALERT,
    variables: ({ params, body }) => ({ input: { ...body, id: params.id } }),
    result: (data) => data.reviewWatchlistAlert.watchlistAlert,
    response: ALERT_BODY,
  },
];
