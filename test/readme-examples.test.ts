import { globSync, readFileSync } from 'node:fs';
import { buildSchema, parse, validate } from 'graphql';

/** The GraphQL examples of the README and of every page under docs/ are valid against the published API schema (schema/api.graphql). */
describe('README and docs GraphQL examples', () => {
  const schema = buildSchema(readFileSync('schema/api.graphql', 'utf8'));
  const pages = ['README.md', ...globSync('docs/**/*.md').sort()];
  // a block may hold several operations, each starting a line
  const operations = pages.flatMap((page) =>
    [...readFileSync(page, 'utf8').matchAll(/```graphql\n([\s\S]*?)```/g)].flatMap(([, block]) =>
      block
        .split(/\n(?=(?:query|mutation|subscription)\b|\{)/)
        .filter((op) => op.trim())
        .map((op) => [page, op] as const),
    ),
  );

  it('has examples in the README and in docs/', () => {
    expect(operations.filter(([page]) => page === 'README.md').length).toBeGreaterThanOrEqual(2);
    expect(operations.length).toBeGreaterThan(10);
  });

  it.each(operations.map(([page, op]) => [page, op.trim().split('\n')[0].slice(0, 60), op] as const))(
    '%s: %s',
    (_page, _name, operation) => {
      expect(validate(schema, parse(operation)).map((e) => e.message)).toEqual([]);
    },
  );
});
