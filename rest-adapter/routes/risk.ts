import type { OperationData, Route } from '../route.js';

/**
 * Part A of the spec (transaction risk). Bodies and answers use the spec's snake_case
 * (`transaction_id`, `evaluation_id`, `latency_ms`, `nodes_scanned`…); the GraphQL fields are
 * their camelCase twins (validation messages name the GraphQL field: `transactionId is required`).
 * Invalid bodies are 400 (Part A's error table). Keys: `Authorization: Bearer risk_live_…`.
 */

export const RISK_EVALUATION = /* GraphQL */ `
  fragment RiskEvaluationFields on RiskEvaluation {
    id
    transactionId
    score
    action
    mock
    latencyMs
    reasons
    createdAt
    rulesRevision
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
      account
      name
      source
      kind
      externalId
      primaryName
      matchedName
      score
      listVersion
    }
    transaction {
      amount
      currency
      sender
      receiver
      channel
      metadata
    }
  }
`;

/** What POST /v1/evaluate answers (the lookup has the details). */
export const RISK_EVALUATION_SUMMARY = /* GraphQL */ `
  fragment RiskEvaluationSummaryFields on RiskEvaluation {
    id
    transactionId
    score
    action
    mock
    latencyMs
    reasons
    createdAt
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
  }
`;

export const RISK_RULE = /* GraphQL */ `
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

const dropNulls = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined));

function layers(e: OperationData) {
  return {
    rules: { fired: e.layers.rules.fired, checked: e.layers.rules.checked, score: e.layers.rules.score },
    graph: { patterns_found: e.layers.graph.patternsFound, nodes_traversed: e.layers.graph.nodesTraversed, score: e.layers.graph.score },
    sanctions: { hits: e.layers.sanctions.hits, lists_checked: e.layers.sanctions.listsChecked, score: e.layers.sanctions.score },
  };
}

/** POST /v1/evaluate's answer. */
export function evaluationBody(e: OperationData) {
  return {
    evaluation_id: e.id,
    transaction_id: e.transactionId,
    score: e.score,
    action: e.action,
    mock: e.mock,
    latency_ms: e.latencyMs,
    layers: layers(e),
    reasons: e.reasons,
    created_at: e.createdAt,
  };
}

/** GET /v1/evaluations/:id's answer: the evaluation with what each layer found. */
export function evaluationDetailBody(e: OperationData) {
  return {
    ...evaluationBody(e),
    rules_fired: e.rulesFired.map((r: OperationData) => ({
      id: r.id,
      name: r.name,
      description: r.description,
      version: r.version,
      action: r.action,
      severity: r.severity,
    })),
    rule_errors: e.ruleErrors,
    graph_patterns: e.graphPatterns.map((p: OperationData) => dropNulls({ ...p })),
    sanctions_hits: e.sanctionsHits.map((h: OperationData) => ({
      party: h.party,
      account: h.account,
      name: h.name,
      source: h.source,
      kind: h.kind,
      external_id: h.externalId,
      primary_name: h.primaryName,
      matched_name: h.matchedName,
      score: h.score,
      list_version: h.listVersion,
    })),
    transaction: e.transaction,
    rules_revision: e.rulesRevision,
  };
}

export function ruleBody(r: OperationData) {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    condition: r.condition,
    action: r.action,
    severity: r.severity,
    enabled: r.enabled,
    version: r.version,
    is_default: r.isDefault,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
  };
}

/** Body fields → GraphQL input fields, only those sent (absent stays absent). */
function pick(body: Record<string, unknown>, map: Record<string, string>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(map)
      .filter(([from]) => Object.hasOwn(body, from))
      .map(([from, to]) => [to, body[from]]),
  );
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
    operation: /* GraphQL */ `
      mutation EvaluateTransaction($input: EvaluateTransactionInput!) {
        evaluateTransaction(input: $input) {
          ...RiskEvaluationSummaryFields
        }
      }
      ${RISK_EVALUATION_SUMMARY}
    `,
    variables: ({ body }) => ({
      input: pick(body, {
        transaction_id: 'transactionId',
        amount: 'amount',
        currency: 'currency',
        sender: 'sender',
        receiver: 'receiver',
        channel: 'channel',
        metadata: 'metadata',
      }),
    }),
    result: (data) => evaluationBody(data.evaluateTransaction),
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
    result: (data) => evaluationDetailBody(data.riskEvaluation),
  },
  {
    method: 'GET',
    path: '/rules',
    summary: "The organization's rules; the default mobile-money set is seeded on first use (scope rules:read)",
    operation: /* GraphQL */ `
      query RiskRules {
        riskRules {
          ...RiskRuleFields
        }
      }
      ${RISK_RULE}
    `,
    variables: () => ({}),
    result: (data) => ({ rules: data.riskRules.map(ruleBody) }),
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
    operation: /* GraphQL */ `
      mutation PutRiskRule($id: String!, $input: RiskRuleInput!) {
        putRiskRule(id: $id, input: $input) {
          id
          updated
          created
          effectiveAt
          version
          revision
        }
      }
    `,
    variables: ({ params, body }) => ({
      id: params.id,
      input: pick(body, {
        condition: 'condition',
        action: 'action',
        severity: 'severity',
        name: 'name',
        description: 'description',
        enabled: 'enabled',
      }),
    }),
    result: (data) => {
      const c = data.putRiskRule;
      return { id: c.id, updated: c.updated, effective_at: c.effectiveAt, created: c.created, version: c.version, revision: c.revision };
    },
    status: (data) => (data.putRiskRule.created ? 201 : 200),
  },
  {
    method: 'POST',
    path: '/graph/query',
    summary: 'Run a read-only openCypher query over the organization’s transaction graph (scope graph:query)',
    body: [
      { name: 'query', type: 'string', required: true, description: 'The documented read-only subset' },
      { name: 'params', type: 'object', description: 'Values of $parameters' },
    ],
    operation: /* GraphQL */ `
      query RiskGraphQuery($query: String!, $params: RiskJSON) {
        riskGraphQuery(query: $query, params: $params) {
          results
          columns
          nodesScanned
          latencyMs
          truncated
        }
      }
    `,
    variables: ({ body }) => ({ query: body.query, params: body.params }),
    result: (data) => {
      const r = data.riskGraphQuery;
      return { results: r.results, nodes_scanned: r.nodesScanned, latency_ms: r.latencyMs, truncated: r.truncated, columns: r.columns };
    },
  },
];
