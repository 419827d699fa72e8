import { readFileSync } from 'node:fs';
import { buildSchema, parse, validate } from 'graphql';

/** The README's GraphQL examples are valid against the published API schema (schema/api.graphql). */
describe('README GraphQL examples', () => {
  const schema = buildSchema(readFileSync('schema/api.graphql', 'utf8'));
  const readme = readFileSync('README.md', 'utf8');
  // a block may hold several operations, each starting a line
  const operations = [...readme.matchAll(/```graphql\n([\s\S]*?)```/g)].flatMap(([, block]) =>
    block.split(/\n(?=(?:query|mutation|subscription)\b|\{)/).filter((op) => op.trim()),
  );

  it('has examples', () => {
    expect(operations.length).toBeGreaterThan(10);
  });

  it.each(operations.map((op) => [op.trim().split('\n')[0].slice(0, 60), op] as const))('%s', (_name, operation) => {
    expect(validate(schema, parse(operation)).map((e) => e.message)).toEqual([]);
  });
});
