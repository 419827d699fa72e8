import { badInput } from '../../platform/errors.js';
import { USER_ERRORS } from '../fragments.js';
import { camelKeys, mapMember, SNAKE_CASE, upperCased, type ResponseMapping } from '../mapping.js';
import type { Route } from '../route.js';
import { connectionSlice, keyedPageBody, PAGE_QUERY } from '../paging.js';

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

const RISK_RULE = /* GraphQL */ `
  fragment RiskRuleFields on RiskRule {
    id
    name
    description
    condition
    action
    severity
    enabled
    version
    isDefault
    createdAt
    updatedAt
  }
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

const RULE_ENUMS = { action: ['review', 'block'], severity: ['low', 'medium', 'high', 'critical'] } as const;

/**
 * A rule body as GraphQL input: the spec's lower-case action and severity as GraphQL's enum
 * values. A value the spec does not list is refused here in the rules' own words (GraphQL would
 * refuse it in its own, as a 422), and a value that is not text as GraphQL refused it before
 * these were enums.
 */
function ruleInput(body: Record<string, unknown>): Record<string, unknown> {
  const errors: string[] = [];
  let input = body;
  for (const [name, values] of Object.entries(RULE_ENUMS) as Array<[string, readonly string[]]>) {
    const value = body[name];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') errors.push(`${name} must be a string`);
    else if (!values.includes(value)) errors.push(`${name} must be one of: ${values.join(', ')}`);
    else input = mapMember(input, name, upperCased);
  }
  if (errors.length) throw badInput(errors);
  return input;
}

export const riskRoutes: Route[] = [
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
  {
    method: 'GET',
    path: '/rules',
    summary: "The organization's rules, newest first; the default mobile-money set is seeded on first use (scope rules:read)",
    query: PAGE_QUERY,
    operation: /* GraphQL */ `
      query RiskRules($first: Int!, $after: String) {
        riskRules(first: $first, after: $after) {
          nodes {
            ...RiskRuleFields
          }
          totalCount
        }
      }
      ${RISK_RULE}
    `,
    variables: ({ query }) => connectionSlice(query),
    // the spec's `rules`, with the page's place beside it
    result: (data, { query }) => keyedPageBody('rules', data.riskRules, query),
    response: { ...SNAKE_CASE, records: 'rules', lowercase: ['action', 'severity'] },
  },
  {
    method: 'PUT',
    path: '/rules/:id',
    summary: 'Create or update a rule: a new immutable version, effective for the next evaluation on every instance (scope rules:write)',
    body: [
      { name: 'condition', type: 'string', description: 'CEL over the documented environment; required to create' },
      { name: 'action', type: { enum: ['review', 'block'] }, description: 'Required to create' },
      { name: 'severity', type: { enum: ['low', 'medium', 'high', 'critical'] }, description: 'Default medium' },
      { name: 'name', type: 'string' },
      { name: 'description', type: 'string' },
      { name: 'enabled', type: 'boolean' },
    ],
    example: { condition: 'txn.amount > 100000.0 && txn.hour_utc < 5', action: 'review', severity: 'high', name: 'Large night transfer' },
    operation: /* GraphQL */ `
      mutation UpsertRiskRule($input: UpsertRiskRuleInput!) {
        upsertRiskRule(input: $input) {
          ruleId: riskRule {
            id
          }
          updated
          effectiveAt
          created
          ruleVersion: riskRule {
            version
          }
          revision
          userErrors {
            ...UserErrorFields
          }
        }
      }
      ${USER_ERRORS}
    `,
    variables: ({ params, body }) => ({ input: { ...ruleInput(body), id: params.id } }),
    // the change as the spec reports it: the rule's id and version among what the change did
    result: ({ upsertRiskRule: { userErrors: _errors, ...change } }) => change,
    response: { ...SNAKE_CASE, flatten: ['ruleId', 'ruleVersion'] },
    created: (data) => data.upsertRiskRule.created,
  },
  {
    method: 'POST',
    path: '/graph/query',
    summary: 'Run a read-only openCypher query over the organization’s transaction graph (scope graph:query)',
    body: [
      { name: 'query', type: 'string', required: true, description: 'The documented read-only subset' },
      { name: 'params', type: 'object', description: 'Values of $parameters' },
    ],
    example: {
      query: 'MATCH (a:Account {id: $id})-[:SENT*1..3]->(b) RETURN b.id AS b, count(*) AS paths ORDER BY paths DESC LIMIT 10',
      params: { id: '254700000001' },
    },
    operation: /* GraphQL */ `
      query RiskGraphQuery($query: String!, $params: JSON) {
        riskGraphQuery(query: $query, params: $params) {
          results
          nodesScanned
          latencyMs
          truncated
          columns
        }
      }
    `,
    variables: ({ body }) => ({ query: body.query, params: body.params }),
    response: { ...SNAKE_CASE, verbatim: ['results'] },
  },
];
