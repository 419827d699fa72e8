import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import { buildSchema, parse, specifiedRules, validate, type ValidationRule } from 'graphql';
import { ARMOR } from '../gateway/plugins/limits';
import { CASE_FEEDS, CASE_QUERIES, DECISIONS, QUEUE_OPERATIONS, RISK_FEED, RULES, USER_SIGNALS } from './src/operations';

/** The console's operations against the published schema: a renamed field fails here, not in a reviewer's browser. */
describe('console operations', () => {
  const schema = buildSchema(readFileSync(path.join(__dirname, '..', 'schema', 'api.graphql'), 'utf8'));
  const operations = {
    ...Object.fromEntries(
      Object.entries(QUEUE_OPERATIONS).flatMap(([kind, ops]) => Object.entries(ops).map(([k, v]) => [`${kind}.${k}`, v])),
    ),
    ...Object.fromEntries(Object.entries(CASE_QUERIES).map(([kind, v]) => [`case.${kind}`, v])),
    ...Object.fromEntries(Object.entries(CASE_FEEDS).map(([kind, v]) => [`events.${kind}`, v])),
    ...Object.fromEntries(Object.entries(DECISIONS).map(([kind, v]) => [`decision.${kind}`, v])),
    ...Object.fromEntries(Object.entries(RISK_FEED).map(([k, v]) => [`risk.${k}`, v])),
    ...Object.fromEntries(Object.entries(RULES).map(([k, v]) => [`rules.${k}`, v])),
    signals: USER_SIGNALS,
  };

  const limits = new ApolloArmor(ARMOR).protect().validationRules;

  it.each(Object.entries(operations))('%s is valid against schema/api.graphql and within the gateway’s limits', (_name, text) => {
    expect(validate(schema, parse(text), [...specifiedRules, ...(limits as ValidationRule[])]).map((e) => e.message)).toEqual([]);
  });
});
