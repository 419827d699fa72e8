import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { importSnapshot } from '../screening/index.js';
import { eventually, startTestStack, type TestStack } from './support/stack.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const EVALUATION_FIELDS = `id transactionId score action mock latencyMs reasons createdAt
  layers { rules { fired checked score } graph { patternsFound nodesTraversed score } sanctions { hits listsChecked score } }
  rulesFired { id action severity } graphPatterns { type accounts length count ratio } sanctionsHits { party name }`;

describe('risk: evaluate, look up, monitor, sandbox, graph queries (REST, GraphQL, subscriptions)', () => {
  let stack: TestStack;
  let key: string;
  let org: string;
  let auth: Record<string, string>;

  const bearer = (k: string) => ({ authorization: `Bearer ${k}` });
  const txn = (over: Record<string, unknown> = {}) => ({
    transaction_id: `tx-${randomUUID()}`,
    amount: 1_500,
    currency: 'KES',
    sender: `acc-${randomUUID().slice(0, 8)}`,
    receiver: `acc-${randomUUID().slice(0, 8)}`,
    channel: 'mobile_money',
    ...over,
  });
  const evaluate = (body: Record<string, unknown>, headers = auth) => stack.rest('POST', '/v1/evaluate', body, headers);
  const cypher = (query: string, params: Record<string, unknown> = {}, headers = auth) =>
    stack.rest('POST', '/v1/graph/query', { query, params }, headers);

  beforeAll(async () => {
    stack = await startTestStack({ GRAPH_QUERY_TIMEOUT_MS: '300', GRAPH_QUERY_MAX_ROWS: '50', GRAPH_QUERY_POOL_SIZE: '1' });
    const client = await stack.createClient({ name: 'risk live', service: 'risk' });
    key = client.apiKey;
    org = client.organizationId;
    auth = bearer(key);
  });
  afterAll(() => stack?.stop());

  describe('authentication and scopes', () => {
    it('401 without a key or with an unknown one; 403 for another service’s key or a missing scope', async () => {
      expect((await evaluate(txn(), {})).status).toBe(401);
      expect((await evaluate(txn(), bearer('risk_live_nope'))).status).toBe(401);
      const verification = await stack.createClient({ name: 'kyc' });
      const other = await evaluate(txn(), bearer(verification.apiKey));
      expect(other.status).toBe(403);
      expect(other.body.code).toBe('FORBIDDEN');
      const reader = await stack.createClient({
        name: 'reader',
        service: 'risk',
        organizationId: org,
        permissions: ['evaluations:read', 'rules:read'],
      });
      const denied = await evaluate(txn(), bearer(reader.apiKey));
      expect(denied.status).toBe(403);
      expect(denied.body.message).toMatch(/requires evaluate/);
      expect((await cypher('MATCH (a:Account) RETURN count(a) AS n', {}, bearer(reader.apiKey))).status).toBe(403);
      expect((await stack.rest('PUT', '/v1/rules/x', { condition: 'true', action: 'review' }, bearer(reader.apiKey))).status).toBe(403);
      expect((await stack.rest('GET', '/v1/rules', undefined, bearer(reader.apiKey))).status).toBe(200);
    });

    it('429 over the rate limit, with Retry-After', async () => {
      const tiny = await stack.createClient({ name: 'tiny', service: 'risk', rateLimit: 2 });
      const statuses: number[] = [];
      let last;
      while (!statuses.includes(429) && statuses.length < 8) {
        last = await evaluate(txn(), bearer(tiny.apiKey));
        statuses.push(last.status);
      }
      expect(statuses.slice(0, 2)).toEqual([200, 200]);
      expect(last!.status).toBe(429);
      expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    });
  });

  describe('POST /v1/evaluate', () => {
    it('returns the spec’s fields: evaluation_id, score 0–100, action, latency_ms, layers, reasons, created_at', async () => {
      const body = txn({ metadata: { device_id: 'dev-1', ip: '41.90.1.2', location: { lat: -1.2921, lng: 36.8219 } } });
      const res = await evaluate(body);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        evaluation_id: expect.stringMatching(UUID),
        transaction_id: body.transaction_id,
        score: expect.any(Number),
        action: expect.stringMatching(/^(allow|review|block)$/),
        mock: false,
        latency_ms: expect.any(Number),
        layers: {
          rules: { fired: expect.any(Number), checked: 9, score: expect.any(Number) },
          graph: { patterns_found: 0, nodes_traversed: expect.any(Number), score: 0 },
          sanctions: { hits: 0, lists_checked: expect.any(Number), score: 0 },
        },
        reasons: expect.any(Array),
        created_at: expect.any(String),
      });
      expect(res.body.score).toBeGreaterThanOrEqual(0);
      expect(res.body.score).toBeLessThanOrEqual(100);
      expect(res.body.layers.graph.nodes_traversed).toBeGreaterThan(0);
      // also without /v1
      expect((await stack.rest('POST', '/evaluate', txn(), auth)).status).toBe(200);
    });

    it('400 for every invalid body (required fields, types, ranges), as the spec’s table says', async () => {
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{ transaction_id: undefined }, /transactionId is required/],
        [{ amount: undefined }, /amount is required/],
        [{ currency: undefined }, /currency is required/],
        [{ sender: undefined }, /sender is required/],
        [{ receiver: undefined }, /receiver is required/],
        [{ amount: 'lots' }, /amount must be a number/],
        [{ amount: 0 }, /amount must be greater than 0/],
        [{ amount: -10 }, /amount must be greater than 0/],
        [{ currency: 'KSH' }, /ISO 4217/],
        [{ currency: 'kes' }, /ISO 4217/],
        [{ sender: 'same', receiver: 'same' }, /receiver must differ from sender/],
        [{ channel: 'bad channel' }, /channel must be/],
        [{ metadata: 'x' }, /metadata/],
        [{ metadata: { location: { lat: 120, lng: 0 } } }, /metadata.location.lat must be a number between -90 and 90/],
        [{ metadata: { location: { lat: 0, lng: 200 } } }, /metadata.location.lng must be a number between -180 and 180/],
        [{ metadata: { ip: 'not-an-ip' } }, /metadata.ip must be an IPv4 or IPv6 address/],
        [{ metadata: { device_id: 42 } }, /metadata.device_id/],
      ];
      for (const [patch, message] of cases) {
        const body = { ...txn(), ...patch };
        const res = await evaluate(JSON.parse(JSON.stringify(body)));
        expect([JSON.stringify(patch), res.status]).toEqual([JSON.stringify(patch), 400]);
        expect(res.body.code).toBe('BAD_USER_INPUT');
        expect(JSON.stringify(res.body.message)).toMatch(message);
      }
      expect((await stack.rest('POST', '/v1/evaluate', '{"amount": ', { ...auth, 'content-type': 'application/json' })).status).toBe(400);
    });

    it('409 when transaction_id was already used in the organization — also under concurrent duplicates', async () => {
      const body = txn();
      expect((await evaluate(body)).status).toBe(200);
      const again = await evaluate({ ...body, amount: 99 });
      expect(again.status).toBe(409);
      expect(again.body.code).toBe('CONFLICT');

      const racing = txn();
      const results = await Promise.all(Array.from({ length: 6 }, () => evaluate(racing)));
      expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
      // exactly one SENT edge and one evaluation were written
      const edges = await cypher('MATCH ()-[r:SENT {transaction_id: $t}]->() RETURN count(r) AS n', { t: racing.transaction_id });
      expect(edges.body.results).toEqual([{ n: 1 }]);
      const list = await stack.gql(
        `query($f: RiskEvaluationFilter) { riskEvaluations(filter: $f) { totalCount } }`,
        { f: { transactionId: racing.transaction_id } },
        auth,
      );
      expect(list.body.data.riskEvaluations.totalCount).toBe(1);
      // and the losers left no counters behind: the sender's next transfer sees exactly one before it
      const next = await stack.gql(
        `mutation($i: EvaluateTransactionInput!) { evaluateTransaction(input: $i) { riskEvaluation { facts } } }`,
        { i: { transactionId: `tx-${randomUUID()}`, amount: 5, currency: 'KES', sender: racing.sender, receiver: racing.receiver } },
        auth,
      );
      expect(next.body.data.evaluateTransaction.riskEvaluation.facts.sender).toMatchObject({ count_1h: 1, sum_1h: racing.amount });
      expect(next.body.data.evaluateTransaction.riskEvaluation.facts.pair).toMatchObject({ count_24h: 1 });

      // another organization may use the same transaction_id
      const other = await stack.createClient({ name: 'other org', service: 'risk' });
      expect((await evaluate(body, bearer(other.apiKey))).status).toBe(200);
    });

    it('writes the evaluation, the SENT edge and the device/IP edges together; the next evaluation counts it', async () => {
      const sender = `acc-${randomUUID().slice(0, 8)}`;
      const first = await evaluate(txn({ sender, receiver: 'shop-1', amount: 100, metadata: { device_id: 'phone-1', ip: '10.1.1.1' } }));
      expect(first.status).toBe(200);
      const graph = await cypher(
        'MATCH (a:Account {id: $s})-[r:SENT]->(b:Account) OPTIONAL MATCH (a)-[:USED]->(d:Device) OPTIONAL MATCH (a)-[:FROM_IP]->(ip:IP) RETURN b.id AS b, r.amount AS amount, r.channel AS channel, d.id AS device, ip.address AS ip',
        { s: sender },
      );
      expect(graph.status).toBe(200);
      expect(graph.body.results).toEqual([{ b: 'shop-1', amount: 100, channel: 'mobile_money', device: 'phone-1', ip: '10.1.1.1' }]);
      const second = await stack.gql(
        `mutation($i: EvaluateTransactionInput!) { evaluateTransaction(input: $i) { riskEvaluation { facts } } }`,
        {
          i: {
            transactionId: `tx-${randomUUID()}`,
            amount: 250,
            currency: 'KES',
            sender,
            receiver: 'shop-1',
            metadata: { device_id: 'phone-1' },
          },
        },
        auth,
      );
      const facts = second.body.data.evaluateTransaction.riskEvaluation.facts;
      expect(facts.sender).toMatchObject({ count_1h: 1, sum_1h: 100, count_24h: 1, sum_24h: 100, is_new: false });
      expect(facts.pair).toMatchObject({ count_24h: 1, is_new: false });
      expect(facts.device).toMatchObject({ present: true, new_for_sender: false, distinct_accounts_24h: 1, count_1h: 1 });
      expect(facts.receiver).toMatchObject({ count_1h: 1, distinct_senders_24h: 1 });
    });

    it('velocity: the default burst rule fires from the 6th transfer in an hour (review), with its reason', async () => {
      const sender = `burst-${randomUUID().slice(0, 8)}`;
      let last;
      for (let i = 0; i < 6; i++) last = await evaluate(txn({ sender, amount: 50 }));
      expect(last!.body.action).toBe('review');
      expect(last!.body.layers.rules.fired).toBeGreaterThanOrEqual(1);
      expect(last!.body.reasons.join('\n')).toMatch(/rule velocity_burst \(medium, review\)/);
      const detail = await stack.rest('GET', `/v1/evaluations/${last!.body.evaluation_id}`, undefined, auth);
      expect(detail.status).toBe(200);
      expect(detail.body.rules_fired).toContainEqual(
        expect.objectContaining({ id: 'velocity_burst', action: 'review', severity: 'medium', version: 1 }),
      );
      expect(detail.body).toMatchObject({
        evaluation_id: last!.body.evaluation_id,
        transaction_id: last!.body.transaction_id,
        graph_patterns: [],
        sanctions_hits: [],
      });
    });

    it('graph layer: a round trip closes a cycle, a mule collects from many senders (fan-in), funds pass straight through', async () => {
      const p = randomUUID().slice(0, 6);
      await evaluate(txn({ sender: `${p}-a`, receiver: `${p}-b`, amount: 1000 }));
      await evaluate(txn({ sender: `${p}-b`, receiver: `${p}-c`, amount: 950 }));
      const closing = await evaluate(txn({ sender: `${p}-c`, receiver: `${p}-a`, amount: 900 }));
      expect(closing.body.layers.graph.patterns_found).toBeGreaterThanOrEqual(1);
      const detail = await stack.rest('GET', `/v1/evaluations/${closing.body.evaluation_id}`, undefined, auth);
      expect(detail.body.graph_patterns).toContainEqual(
        expect.objectContaining({ type: 'cycle', length: 3, accounts: [`${p}-c`, `${p}-a`, `${p}-b`, `${p}-c`] }),
      );
      expect(detail.body.graph_patterns).toContainEqual(expect.objectContaining({ type: 'rapid_pass_through', accounts: [`${p}-c`] }));
      expect(detail.body.rules_fired.map((r: { id: string }) => r.id)).toContain('round_trip_cycle');
      expect(closing.body.action).not.toBe('allow');

      let last;
      for (let i = 0; i < 10; i++) last = await evaluate(txn({ sender: `${p}-payer${i}`, receiver: `${p}-mule`, amount: 200 }));
      const mule = await stack.rest('GET', `/v1/evaluations/${last!.body.evaluation_id}`, undefined, auth);
      expect(mule.body.graph_patterns).toContainEqual(expect.objectContaining({ type: 'fan_in', accounts: [`${p}-mule`], count: 10 }));
      expect(mule.body.rules_fired.map((r: { id: string }) => r.id)).toContain('mule_fan_in');
      expect(mule.body.action).toBe('review');
    });
  });

  describe('sanctions layer (screening engine in-process)', () => {
    const entry = (id: string, name: string, kind: 'SANCTIONS' | 'PEP', source: string) => ({
      source,
      kind,
      externalId: id,
      entityType: 'INDIVIDUAL' as const,
      names: [{ full: name, type: 'PRIMARY' as const }],
      datesOfBirth: [],
      nationalities: [],
      documents: [],
      programs: ['TEST'],
    });

    beforeAll(async () => {
      const pool = new pg.Pool({ connectionString: stack.databaseUrl, max: 1 });
      try {
        await importSnapshot(pool, 'CUSTOM_RISK_SANCTIONS', [entry('S-1', 'Viktor Gromov Petrenko', 'SANCTIONS', 'CUSTOM_RISK_SANCTIONS')]);
        await importSnapshot(pool, 'CUSTOM_RISK_PEP', [entry('P-1', 'Amina Wanjiku Odhiambo', 'PEP', 'CUSTOM_RISK_PEP')]);
      } finally {
        await pool.end();
      }
      // every instance reloads its index when a snapshot lands (NOTIFY)
      await eventually(async () => {
        const res = await stack.gql('{ riskSanctionsStatus { available lists } }', {}, auth);
        const lists: string[] = res.body.data.riskSanctionsStatus.lists;
        return lists.some((l) => l.startsWith('CUSTOM_RISK_SANCTIONS@')) && lists.some((l) => l.startsWith('CUSTOM_RISK_PEP@'));
      });
    });

    it('a sender named in metadata who matches a sanctions list is blocked, with the hit', async () => {
      const res = await evaluate(txn({ metadata: { sender_name: 'Viktor G. Petrenko', receiver_name: 'Mary Achieng' } }));
      expect(res.status).toBe(200);
      expect(res.body.action).toBe('block');
      expect(res.body.layers.sanctions.hits).toBe(1);
      expect(res.body.layers.sanctions.lists_checked).toBeGreaterThanOrEqual(2);
      expect(res.body.layers.sanctions.score).toBeGreaterThanOrEqual(85);
      expect(res.body.reasons[0]).toMatch(
        /^sanctions: sender "Viktor G. Petrenko" matches Viktor Gromov Petrenko on CUSTOM_RISK_SANCTIONS \(SANCTIONS/,
      );
      const detail = await stack.rest('GET', `/v1/evaluations/${res.body.evaluation_id}`, undefined, auth);
      expect(detail.body.sanctions_hits).toEqual([
        expect.objectContaining({
          party: 'sender',
          name: 'Viktor G. Petrenko',
          source: 'CUSTOM_RISK_SANCTIONS',
          kind: 'SANCTIONS',
          external_id: 'S-1',
          primary_name: 'Viktor Gromov Petrenko',
          list_version: expect.any(String),
        }),
      ]);
    });

    it('a receiver’s name comes from its profile when the metadata has none; a PEP match is a review', async () => {
      const receiver = `acc-${randomUUID().slice(0, 8)}`;
      const profile = await stack.gql(
        `mutation($i: SetRiskAccountProfileInput!) { setRiskAccountProfile(input: $i) {
          riskAccount { id userId profile { fullName nationality } } userErrors { field code message } } }`,
        { i: { accountId: receiver, userId: 'user-amina', fullName: 'Amina Wanjiku Odhiambo', nationality: 'KE' } },
        auth,
      );
      expect(profile.body.data.setRiskAccountProfile).toEqual({
        riskAccount: { id: receiver, userId: 'user-amina', profile: { fullName: 'Amina Wanjiku Odhiambo', nationality: 'KE' } },
        userErrors: [],
      });
      const read = await stack.gql(
        `query($a: ID!) { riskAccount(id: $a) { id userId profile { fullName dateOfBirth nationality updatedAt } } }`,
        { a: receiver },
        auth,
      );
      expect(read.body.data.riskAccount).toEqual({
        id: receiver,
        userId: 'user-amina',
        profile: { fullName: 'Amina Wanjiku Odhiambo', dateOfBirth: null, nationality: 'KE', updatedAt: expect.any(String) },
      });
      const unknown = await stack.gql(`{ riskAccount(id: "acc-nobody") { id } riskStatus { service } }`, {}, auth);
      expect(unknown.body).toEqual({ data: { riskAccount: null, riskStatus: { service: 'risk' } } });
      const res = await evaluate(txn({ receiver }));
      expect(res.body.layers.sanctions.hits).toBe(1);
      expect(res.body.action).toBe('review');
      const detail = await stack.rest('GET', `/v1/evaluations/${res.body.evaluation_id}`, undefined, auth);
      expect(detail.body.sanctions_hits[0]).toMatchObject({ party: 'receiver', account: receiver, kind: 'PEP', source: 'CUSTOM_RISK_PEP' });
      // the same hit in the graph: the account as a reference, the list entry as the shared ScreeningHit
      const graph = await stack.gql(
        `query($id: ID!) { riskEvaluation(id: $id) { action sanctionsHits { party name account { id userId }
          hit { listName source kind externalId entityType primaryName programs listVersion } } } }`,
        { id: res.body.evaluation_id },
        auth,
      );
      expect(graph.body.data.riskEvaluation).toEqual({
        action: 'REVIEW',
        sanctionsHits: [
          {
            party: 'RECEIVER',
            name: 'Amina Wanjiku Odhiambo',
            account: { id: receiver, userId: 'user-amina' },
            hit: {
              listName: 'CUSTOM_RISK_PEP',
              source: 'CUSTOM_RISK_PEP',
              kind: 'PEP',
              externalId: 'P-1',
              entityType: 'INDIVIDUAL',
              primaryName: 'Amina Wanjiku Odhiambo',
              programs: ['TEST'],
              listVersion: expect.any(String),
            },
          },
        ],
      });
      // a profile set again keeps its user unless told otherwise; null unlinks it
      const again = async (input: Record<string, unknown>) =>
        (
          await stack.gql(
            `mutation($i: SetRiskAccountProfileInput!) { setRiskAccountProfile(input: $i) { riskAccount { userId profile { fullName } } } }`,
            { i: { accountId: receiver, fullName: 'Amina W. Odhiambo', ...input } },
            auth,
          )
        ).body.data.setRiskAccountProfile.riskAccount;
      expect(await again({})).toEqual({ userId: 'user-amina', profile: { fullName: 'Amina W. Odhiambo' } });
      expect(await again({ userId: null })).toEqual({ userId: null, profile: { fullName: 'Amina W. Odhiambo' } });
    });

    it('setRiskAccountProfile answers every mistake as a user error naming its field', async () => {
      const invalid = await stack.gql(
        `mutation($i: SetRiskAccountProfileInput!) { setRiskAccountProfile(input: $i) { riskAccount { id } userErrors { field code message } } }`,
        { i: { accountId: 'x'.repeat(129), userId: '', fullName: '', dateOfBirth: '1990-13', nationality: 'Kenya' } },
        auth,
      );
      expect(invalid.body.errors).toBeUndefined();
      expect(invalid.body.data.setRiskAccountProfile).toEqual({
        riskAccount: null,
        userErrors: [
          { field: ['input', 'accountId'], code: 'BAD_USER_INPUT', message: 'accountId must be 1–128 characters' },
          { field: ['input', 'userId'], code: 'BAD_USER_INPUT', message: 'userId must be 1–255 characters' },
          { field: ['input', 'fullName'], code: 'BAD_USER_INPUT', message: 'fullName must be 1–200 characters' },
          { field: ['input', 'dateOfBirth'], code: 'BAD_USER_INPUT', message: 'dateOfBirth must be YYYY, YYYY-MM or YYYY-MM-DD' },
          { field: ['input', 'nationality'], code: 'BAD_USER_INPUT', message: 'nationality must be an ISO 3166-1 alpha-2 code (e.g. KE)' },
        ],
      });
      const notACountry = await stack.gql(
        `mutation { setRiskAccountProfile(input: { accountId: "acc-zz", fullName: "Z", nationality: "ZZ" }) { userErrors { field } } }`,
        {},
        auth,
      );
      expect(notACountry.body.data.setRiskAccountProfile.userErrors).toEqual([{ field: ['input', 'nationality'] }]);
    });

    it('no name, nothing screened: lists_checked 0; unrelated names: no hit', async () => {
      expect((await evaluate(txn())).body.layers.sanctions).toEqual({ hits: 0, lists_checked: 0, score: 0 });
      const clean = await evaluate(txn({ metadata: { sender_name: 'Grace Njeri Kamau' } }));
      expect(clean.body.layers.sanctions).toMatchObject({ hits: 0, score: 0 });
      expect(clean.body.layers.sanctions.lists_checked).toBeGreaterThanOrEqual(2);
    });
  });

  describe('lookup, list and monitoring', () => {
    it('GET /v1/evaluations/:id: 404 for unknown, malformed or another organization’s id', async () => {
      const mine = await evaluate(txn());
      expect((await stack.rest('GET', `/v1/evaluations/${randomUUID()}`, undefined, auth)).status).toBe(404);
      expect((await stack.rest('GET', '/v1/evaluations/not-a-uuid', undefined, auth)).status).toBe(404);
      const other = await stack.createClient({ name: 'stranger', service: 'risk' });
      expect((await stack.rest('GET', `/v1/evaluations/${mine.body.evaluation_id}`, undefined, bearer(other.apiKey))).status).toBe(404);
    });

    it('a lookup of an unknown or another organization’s evaluation is null in GraphQL', async () => {
      const mine = await evaluate(txn());
      const other = await stack.createClient({ name: 'graph stranger lookups', service: 'risk' });
      const q = `query($id: ID!) { riskEvaluation(id: $id) { id } riskSanctionsStatus { available } }`;
      for (const [id, headers] of [
        [randomUUID(), auth],
        ['not-a-uuid', auth],
        [mine.body.evaluation_id, bearer(other.apiKey)],
      ] as const) {
        const res = await stack.gql(q, { id }, headers);
        expect(res.body).toEqual({ data: { riskEvaluation: null, riskSanctionsStatus: { available: expect.any(Boolean) } } });
      }
      const found = await stack.gql(q, { id: mine.body.evaluation_id }, auth);
      expect(found.body.data.riskEvaluation).toEqual({ id: mine.body.evaluation_id });
    });

    it('lists and filters evaluations in GraphQL: a connection, newest first, the review queue by action', async () => {
      const sender = `list-${randomUUID().slice(0, 8)}`;
      const made: string[] = [];
      for (let i = 0; i < 7; i++) made.unshift((await evaluate(txn({ sender, amount: 10 + i }))).body.evaluation_id);
      const q = `query($f: RiskEvaluationFilter, $first: Int!, $after: String) { riskEvaluations(filter: $f, first: $first, after: $after) {
        totalCount nodes { ${EVALUATION_FIELDS} } edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage endCursor } } }`;
      const seen: string[] = [];
      let after: string | null = null;
      for (let page = 0; page < 3; page++) {
        const res: { body: { data?: any } } = await stack.gql(q, { f: { sender }, first: 3, after }, auth);
        const connection = res.body.data.riskEvaluations;
        expect(connection.totalCount).toBe(7);
        expect(connection.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual(connection.nodes.map((n: { id: string }) => n.id));
        expect(connection.pageInfo).toMatchObject({ hasNextPage: page < 2, hasPreviousPage: page > 0 });
        seen.push(...connection.nodes.map((n: { id: string }) => n.id));
        after = connection.pageInfo.endCursor;
      }
      expect(seen).toEqual(made);
      // from the 6th transfer in an hour the burst rule asks for a review: the review queue has those two
      const reviews = await stack.gql(q, { f: { sender, action: 'REVIEW' }, first: 20 }, auth);
      expect(reviews.body.data.riskEvaluations.totalCount).toBe(2);
      expect(reviews.body.data.riskEvaluations.nodes.map((e: { id: string }) => e.id)).toEqual(made.slice(0, 2));
      expect(reviews.body.data.riskEvaluations.nodes.every((e: { action: string }) => e.action === 'REVIEW')).toBe(true);
      const byReceiver = await stack.gql(q, { f: { receiver: 'nobody-receives', mock: false }, first: 5 }, auth);
      expect(byReceiver.body.data.riskEvaluations).toMatchObject({ totalCount: 0, nodes: [] });
      const window = await stack.gql(q, { f: { sender, from: new Date(Date.now() + 60_000).toISOString() }, first: 5 }, auth);
      expect(window.body.data.riskEvaluations.totalCount).toBe(0);
      const bad = await stack.gql(q, { f: { minScore: 80, maxScore: 10 }, first: 5 }, auth);
      expect(bad.body.errors![0]).toMatchObject({ message: 'minScore must not exceed maxScore', extensions: { code: 'BAD_USER_INPUT' } });
      const big = await stack.gql(q, { first: 101 }, auth);
      expect(big.body.errors![0]).toMatchObject({ message: 'first must be at most 100', extensions: { code: 'VALIDATION_FAILED' } });
    });

    it('an account lists its evaluations as sender and as receiver', async () => {
      const account = `acct-${randomUUID().slice(0, 8)}`;
      const sent = (await evaluate(txn({ sender: account }))).body.evaluation_id;
      const received = (await evaluate(txn({ receiver: account }))).body.evaluation_id;
      const res = await stack.gql(
        `query($id: ID!) { riskAccount(id: $id) { id userId profile { fullName }
          all: evaluations { totalCount nodes { id transaction { sender { id } receiver { id } } } }
          sent: evaluations(filter: { party: SENDER }) { nodes { id } }
          received: evaluations(filter: { party: RECEIVER, action: ALLOW }, first: 1) { nodes { id } pageInfo { hasNextPage } } } }`,
        { id: account },
        auth,
      );
      expect(res.body.errors).toBeUndefined();
      const found = res.body.data.riskAccount;
      expect(found).toMatchObject({ id: account, userId: null, profile: null });
      expect(found.all.totalCount).toBe(2);
      expect(found.all.nodes.map((n: { id: string }) => n.id)).toEqual([received, sent]);
      expect(found.all.nodes[1].transaction.sender).toEqual({ id: account });
      expect(found.all.nodes[0].transaction.receiver).toEqual({ id: account });
      expect(found.sent.nodes).toEqual([{ id: sent }]);
      expect(found.received).toEqual({ nodes: [{ id: received }], pageInfo: { hasNextPage: false } });
      // another organization knows no such account
      const other = await stack.createClient({ name: 'account stranger', service: 'risk' });
      expect((await stack.gql(`query($id: ID!) { riskAccount(id: $id) { id } }`, { id: account }, bearer(other.apiKey))).body.data).toEqual(
        {
          riskAccount: null,
        },
      );
    });

    it('evaluateTransaction answers mistakes as user errors naming the field, a reused transactionId as a CONFLICT', async () => {
      const m = `mutation($i: EvaluateTransactionInput!) { evaluateTransaction(input: $i) { riskEvaluation { id action } userErrors { field code message } } }`;
      const body = { transactionId: `tx-${randomUUID()}`, amount: 0, currency: 'kes', sender: 'same', receiver: 'same' };
      const invalid = await stack.gql(m, { i: { ...body, metadata: { location: { lat: 120, lng: 0 } } } }, auth);
      expect(invalid.body.errors).toBeUndefined();
      expect(invalid.body.data.evaluateTransaction).toEqual({
        riskEvaluation: null,
        userErrors: [
          { field: ['input', 'receiver'], code: 'BAD_USER_INPUT', message: 'receiver must differ from sender' },
          { field: ['input', 'amount'], code: 'BAD_USER_INPUT', message: 'amount must be greater than 0' },
          {
            field: ['input', 'currency'],
            code: 'BAD_USER_INPUT',
            message: 'currency must be an ISO 4217 code in upper case (e.g. KES, NGN, GHS)',
          },
          {
            field: ['input', 'metadata', 'location', 'lat'],
            code: 'BAD_USER_INPUT',
            message: 'metadata.location.lat must be a number between -90 and 90',
          },
        ],
      });
      const valid = { ...body, amount: 10, currency: 'KES', receiver: 'other' };
      const first = await stack.gql(m, { i: valid }, auth);
      expect(first.body.data.evaluateTransaction).toEqual({
        riskEvaluation: { id: expect.stringMatching(UUID), action: 'ALLOW' },
        userErrors: [],
      });
      const again = await stack.gql(m, { i: valid }, auth);
      expect(again.body.data.evaluateTransaction).toEqual({
        riskEvaluation: null,
        userErrors: [
          {
            field: null,
            code: 'CONFLICT',
            message: `transaction_id ${valid.transactionId} was already evaluated; it must be unique per organization`,
          },
        ],
      });
    });

    it('riskEvaluationCreated(filter: { action }) streams new evaluations of that action only, live, as envelopes', async () => {
      const sub = stack.subscribe(
        `subscription { riskEvaluationCreated(filter: { action: REVIEW }) { type occurredAt node { id transactionId action score reasons createdAt } } }`,
        {},
        auth,
      );
      const all = stack.subscribe(`subscription { riskEvaluationCreated { type node { id action } } }`, {}, auth);
      await Promise.all([sub.ready, all.ready]);
      const sender = `live-${randomUUID().slice(0, 8)}`;
      const results = [];
      for (let i = 0; i < 6; i++) results.push((await evaluate(txn({ sender, amount: 5 }))).body);
      const [event] = await sub.next(1);
      expect(event.data.riskEvaluationCreated).toMatchObject({
        type: 'EVALUATION_REVIEW',
        occurredAt: results[5].created_at,
        node: {
          id: results[5].evaluation_id,
          action: 'REVIEW',
          transactionId: results[5].transaction_id,
          createdAt: results[5].created_at,
        },
      });
      const everything = await all.next(6);
      expect(everything.map((e) => e.data.riskEvaluationCreated.node.id)).toEqual(results.map((r) => r.evaluation_id));
      expect(everything.map((e) => e.data.riskEvaluationCreated.type)).toEqual([...Array(5).fill('EVALUATION_ALLOW'), 'EVALUATION_REVIEW']);
      expect(sub.events).toHaveLength(1);
      await sub.close();
      await all.close();
    });
  });

  describe('sandbox (test keys)', () => {
    it('returns deterministic mock scores, marked as such, and touches no live data', async () => {
      const test = await stack.createClient({ name: 'sandbox', service: 'risk', environment: 'test', organizationId: org });
      expect(test.apiKey).toMatch(/^risk_test_/);
      const h = bearer(test.apiKey);
      const body = txn({ transaction_id: 'sandbox-fixed-id' });
      const a = await evaluate(body, h);
      expect(a.status).toBe(200);
      expect(a.body).toMatchObject({
        mock: true,
        action: 'allow',
        layers: {
          rules: { fired: 0, checked: 0 },
          graph: { patterns_found: 0, nodes_traversed: 0 },
          sanctions: { hits: 0, lists_checked: 0 },
        },
      });
      expect(a.body.reasons[0]).toMatch(/^sandbox: mock score/);
      // same transaction id in another sandbox: same score
      const other = await stack.createClient({ name: 'other sandbox', service: 'risk', environment: 'test' });
      expect((await evaluate(body, bearer(other.apiKey))).body.score).toBe(a.body.score);
      // duplicates are 409 in the sandbox too
      expect((await evaluate(body, h)).status).toBe(409);
      // magic score for each action
      expect((await evaluate(txn({ metadata: { mock_score: 65 } }), h)).body).toMatchObject({ score: 65, action: 'review', mock: true });
      expect((await evaluate(txn({ metadata: { mock_score: 95 } }), h)).body).toMatchObject({ score: 95, action: 'block' });
      // nothing in the sandbox graph, nothing in the live one, and the live id space is separate
      expect((await cypher('MATCH ()-[r:SENT]->() RETURN count(r) AS n', {}, h)).body.results).toEqual([{ n: 0 }]);
      expect((await cypher('MATCH ()-[r:SENT {transaction_id: "sandbox-fixed-id"}]->() RETURN count(r) AS n')).body.results).toEqual([
        { n: 0 },
      ]);
      expect((await evaluate(body)).status).toBe(200);
      // a live key does not see sandbox evaluations
      expect((await stack.rest('GET', `/v1/evaluations/${a.body.evaluation_id}`, undefined, auth)).status).toBe(404);
      expect((await stack.rest('GET', `/v1/evaluations/${a.body.evaluation_id}`, undefined, h)).body).toMatchObject({
        mock: true,
        evaluation_id: a.body.evaluation_id,
      });
    });
  });

  describe('POST /v1/graph/query', () => {
    let p: string;
    beforeAll(async () => {
      p = randomUUID().slice(0, 6);
      // a → b → c → d → e, and a → x
      for (const [s, r] of [
        ['a', 'b'],
        ['b', 'c'],
        ['c', 'd'],
        ['d', 'e'],
        ['a', 'x'],
      ]) {
        const res = await evaluate(txn({ sender: `${p}-${s}`, receiver: `${p}-${r}`, amount: 100, metadata: { device_id: `${p}-phone` } }));
        expect(res.status).toBe(200);
      }
    });

    it('answers results, nodes_scanned and latency_ms for 2-hop, variable-length, aggregate and OPTIONAL MATCH queries', async () => {
      const two = await cypher('MATCH (a:Account {id: $id})-[:SENT]->(b)-[:SENT]->(c) RETURN c.id AS c ORDER BY c', { id: `${p}-a` });
      expect(two.status).toBe(200);
      expect(two.body).toEqual({
        results: [{ c: `${p}-c` }],
        nodes_scanned: expect.any(Number),
        latency_ms: expect.any(Number),
        truncated: false,
        columns: ['c'],
      });
      expect(two.body.nodes_scanned).toBeGreaterThan(0);

      const paths = await cypher('MATCH (a:Account {id: $id})-[r:SENT*1..4]->(b) RETURN b.id AS b, size(r) AS hops ORDER BY hops, b', {
        id: `${p}-a`,
      });
      expect(paths.body.results).toEqual([
        { b: `${p}-b`, hops: 1 },
        { b: `${p}-x`, hops: 1 },
        { b: `${p}-c`, hops: 2 },
        { b: `${p}-d`, hops: 3 },
        { b: `${p}-e`, hops: 4 },
      ]);

      const devices = await cypher(
        'MATCH (a:Account)-[:USED]->(d:Device {id: $d}) WITH d, count(DISTINCT a) AS accounts RETURN d, accounts',
        { d: `${p}-phone` },
      );
      expect(devices.body.results).toEqual([{ d: { _label: 'Device', id: `${p}-phone` }, accounts: 4 }]);

      const optional = await cypher(
        'MATCH (a:Account) WHERE a.id IN $ids OPTIONAL MATCH (a)-[r:SENT]->(b) RETURN a.id AS a, collect(b.id) AS paid, sum(r.amount) AS total ORDER BY a',
        { ids: [`${p}-e`, `${p}-d`] },
      );
      expect(optional.body.results).toEqual([
        { a: `${p}-d`, paid: [`${p}-e`], total: 100 },
        { a: `${p}-e`, paid: [], total: 0 },
      ]);
    });

    it('sees only the organization’s graph', async () => {
      const stranger = await stack.createClient({ name: 'graph stranger', service: 'risk' });
      const res = await cypher('MATCH (a:Account {id: $id})-[r]-(b) RETURN count(r) AS n', { id: `${p}-a` }, bearer(stranger.apiKey));
      expect(res.body.results).toEqual([{ n: 0 }]);
    });

    it('refuses writes (400), reports unsupported syntax and errors with their position (400)', async () => {
      const write = await cypher('MATCH (a:Account) DETACH DELETE a');
      expect(write.status).toBe(400);
      expect(write.body.message).toEqual(['Graph queries are read-only: DETACH clauses are not allowed (line 1, column 19)']);
      for (const q of [
        'CREATE (a:Account {id: "x"}) RETURN a',
        'MATCH (a) SET a.id = "y" RETURN a',
        'MERGE (a:Account {id: "z"}) RETURN a',
        'CALL db.labels()',
      ]) {
        const res = await cypher(q);
        expect([q, res.status]).toEqual([q, 400]);
        expect(res.body.message[0]).toMatch(/read-only/);
      }
      const syntax = await cypher('MATCH (a:Account)\nRETURN a.id AS');
      expect(syntax.status).toBe(400);
      expect(syntax.body.message[0]).toMatch(/Expected an alias after AS but found end of query \(line 2, column 15\)/);
      const unsupported = await cypher('MATCH (a) UNWIND [1] AS x RETURN x');
      expect(unsupported.body.message[0]).toMatch(/Unsupported syntax: UNWIND .* \(line 1, column 11\)/);
      expect((await cypher('MATCH (a:Person) RETURN a')).body.message[0]).toMatch(/Unknown label Person/);
      expect((await cypher('MATCH (a:Account) RETURN a LIMIT $n', { n: 'ten' })).status).toBe(400);
      expect((await stack.rest('POST', '/v1/graph/query', { params: {} }, auth)).status).toBe(400);
      expect((await stack.rest('POST', '/v1/graph/query', { query: 'MATCH (a) RETURN a', params: [1] }, auth)).status).toBe(400);
    });

    it('runs graph queries on a bounded pool of their own: a busy pool answers 503, evaluations go on', async () => {
      // three different queries: identical ones in flight would share one call (the gateway's query sharing)
      const slow = (n: number) => `MATCH (a:Account), (b:Account), (c:Account), (d:Account) RETURN count(*) AS n${n}`;
      const [evaluation, ...queries] = await Promise.all([
        stack.rest('POST', '/v1/evaluate', txn(), auth),
        cypher(slow(1)),
        cypher(slow(2)),
        cypher(slow(3)),
      ]);
      expect(evaluation.status).toBe(200);
      const statuses = queries.map((q) => q.status);
      expect(statuses).toContain(503);
      expect(statuses.every((s) => s === 400 || s === 503)).toBe(true);
      const busy = queries.find((q) => q.status === 503)!;
      expect(busy.body).toMatchObject({ code: 'UNAVAILABLE', message: 'Every graph query slot is busy; retry shortly' });
      expect(busy.headers.get('retry-after')).toBe('1');
    });

    it('caps rows (truncated) and cancels queries over the statement timeout (400)', async () => {
      const many = await cypher('MATCH (a:Account) RETURN a.id AS id');
      expect(many.status).toBe(200);
      expect(many.body.results).toHaveLength(50);
      expect(many.body.truncated).toBe(true);
      const slow = await cypher('MATCH (a:Account), (b:Account), (c:Account), (d:Account) RETURN count(*) AS n');
      expect(slow.status).toBe(400);
      expect(slow.body.message[0]).toMatch(/statement timeout of 300 ms/);
      // the connection is healthy afterwards
      expect((await cypher('MATCH (a:Account {id: $id}) RETURN a.id AS id', { id: `${p}-a` })).body.results).toEqual([{ id: `${p}-a` }]);
    });

    it('is the same query in GraphQL', async () => {
      const res = await stack.gql(
        `query($q: String!, $p: JSON) { riskGraphQuery(query: $q, params: $p) { results columns nodesScanned latencyMs truncated } }`,
        { q: 'MATCH (a:Account {id: $id})-[:SENT]->(b) RETURN b.id AS b ORDER BY b', p: { id: `${p}-a` } },
        auth,
      );
      expect(res.body.data.riskGraphQuery).toMatchObject({ results: [{ b: `${p}-b` }, { b: `${p}-x` }], columns: ['b'], truncated: false });
    });
  });
});
