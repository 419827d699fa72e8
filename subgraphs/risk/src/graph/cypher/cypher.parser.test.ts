import { CypherError } from './cypher.error.js';
import { parseCypher } from './cypher.parser.js';
import type { MatchClause, ProjectionClause } from './cypher.ast.js';

function failure(query: string): CypherError {
  try {
    parseCypher(query);
  } catch (err) {
    if (err instanceof CypherError) return err;
    throw err;
  }
  throw new Error(`expected ${query} to fail`);
}

describe('Cypher parser', () => {
  describe('happy path', () => {
    it('parses MATCH with labels, property maps, types, directions and WHERE', () => {
      const q = parseCypher(
        'MATCH (a:Account {id: $id})-[r:SENT {currency: "KES"}]->(b)<-[:USED]-(d), (x)--(y) WHERE r.amount > 10 RETURN b',
      );
      const match = q.clauses[0] as MatchClause;
      expect(match.kind).toBe('match');
      expect(match.optional).toBe(false);
      expect(match.patterns).toHaveLength(2);
      const [p1, p2] = match.patterns;
      expect(p1.nodes.map((n) => n.variable)).toEqual(['a', 'b', 'd']);
      expect(p1.nodes[0].labels.map((l) => l.name)).toEqual(['Account']);
      expect(p1.nodes[0].properties[0]).toMatchObject({ key: 'id', value: { kind: 'param', name: 'id' } });
      expect(p1.rels.map((r) => [r.variable, r.types.map((t) => t.name), r.direction])).toEqual([
        ['r', ['SENT'], 'out'],
        [null, ['USED'], 'in'],
      ]);
      expect(p1.rels[0].properties[0]).toMatchObject({ key: 'currency', value: { kind: 'literal', value: 'KES' } });
      expect(p2.rels[0].direction).toBe('both');
      expect(match.where).toMatchObject({
        kind: 'binary',
        op: '>',
        left: { kind: 'property', key: 'amount' },
        right: { kind: 'literal', value: 10, integer: true },
      });
    });

    it('parses variable-length bounds', () => {
      const ranges = ['*', '*3', '*1..3', '*..4', '*2..'].map((r) => {
        const m = parseCypher(`MATCH (a)-[${r}]->(b) RETURN b`).clauses[0] as MatchClause;
        return m.patterns[0].rels[0].range;
      });
      expect(ranges).toEqual([
        { min: null, max: null },
        { min: 3, max: 3 },
        { min: 1, max: 3 },
        { min: null, max: 4 },
        { min: 2, max: null },
      ]);
    });

    it('parses OPTIONAL MATCH, WITH … WHERE, RETURN DISTINCT with aliases, aggregates, ORDER BY, SKIP, LIMIT', () => {
      const q = parseCypher(
        'MATCH (a:Account) OPTIONAL MATCH (a)-[:USED]->(d) WITH a, count(DISTINCT d) AS devices WHERE devices > 1 ' +
          'RETURN DISTINCT a.id AS account, devices ORDER BY devices DESC, account SKIP 1 LIMIT $n',
      );
      expect(q.clauses.map((c) => c.kind)).toEqual(['match', 'match', 'with', 'return']);
      expect((q.clauses[1] as MatchClause).optional).toBe(true);
      const w = q.clauses[2] as ProjectionClause;
      expect(w.items![1]).toMatchObject({ alias: 'devices', expr: { kind: 'call', name: 'count', distinct: true } });
      expect(w.where).toMatchObject({ kind: 'binary', op: '>' });
      const r = q.clauses[3] as ProjectionClause;
      expect(r.distinct).toBe(true);
      expect(r.items!.map((i) => [i.alias, i.text])).toEqual([
        ['account', 'a.id'],
        [null, 'devices'],
      ]);
      expect(r.orderBy.map((o) => o.descending)).toEqual([true, false]);
      expect(r.skip).toMatchObject({ kind: 'literal', value: 1 });
      expect(r.limit).toMatchObject({ kind: 'param', name: 'n' });
    });

    it('parses boolean logic, IN, STARTS WITH, ENDS WITH, CONTAINS, IS [NOT] NULL with precedence', () => {
      const q = parseCypher(
        'MATCH (a) WHERE NOT a.id IN ["x", "y"] AND a.id STARTS WITH "2547" OR a.id ENDS WITH "9" XOR a.id CONTAINS "00" AND a.id IS NOT NULL RETURN a',
      );
      const where = (q.clauses[0] as MatchClause).where!;
      // OR binds loosest, then XOR, then AND
      expect(where).toMatchObject({
        kind: 'binary',
        op: 'or',
        left: { kind: 'binary', op: 'and', left: { kind: 'not', arg: { kind: 'binary', op: 'in' } }, right: { op: 'startsWith' } },
        right: {
          kind: 'binary',
          op: 'xor',
          left: { op: 'endsWith' },
          right: { op: 'and', left: { op: 'contains' }, right: { kind: 'isNull', negated: true } },
        },
      });
    });

    it('decodes string escapes and quoted names', () => {
      const q = parseCypher("MATCH (`my var`:Account) WHERE `my var`.id = 'it\\'s \\u00e9' RETURN `my var`");
      const m = q.clauses[0] as MatchClause;
      expect(m.patterns[0].nodes[0].variable).toBe('my var');
      expect(m.where).toMatchObject({ right: { kind: 'literal', value: "it's é" } });
    });

    it('accepts keywords in any case, comments and a trailing semicolon', () => {
      const q = parseCypher('match (a) // first\n /* block */ return a;');
      expect(q.clauses.map((c) => c.kind)).toEqual(['match', 'return']);
    });
  });

  describe('errors carry the position', () => {
    it('reports the offending token with line and column', () => {
      const e = failure('MATCH (a RETURN a');
      expect(e.message).toBe("Expected ')' but found 'RETURN' (line 1, column 10)");
      expect(e.position).toEqual({ offset: 9, line: 1, column: 10 });
    });

    it('counts lines and columns across newlines', () => {
      const e = failure('MATCH (a:Account)\nWHERE a.id = \nRETURN a');
      expect(e.position).toMatchObject({ line: 3, column: 1 });
      expect(e.message).toMatch(/Expected an expression but found 'RETURN' \(line 3, column 1\)/);
    });

    it.each([
      ["MATCH (a) WHERE a.id = 'open RETURN a", 'Unterminated string', 1, 24],
      ['MATCH (a) RETURN a.', 'Expected a property name after . but found end of query', 1, 20],
      ['MATCH (a)-[r:SENT*-1]->(b) RETURN b', "Expected ']' but found '-'", 1, 19],
      ['MATCH (a)<-[r]->(b) RETURN a', 'A relationship cannot point both ways', 1, 10],
      ['MATCH (a) RETURN a ORDER a', "Expected BY but found 'a'", 1, 26],
      ['MATCH (a) RETURN 12abc', 'Malformed number', 1, 18],
      ['MATCH (a) RETURN a ? 1', "Unexpected character '?'", 1, 20],
      ['', 'Empty query', 1, 1],
    ])('%s → %s', (query, message, line, column) => {
      const e = failure(query);
      expect(e.message).toContain(message);
      expect(e.position).toMatchObject({ line, column });
    });

    it.each([
      ['CREATE (a:Account {id: "x"})', 'CREATE', 1],
      ['MATCH (a) MERGE (a)-[:SENT]->(b)', 'MERGE', 11],
      ['MATCH (a) SET a.id = "x"', 'SET', 11],
      ['MATCH (a) DELETE a', 'DELETE', 11],
      ['MATCH (a) DETACH DELETE a', 'DETACH', 11],
      ['MATCH (a) REMOVE a.id', 'REMOVE', 11],
      ['DROP INDEX x', 'DROP', 1],
      ['CALL db.labels()', 'procedure calls (CALL)', 1],
      ['MATCH (a) WITH a CALL { MATCH (b) RETURN b } RETURN a', 'procedure calls (CALL)', 18],
    ])('refuses the write clause in %s', (query, what, column) => {
      const e = failure(query);
      expect(e.kind).toBe('write');
      expect(e.message).toContain('read-only');
      expect(e.message).toContain(what);
      expect(e.position).toMatchObject({ line: 1, column });
    });

    it.each([
      ['MATCH p = (a)-->(b) RETURN p', 'path variables', 7],
      ['UNWIND [1, 2] AS x RETURN x', 'UNWIND', 1],
      ['MATCH (a) RETURN CASE WHEN true THEN 1 END', 'CASE', 18],
      ['MATCH (a) RETURN [x IN [1] WHERE x > 0]', 'list comprehensions', 28],
      ['MATCH (a:Account|Device) RETURN a', 'label expressions', 17],
      ['MATCH (a) RETURN {id: a.id}', 'map literals', 18],
      ["MATCH (a) WHERE a.id =~ 'x.*' RETURN a", 'regular expressions', 22],
      ['MATCH (a) RETURN a; MATCH (b) RETURN b', 'several statements', 21],
      ['MATCH (a) WHERE (a)-[:SENT]->() RETURN a', 'pattern expressions', 17],
      ['MATCH (a) RETURN a.list[0]', 'list indexing', 24],
    ])('reports unsupported syntax with its position: %s', (query, what, column) => {
      const e = failure(query);
      expect(e.kind).toBe('unsupported');
      expect(e.message).toContain(`Unsupported syntax: `);
      expect(e.message).toContain(what);
      expect(e.position).toMatchObject({ line: 1, column });
    });
  });
});
