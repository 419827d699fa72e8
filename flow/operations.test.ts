import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import { buildSchema, parse, specifiedRules, validate, type ValidationRule } from 'graphql';
import { ARMOR } from '../gateway/plugins/limits';
import * as ops from './src/operations';

/** The flow page's operations against the published schema: a renamed field fails here, not in a person's browser. */
describe('flow operations', () => {
  const schema = buildSchema(readFileSync(path.join(__dirname, '..', 'schema', 'api.graphql'), 'utf8'));
  const limits = new ApolloArmor(ARMOR).protect().validationRules;
  const operations: Array<[string, string]> = Object.entries(ops).flatMap(([name, value]) =>
    typeof value === 'string'
      ? [[name, value]]
      : Object.entries(value).flatMap(([kind, group]) =>
          Object.entries(group as Record<string, string>)
            .filter(([key]) => key !== 'field')
            .map(([key, text]): [string, string] => [`${name}.${kind}.${key}`, text]),
        ),
  );

  it.each(operations)('%s is valid against schema/api.graphql and within the gateway’s limits', (_name, text) => {
    expect(validate(schema, parse(text), [...specifiedRules, ...(limits as ValidationRule[])]).map((e) => e.message)).toEqual([]);
  });
});
