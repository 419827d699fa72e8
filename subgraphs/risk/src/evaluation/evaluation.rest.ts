import { USER_ERRORS } from '../../../../platform/rest/fragments.js';
import { camelKeys, type ResponseMapping } from '../../../../platform/rest/mapping.js';
import type { Route } from '../../../../platform/rest/route.js';

/** What POST /v1/evaluate answers (the lookup has the details). */
const RISK_EVALUATION_SUMMARY = /* GraphQL */ `
  fragment RiskEvaluationSummaryFields on RiskEvaluation {
    id
    transactionId
    score
    action
    mock
    latencyMs
    layers {
      rules {
        fired
        checked
        score
      }
      graph {
        patternsFound
        nodesTraversed
        score
      }
      sanctions {
        hits
        listsChecked
        score
      }
    }
    reasons
    createdAt
  }
`;

/** The summary with what each layer found; carries the summary fragment it spreads. */
const RISK_EVALUATION = /* GraphQL */ `
  fragment RiskEvaluationFields on RiskEvaluation {
    ...RiskEvaluationSummaryFields
    rulesFired {
      id
      name
      description
      version
      action
      severity
    }
    ruleErrors {
      id
      version
      message
    }
    graphPatterns {
      type
      weight
      accounts
      length
      count
      ratio
      device
    }
    sanctionsHits {
      party
      account {
        id
      }
      name
      hit {
        source
        kind
        externalId
        primaryName
        matchedName
        score
        listVersion
      }
    }
    transaction {
      amount
      currency
      sender {
        id
      }
      receiver {
        id
      }
      channel
      metadata
    }
    rulesRevision
  }
  ${RISK_EVALUATION_SUMMARY}
`;

/**
 * Part A of the spec (transaction risk). Bodies and answers use the spec's snake_case
 * (`transaction_id`, `evaluation_id`, `latency_ms`, `nodes_scanned`…); the GraphQL fields are
 * their camelCase twins (validation messages name the GraphQL field: `transactionId is required`).
 * Invalid bodies are 400 (Part A's error table). Keys: `Authorization: Bearer risk_live_…`.
 */

const EVALUATION_BODY: ResponseMapping = {
  case: 'snake',
  rename: { id: 'evaluation_id' },
  // A pattern carries only the measures of its type.
  withoutNulls: ['graphPatterns'],
  verbatim: ['transaction.metadata'],
  ids: ['sanctionsHits.account', 'transaction.sender', 'transaction.receiver'],
  flatten: ['sanctionsHits.hit'],
  lowercase: ['action', 'rulesFired.action', 'rulesFired.severity', 'graphPatterns.type', 'sanctionsHits.party'],
};

export const evaluationRoutes: Route[] = [
  {
    method: 'POST',
    path: '/evaluate',
    summary: 'Score a transaction (rules, transaction graph, sanctions) and return an action (scope evaluate)',
    body: [
      { name: 'transaction_id', type: 'string', required: true, description: 'Unique per organization (409 when reused)' },
      { name: 'amount', type: 'number', required: true, description: '> 0' },
      { name: 'currency', type: 'string', required: true, description: 'ISO 4217, e.g. KES' },
      { name: 'sender', type: 'string', required: true },
      { name: 'receiver', type: 'string', required: true },
      { name: 'channel', type: 'string' },
      {
        name: 'metadata',
        type: 'object',
        description: 'device_id, ip, location {lat, lng}, sender_name, receiver_name (screened); test keys: mock_score',
      },
    ],
    example: {
      transaction_id: 'tx-1001',
      amount: 25000,
      currency: 'KES',
      sender: '254700000001',
      receiver: '254700000002',
      channel: 'mobile_money',
      metadata: { device_id: 'a1b2', ip: '41.90.1.2', sender_name: 'Jane Wanjiru', receiver_name: 'Acme Traders' },
    },
    operation: /* GraphQL */ `
      mutation EvaluateTransaction($input: EvaluateTransactionInput!) {
        evaluateTransaction(input: $input) {
          riskEvaluation {
            ...RiskEvaluationSummaryFields
          }
          userErrors {
            ...UserErrorFields
          }
        }
      }
      ${RISK_EVALUATION_SUMMARY}
      ${USER_ERRORS}
    `,
    variables: ({ body }) => ({ input: camelKeys(body) }),
    result: (data) => data.evaluateTransaction.riskEvaluation,
    response: EVALUATION_BODY,
  },
  {
    method: 'GET',
    path: '/evaluations/:id',
    summary: 'An evaluation with the rules fired, graph patterns and sanctions hits (scope evaluations:read)',
    operation: /* GraphQL */ `
      query RiskEvaluation($id: ID!) {
        riskEvaluation(id: $id) {
          ...RiskEvaluationFields
        }
      }
      ${RISK_EVALUATION}
    `,
    variables: ({ params }) => ({ id: params.id }),
    response: EVALUATION_BODY,
    notFound: 'Evaluation',
  },
];
