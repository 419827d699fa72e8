import { badInput } from '../../../../platform/errors.js';
import { USER_ERRORS } from '../../../../platform/rest/fragments.js';
import { mapMember, SNAKE_CASE, upperCased } from '../../../../platform/rest/mapping.js';
import type { Route } from '../../../../platform/rest/route.js';
import { connectionSlice, keyedPageBody, PAGE_QUERY } from '../../../../platform/rest/paging.js';
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

/** Risk rules: the organization's list, and one rule created or changed (a PUT upsert). */
export const ruleRoutes: Route[] = [
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
];
