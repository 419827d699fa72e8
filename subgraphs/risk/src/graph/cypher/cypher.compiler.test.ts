import { compileCypher, type CompileOptions } from './cypher.compiler.js';
import { CypherError } from './cypher.error.js';
import { parseCypher } from './cypher.parser.js';

const ORG = '11111111-1111-1111-1111-111111111111';
const base: CompileOptions = { organizationId: ORG, environment: 'live', params: {}, maxRows: 100, maxHops: 6 };

const compile = (query: string, params: Record<string, unknown> = {}, opts: Partial<CompileOptions> = {}) =>
  compileCypher(parseCypher(query), { ...base, params, ...opts });

function failure(query: string, params: Record<string, unknown> = {}): CypherError {
  try {
    compile(query, params);
  } catch (err) {
    if (err instanceof CypherError) return err;
    throw err;
  }
  throw new Error(`expected ${query} to fail`);
}

/** Every table alias read must carry both tenancy predicates. */
function expectTenancy(sql: string): void {
  const aliases = [...sql.matchAll(/risk\.(?:accounts|devices|ips|transfers|account_devices|account_ips) (?!as\b)([a-z]\d+)\b/g)].map(
    (m) => m[1],
  );
  for (const alias of aliases) {
    expect(sql).toContain(`${alias}.organization_id = $1 and ${alias}.environment = $2`);
  }
  // tables read inside unions carry their tenancy through the derived alias or the walk's join
  const unions = [...sql.matchAll(/\) ([a-z]\d+) /g)].map((m) => m[1]);
  for (const alias of unions.filter((a) => /^[nr]\d+$/.test(a)))
    expect(sql).toContain(`${alias}.organization_id = $1 and ${alias}.environment = $2`);
}

describe('Cypher → SQL compiler', () => {
  describe('the SQL produced', () => {
    it('one SENT hop from an anchored account reads only risk.transfers, parameterised', () => {
      const c = compile('MATCH (a:Account {id: $id})-[:SENT]->(b) RETURN b.id', { id: 'acc-1' });
      expect(c.sql).toBe(
        'select q.c0 from (select to_jsonb(r1.receiver) as c0 from risk.transfers r1 ' +
          'where (r1.organization_id = $1 and r1.environment = $2) and ((r1.sender = $3::text))) q limit 101',
      );
      expect(c.values).toEqual([ORG, 'live', 'acc-1']);
      expect(c.columns).toEqual(['b.id']);
    });

    it('two hops join the edge table twice with relationship uniqueness', () => {
      const c = compile('MATCH (a:Account {id: $id})-[:SENT]->(b)-[:SENT]->(c) RETURN count(DISTINCT c) AS n', { id: 'x' });
      expect(c.sql).toBe(
        'select q.c0 from (select to_jsonb(count(distinct r2.receiver)) as c0 from risk.transfers r1 cross join risk.transfers r2 ' +
          'where (r1.organization_id = $1 and r1.environment = $2) and ((r1.sender = $3::text)) and (r2.organization_id = $1 and r2.environment = $2) ' +
          'and (r1.receiver = r2.sender) and (r1.transaction_id <> r2.transaction_id)) q limit 101',
      );
      expect(c.columns).toEqual(['n']);
    });

    it('an isolated labelled node scans its label table; an unlabeled one the union of node tables', () => {
      expect(compile('MATCH (d:Device) RETURN count(d) AS n').sql).toBe(
        'select q.c0 from (select to_jsonb(count(n1.id)) as c0 from risk.devices n1 where (n1.organization_id = $1 and n1.environment = $2)) q limit 101',
      );
      const any = compile('MATCH (n) RETURN n').sql;
      expect(any).toContain(
        "select 'Account'::text as label, id as key, organization_id, environment from risk.accounts union all select 'Device'::text",
      );
      expect(any).toContain("select 'IP'::text as label, address as key");
      expect(any).toContain("when n1.label = 'IP' then jsonb_build_object('_label', 'IP', 'address', n1.key)");
      expectTenancy(any);
    });

    it('variable-length paths walk recursively from the anchored end, bounded, with edge uniqueness', () => {
      const c = compile('MATCH (a)-[r:SENT*1..3]->(b:Account {id: $id}) RETURN a.id AS a, size(r) AS hops', { id: 'z' });
      // anchored on b (reversed pattern): the walk starts from the node b, following SENT backwards
      expect(c.sql).toContain(
        'from risk.accounts n1 cross join lateral (with recursive w(node, node_label, depth, eids, rels) as (select n1.id::text',
      );
      expect(c.sql).toContain('receiver as a_end');
      expect(c.sql).toContain('sender as b_end');
      expect(c.sql).toContain('w.depth < 3 and not (e.eid = any(w.eids))');
      expect(c.sql).toContain('where depth >= 1) v2');
      expect(c.sql).toContain('e.organization_id = $1 and e.environment = $2');
      expect(c.sql).toContain('(n1.id = $3::text)');
      expect(c.sql).toContain('jsonb_array_length(v2.rels)');
    });

    it('unbounded * takes the configured hop limit; beyond it is refused', () => {
      expect(compile('MATCH (a:Account {id: "x"})-[:SENT*]->(b) RETURN b', {}, { maxHops: 4 }).sql).toContain('w.depth < 4');
      expect(failure('MATCH (a)-[:SENT*1..9]->(b) RETURN b').message).toMatch(/at most 6 hops \(line 1, column 10\)/);
      expect(failure('MATCH (a)-[:SENT*3..2]->(b) RETURN b').message).toMatch(/lower bound/);
    });

    it('untyped or undirected relationships read a union of oriented edges', () => {
      const c = compile('MATCH (a:Account {id: "x"})-[r]-(b) RETURN type(r) AS t, b');
      for (const t of ['SENT', 'USED', 'FROM_IP']) expect(c.sql).toContain(`select '${t}'::text as type`);
      // both orientations of each type
      expect(c.sql.match(/union all/g)).toHaveLength(5);
      expect(c.sql).toContain("r1.a_label = any(array['Account'])");
      expectTenancy(c.sql);
    });

    it('OPTIONAL MATCH is a LEFT JOIN LATERAL; WITH is a subquery stage; aggregation groups by the other items', () => {
      const c = compile(
        'MATCH (a:Account) OPTIONAL MATCH (a)-[:USED]->(d:Device) WITH a, count(d) AS devices WHERE devices >= $min RETURN a.id AS account, devices ORDER BY devices DESC LIMIT 5',
        { min: 2 },
      );
      expect(c.sql).toContain(
        'left join lateral (select r2.device_id as c0 from risk.account_devices r2 where (r2.organization_id = $1 and r2.environment = $2) and (n1.id = r2.account_id)) o3 on true',
      );
      expect(c.sql).toContain('group by n1.id');
      expect(c.sql).toContain('where ((s4.c1 >= $3::bigint))');
      expect(c.sql).toMatch(/order by ord0 desc limit 5$/);
      expect(c.values).toEqual([ORG, 'live', 2]);
    });

    it('IN with a list parameter compiles to = any(array) (index friendly); other lists use jsonb containment', () => {
      const c = compile('MATCH (a:Account) WHERE a.id IN $ids RETURN a.id', { ids: ['x', 'y'] });
      expect(c.sql).toContain('(n1.id = any($3::text[]))');
      expect(c.values[2]).toEqual(['x', 'y']);
      const literal = compile('MATCH (a:Account)-[r:SENT]->(b) WHERE r.currency IN ["KES", "UGX"] RETURN b.id');
      expect(literal.sql).toContain('(jsonb_build_array(to_jsonb($3::text), to_jsonb($4::text)) @> to_jsonb(r1.currency))');
    });

    it('string predicates, null checks, date coercion and boolean logic', () => {
      const c = compile(
        'MATCH (a:Account)-[r:SENT]->(b) WHERE (a.id STARTS WITH "254" OR b.id ENDS WITH "9") AND NOT r.channel CONTAINS "ussd" AND r.channel IS NOT NULL AND r.at >= $since RETURN r',
        { since: '2026-01-01T00:00:00Z' },
      );
      expect(c.sql).toContain('starts_with(r1.sender, $3::text)');
      expect(c.sql).toContain('(right(r1.receiver, length($4::text)) = $4::text)');
      expect(c.sql).toContain('(not (strpos(r1.channel, $5::text) > 0))');
      expect(c.sql).toContain('(r1.channel is not null)');
      expect(c.sql).toContain('(r1.at >= ($6::text)::timestamptz)');
      expect(c.sql).toContain(
        "jsonb_build_object('_type', 'SENT'::text, '_from', r1.sender, '_to', r1.receiver, 'transaction_id', r1.transaction_id",
      );
    });

    it('caps rows at maxRows + 1 (truncation is detected), below it the LIMIT given', () => {
      expect(compile('MATCH (a:Account) RETURN a').sql).toMatch(/limit 101$/);
      expect(compile('MATCH (a:Account) RETURN a LIMIT 7').sql).toMatch(/limit 7$/);
      expect(compile('MATCH (a:Account) RETURN a SKIP $s LIMIT 500', { s: 3 }).sql).toMatch(/limit 101 offset 3$/);
    });

    it('arithmetic: integer %, double % via numeric; a query reading no table still types the tenant parameters', () => {
      expect(compile('MATCH (a)-[r:SENT]->(b) RETURN r.amount % 7 AS m, 7 % 2 AS i').sql).toContain(
        'mod((r1.amount)::numeric, ($3::bigint)::numeric)::float8',
      );
      expect(compile('RETURN 1 + 2 AS three, null AS n').sql).toBe(
        "with tenant as (select $1::uuid as organization_id, $2::text as environment) select q.c0, q.c1 from (select to_jsonb(($3::bigint + $4::bigint)) as c0, 'null'::jsonb as c1) q limit 101",
      );
    });

    it('never puts caller text into the SQL: values are parameters, names are checked', () => {
      const evil = "x'); drop table risk.transfers; --";
      const c = compile(`MATCH (a:Account {id: $p})-[r:SENT]->(b) WHERE b.id = '${evil.replace(/'/g, "\\'")}' RETURN a.id AS \`${evil}\``, {
        p: evil,
      });
      expect(c.sql).not.toContain('drop table');
      expect(c.values).toEqual([ORG, 'live', evil, evil]);
      expect(c.columns).toEqual([evil]);
    });
  });

  describe('semantic errors (400 with position)', () => {
    it.each([
      ['MATCH (a:Person) RETURN a', 'Unknown label Person; labels are Account, Device, IP', 10],
      ['MATCH (a)-[:PAID]->(b) RETURN a', 'Unknown relationship type PAID; types are SENT, USED, FROM_IP', 13],
      ['MATCH (a:Account) RETURN a.name', 'Account has no property name', 28],
      ['MATCH (a)-[r:SENT]->(b) RETURN r.uses', 'SENT has no property uses; it has transaction_id, amount, currency, channel, at', 34],
      ['MATCH (a) RETURN b', 'Variable b is not defined', 18],
      ['MATCH (a) WHERE count(a) > 1 RETURN a', 'Aggregations are not allowed in WHERE', 17],
      ['MATCH (a) RETURN count(count(a))', 'Aggregations cannot be nested', 24],
      ['MATCH (a:Account) WHERE a.id = $missing RETURN a', 'Missing parameter $missing', 32],
      ['MATCH (a) WITH a.id RETURN 1 AS x', 'Expressions in WITH must be aliased', 16],
      ['MATCH (a:Account)-[r:SENT]->(b) WHERE r.amount > "big" RETURN a', 'Cannot compare number with string', 48],
      ['MATCH (a:Account) RETURN DISTINCT a.id AS id ORDER BY a.foo', 'has no property foo', 57],
      ['MATCH (a:Account)-[r:SENT]->(b) RETURN DISTINCT b.id AS id ORDER BY r.amount', 'ORDER BY may only use the projected values', 69],
      ['MATCH (a:Account) RETURN a.id, a.id', 'Multiple result columns named a.id', 32],
      ['MATCH (a) RETURN nosuch(a)', 'Unknown function nosuch()', 18],
      ['MATCH (a) RETURN id(a)', 'nodes are identified by their id', 18],
      ['MATCH (a:Account) RETURN a LIMIT -1', 'LIMIT must be a non-negative integer', 34],
      ['MATCH (a:Account)', 'A query must end with RETURN', 1],
      ['MATCH (a:Account) WHERE a.id RETURN a', 'WHERE needs a boolean condition', 25],
    ])('%s → %s', (query, message, column) => {
      const e = failure(query);
      expect(e.message).toContain(message);
      expect(e.position?.column).toBe(column);
    });

    it('refuses object parameters', () => {
      expect(failure('MATCH (a:Account {id: $p}) RETURN a', { p: { id: 1 } }).message).toMatch(
        /Parameter \$p must be a string, number, boolean, null or a list of them/,
      );
    });
  });
});
