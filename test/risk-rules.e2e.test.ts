import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { startTestStack, type TestStack } from './support/stack.js';

/**
 * Rules: CEL conditions type-checked on PUT, immutable versions with an audit trail, and hot
 * reload — a committed change applies to the very next evaluation on every instance (two stacks
 * on one database here).
 */
describe('risk rules (REST, GraphQL, two instances)', () => {
  let a: TestStack;
  let b: TestStack;
  let auth: Record<string, string>;
  let clientId: string;
  let org: string;

  const bearer = (k: string) => ({ authorization: `Bearer ${k}` });
  const txn = (over: Record<string, unknown> = {}) => ({
    transaction_id: `tx-${randomUUID()}`,
    amount: 100,
    currency: 'KES',
    sender: `acc-${randomUUID().slice(0, 8)}`,
    receiver: `acc-${randomUUID().slice(0, 8)}`,
    ...over,
  });
  const put = (stack: TestStack, id: string, body: Record<string, unknown>, headers = auth) =>
    stack.rest('PUT', `/v1/rules/${id}`, body, headers);
  const fired = async (stack: TestStack, body: Record<string, unknown>, headers = auth) => {
    const res = await stack.rest('POST', '/v1/evaluate', body, headers);
    expect(res.status).toBe(200);
    const detail = await stack.rest('GET', `/v1/evaluations/${res.body.evaluation_id}`, undefined, headers);
    return { action: res.body.action as string, rules: detail.body.rules_fired as Array<{ id: string; version: number; action: string }> };
  };

  beforeAll(async () => {
    a = await startTestStack();
    b = await startTestStack({}, { databaseUrl: a.databaseUrl });
    const client = await a.createClient({ name: 'rules team', service: 'risk' });
    auth = bearer(client.apiKey);
    clientId = client.id;
    org = client.organizationId;
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
  });

  it('GET /v1/rules: the default mobile-money rule set, seeded on first use', async () => {
    const res = await a.rest('GET', '/v1/rules', undefined, auth);
    expect(res.status).toBe(200);
    const ids = res.body.rules.map((r: { id: string }) => r.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        'velocity_burst',
        'velocity_burst_extreme',
        'structuring_below_threshold',
        'new_device_large_transfer',
        'mule_fan_in',
        'mule_pass_through',
        'round_trip_cycle',
        'shared_device_many_accounts',
      ]),
    );
    expect(res.body.rules[0]).toEqual({
      id: expect.any(String),
      name: expect.any(String),
      description: expect.any(String),
      condition: expect.any(String),
      action: expect.stringMatching(/^(review|block)$/),
      severity: expect.stringMatching(/^(low|medium|high|critical)$/),
      enabled: true,
      version: 1,
      is_default: true,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    // concurrent first uses of another organization seed once
    const other = await a.createClient({ name: 'fresh', service: 'risk' });
    const lists = await Promise.all([a, b, a, b].map((s) => s.rest('GET', '/v1/rules', undefined, bearer(other.apiKey))));
    for (const l of lists) expect(l.body.rules).toHaveLength(ids.length);
  });

  it("PUT type-checks the CEL condition: 400 with the parser's message; other invalid fields 400", async () => {
    const syntax = await put(a, 'bad_rule', { condition: 'sender.count_1h >', action: 'review' });
    expect(syntax.status).toBe(400);
    expect(syntax.body.message[0]).toMatch(/^condition is invalid: Unexpected token: EOF/);
    expect(syntax.body.message[0]).toContain('sender.count_1h >');
    const unknown = await put(a, 'bad_rule', { condition: 'customer.age > 3', action: 'review' });
    expect(unknown.body.message[0]).toMatch(/Unknown variable: customer/);
    const bigint = await put(a, 'bad_rule', { condition: 'txn.amount + 1 > 10.0', action: 'review' });
    expect(bigint.body.message[0]).toMatch(/no such overload: double \+ int/);
    const notBool = await put(a, 'bad_rule', { condition: 'sender.count_1h', action: 'review' });
    expect(notBool.body.message[0]).toMatch(/must be a bool expression, but it yields int/);
    expect((await put(a, 'bad_rule', { condition: 'true', action: 'deny' })).body.message).toEqual([
      'action must be one of: review, block',
    ]);
    expect((await put(a, 'bad_rule', { condition: 'true', action: 'review', severity: 'extreme' })).body.message).toEqual([
      'severity must be one of: low, medium, high, critical',
    ]);
    expect((await put(a, 'bad_rule', { action: 'review' })).body.message).toEqual(['condition is required to create rule bad_rule']);
    expect((await put(a, 'bad rule!', { condition: 'true', action: 'review' })).status).toBe(400);
    expect((await put(a, 'bad_rule', { condition: 7, action: 'review' })).status).toBe(400);
    expect((await a.rest('GET', '/v1/rules', undefined, auth)).body.rules.map((r: { id: string }) => r.id)).not.toContain('bad_rule');
  });

  it('PUT creates (201) then versions (200); unchanged → updated: false; history is immutable and audited', async () => {
    const created = await put(a, 'large_ugx', {
      condition: 'txn.currency == "UGX" && txn.amount > 5000000.0',
      action: 'review',
      severity: 'high',
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: 'large_ugx',
      updated: true,
      effective_at: expect.any(String),
      created: true,
      version: 1,
      revision: expect.any(String),
    });
    const same = await put(a, 'large_ugx', { condition: 'txn.currency == "UGX" && txn.amount > 5000000.0', action: 'review' });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ updated: false, version: 1, effective_at: created.body.effective_at });
    const changed = await put(a, 'large_ugx', { action: 'block' });
    expect(changed.body).toMatchObject({ updated: true, created: false, version: 2 });
    expect(Date.parse(changed.body.effective_at)).toBeGreaterThanOrEqual(Date.parse(created.body.effective_at));

    const history = await a.gql(
      `query { riskRuleVersions(ruleId: "large_ugx") { nodes { version action severity condition createdBy rule { id version } } }
        riskRuleAudit(filter: { ruleId: "large_ugx" }) { nodes { version change actor changes rule { id } } } }`,
      {},
      auth,
    );
    expect(history.body.data.riskRuleVersions.nodes).toEqual([
      {
        version: 2,
        action: 'BLOCK',
        severity: 'HIGH',
        condition: 'txn.currency == "UGX" && txn.amount > 5000000.0',
        createdBy: `client:${clientId}`,
        rule: { id: 'large_ugx', version: 2 },
      },
      {
        version: 1,
        action: 'REVIEW',
        severity: 'HIGH',
        condition: 'txn.currency == "UGX" && txn.amount > 5000000.0',
        createdBy: `client:${clientId}`,
        rule: { id: 'large_ugx', version: 2 },
      },
    ]);
    expect(history.body.data.riskRuleAudit.nodes).toEqual([
      {
        version: 2,
        change: 'UPDATED',
        actor: `client:${clientId}`,
        changes: { action: { from: 'REVIEW', to: 'BLOCK' } },
        rule: { id: 'large_ugx' },
      },
      expect.objectContaining({ version: 1, change: 'CREATED', actor: `client:${clientId}` }),
    ]);

    // the database refuses to rewrite history
    const db = new pg.Client({ connectionString: a.databaseUrl });
    await db.connect();
    try {
      await expect(
        db.query(`update risk.rule_versions set action = 'review' where rule_id = 'large_ugx' and organization_id = $1`, [org]),
      ).rejects.toThrow(/immutable/);
      await expect(db.query(`delete from risk.rule_audit where rule_id = 'large_ugx' and organization_id = $1`, [org])).rejects.toThrow(
        /immutable/,
      );
    } finally {
      await db.end();
    }
  });

  it('concurrent updates of one rule each get their own version and audit entry', async () => {
    await put(a, 'contended', { condition: 'txn.amount > 1.0', action: 'review' });
    const results = await Promise.all([2, 3, 4, 5, 6].map((n, i) => put(i % 2 ? b : a, 'contended', { condition: `txn.amount > ${n}.0` })));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(results.map((r) => r.body.version).sort()).toEqual([2, 3, 4, 5, 6]);
    const versions = await a.gql(
      `{ riskRuleVersions(ruleId: "contended") { nodes { version } } riskRuleAudit(filter: { ruleId: "contended" }) { totalCount } }`,
      {},
      auth,
    );
    expect(versions.body.data.riskRuleVersions.nodes.map((v: { version: number }) => v.version)).toEqual([6, 5, 4, 3, 2, 1]);
    expect(versions.body.data.riskRuleAudit.totalCount).toBe(6);
  });

  it("a hostile rule is stopped by the time budget and does not hold up another tenant's evaluations", async () => {
    const hostileClient = await a.createClient({ name: 'hostile', service: 'risk' });
    const hostile = bearer(hostileClient.apiKey);
    const catastrophic = await put(a, 'redos', { condition: 'txn.channel.matches("(a|a)*b\\\\1")', action: 'review' }, hostile);
    expect(catastrophic.status).toBe(400);
    const condition = 'txn.metadata.note.split("").all(a, txn.metadata.note.split("").all(b, a == b))';
    expect((await put(a, 'stall', { condition, action: 'block', severity: 'critical' }, hostile)).status).toBe(201);

    const note = 'x'.repeat(8_000);
    const started = Date.now();
    const [slow, other] = await Promise.all([
      a.rest('POST', '/v1/evaluate', txn({ metadata: { note } }), hostile),
      a.rest('POST', '/v1/evaluate', txn(), auth),
    ]);
    expect([slow.status, other.status]).toEqual([200, 200]);
    expect(Date.now() - started).toBeLessThan(5_000); // 64 million comparisons unbounded
    const detail = await a.gql(
      `query($id: ID!) { riskEvaluation(id: $id) { ruleErrors { id message } } }`,
      { id: slow.body.evaluation_id },
      hostile,
    );
    expect(detail.body.data.riskEvaluation.ruleErrors).toContainEqual({
      id: 'stall',
      message: "exceeded the evaluation's time budget (100 ms)",
    });
  });

  it('a change applies to the very next evaluation on every instance (hot reload, database authoritative)', async () => {
    const sender = `hot-${randomUUID().slice(0, 8)}`;
    // warm both instances' caches with the current rules
    await fired(a, txn({ sender }));
    await fired(b, txn({ sender: `${sender}-b` }));
    for (let round = 1; round <= 6; round++) {
      const threshold = round % 2 ? 1000 : 5000;
      const writer = round % 2 ? a : b;
      const reader = round % 2 ? b : a;
      const change = await put(writer, 'hot_amount', {
        condition: `txn.amount > ${threshold}.0`,
        action: round % 3 ? 'review' : 'block',
        severity: 'low',
      });
      expect(change.status).toBe(round === 1 ? 201 : 200);
      // immediately, on the other instance
      const outcome = await fired(reader, txn({ amount: 3000, sender: `${sender}-${round}` }));
      const rule = outcome.rules.find((r) => r.id === 'hot_amount');
      if (threshold === 1000)
        expect(rule).toEqual(expect.objectContaining({ version: change.body.version, action: round % 3 ? 'review' : 'block' }));
      else expect(rule).toBeUndefined();
    }
  });

  it('disable/enable (GraphQL) takes effect at once; createRiskRule refuses an existing id', async () => {
    const USER_ERRORS = 'userErrors { field code message }';
    const create = await a.gql(
      `mutation($i: CreateRiskRuleInput!) { createRiskRule(input: $i) { riskRule { id version name enabled action severity } revision ${USER_ERRORS} } }`,
      { i: { id: 'tiny_block', name: 'Tiny amounts blocked', condition: 'txn.amount < 2.0', action: 'BLOCK', severity: 'CRITICAL' } },
      auth,
    );
    expect(create.body.data.createRiskRule).toEqual({
      riskRule: { id: 'tiny_block', version: 1, name: 'Tiny amounts blocked', enabled: true, action: 'BLOCK', severity: 'CRITICAL' },
      revision: expect.any(String),
      userErrors: [],
    });
    const again = await a.gql(
      `mutation { createRiskRule(input: { id: "tiny_block", name: "x", condition: "true", action: REVIEW }) { riskRule { id } ${USER_ERRORS} } }`,
      {},
      auth,
    );
    expect(again.body.data.createRiskRule).toEqual({
      riskRule: null,
      userErrors: [{ field: null, code: 'CONFLICT', message: 'Rule tiny_block already exists; update it instead' }],
    });

    expect((await fired(b, txn({ amount: 1 }))).action).toBe('block');
    const off = await b.gql(
      `mutation { disableRiskRule(input: { id: "tiny_block" }) { riskRule { version enabled } updated effectiveAt ${USER_ERRORS} } }`,
      {},
      auth,
    );
    expect(off.body.data.disableRiskRule).toEqual({
      riskRule: { version: 2, enabled: false },
      updated: true,
      effectiveAt: expect.any(String),
      userErrors: [],
    });
    const offAgain = await b.gql(`mutation { disableRiskRule(input: { id: "tiny_block" }) { riskRule { version } updated } }`, {}, auth);
    expect(offAgain.body.data.disableRiskRule).toEqual({ riskRule: { version: 2 }, updated: false });
    const quiet = await fired(a, txn({ amount: 1 }));
    expect(quiet.rules.map((r) => r.id)).not.toContain('tiny_block');
    await a.gql(`mutation { enableRiskRule(input: { id: "tiny_block" }) { riskRule { version } } }`, {}, auth);
    expect((await fired(b, txn({ amount: 1 }))).rules).toContainEqual(
      expect.objectContaining({ id: 'tiny_block', version: 3, action: 'block' }),
    );
    const audit = await a.gql(`{ riskRuleAudit(filter: { ruleId: "tiny_block" }) { nodes { change } } }`, {}, auth);
    expect(audit.body.data.riskRuleAudit.nodes.map((e: { change: string }) => e.change)).toEqual(['ENABLED', 'DISABLED', 'CREATED']);
    const enabledOnly = await a.gql(`{ riskRuleAudit(filter: { ruleId: "tiny_block", change: ENABLED }) { totalCount } }`, {}, auth);
    expect(enabledOnly.body.data.riskRuleAudit.totalCount).toBe(1);
    const missing = await a.gql(`mutation { disableRiskRule(input: { id: "nope" }) { riskRule { id } ${USER_ERRORS} } }`, {}, auth);
    expect(missing.body.data.disableRiskRule).toEqual({
      riskRule: null,
      userErrors: [{ field: null, code: 'NOT_FOUND', message: 'Rule nope not found' }],
    });
  });

  it('upsertRiskRule reports what the change did, and every mistake as a user error naming its field', async () => {
    const USER_ERRORS = 'userErrors { field code message }';
    const upsert = (input: Record<string, unknown>) =>
      a.gql(
        `mutation($i: UpsertRiskRuleInput!) { upsertRiskRule(input: $i) { riskRule { id version action severity enabled } created updated effectiveAt revision ${USER_ERRORS} } }`,
        { i: input },
        auth,
      );
    const created = await upsert({ id: 'gql_rule', condition: 'txn.amount > 7.0', action: 'REVIEW' });
    expect(created.body.data.upsertRiskRule).toEqual({
      riskRule: { id: 'gql_rule', version: 1, action: 'REVIEW', severity: 'MEDIUM', enabled: true },
      created: true,
      updated: true,
      effectiveAt: expect.any(String),
      revision: expect.any(String),
      userErrors: [],
    });
    const changed = await upsert({ id: 'gql_rule', severity: 'LOW' });
    expect(changed.body.data.upsertRiskRule).toMatchObject({ riskRule: { version: 2, severity: 'LOW' }, created: false, updated: true });
    const invalid = await upsert({ id: 'gql_rule', name: ' ', condition: 'sender.count_1h >' });
    expect(invalid.body.errors).toBeUndefined();
    expect(invalid.body.data.upsertRiskRule).toMatchObject({
      riskRule: null,
      created: null,
      userErrors: [{ field: ['input', 'name'], code: 'BAD_USER_INPUT', message: 'name must not be empty' }],
    });
    const condition = await upsert({ id: 'gql_rule', condition: 'sender.count_1h >' });
    expect(condition.body.data.upsertRiskRule.userErrors).toEqual([
      {
        field: ['input', 'condition'],
        code: 'BAD_USER_INPUT',
        message: expect.stringMatching(/^condition is invalid: Unexpected token: EOF/),
      },
    ]);
    const incomplete = await upsert({ id: 'gql_new', severity: 'HIGH' });
    expect(incomplete.body.data.upsertRiskRule.userErrors).toEqual([
      { field: ['input', 'condition'], code: 'BAD_USER_INPUT', message: 'condition is required to create rule gql_new' },
      { field: ['input', 'action'], code: 'BAD_USER_INPUT', message: 'action is required to create rule gql_new' },
    ]);
    const badAction = await upsert({ id: 'gql_rule', action: 'DENY' });
    expect(badAction.body.errors![0]).toMatchObject({
      message: 'action must be one of: REVIEW, BLOCK',
      extensions: { code: 'VALIDATION_FAILED' },
    });
  });

  it('lists rules as a connection, enabled or disabled ones only', async () => {
    expect((await put(a, 'switched_off', { condition: 'txn.amount > 3.0', action: 'review', enabled: false })).status).toBe(201);
    const q = `query($f: RiskRuleFilter, $after: String) { riskRules(filter: $f, first: 4, after: $after) {
      totalCount nodes { id enabled } pageInfo { hasNextPage endCursor } } }`;
    const ids: string[] = [];
    let total = 0;
    for (let after: string | null = null; ;) {
      const page: { body: { data?: any } } = await a.gql(q, { after }, auth);
      total = page.body.data.riskRules.totalCount;
      ids.push(...page.body.data.riskRules.nodes.map((n: { id: string }) => n.id));
      if (!page.body.data.riskRules.pageInfo.hasNextPage) break;
      after = page.body.data.riskRules.pageInfo.endCursor;
    }
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);
    // REST pages the same list in the same order
    const rest = (await a.rest('GET', `/v1/rules?limit=100`, undefined, auth)).body;
    expect(rest.rules.map((r: { id: string }) => r.id)).toEqual(ids);
    expect(rest).toMatchObject({ total, page: 1, limit: 100 });
    const disabled = await a.gql(q, { f: { enabled: false } }, auth);
    expect(disabled.body.data.riskRules.nodes).toContainEqual({ id: 'switched_off', enabled: false });
    expect(disabled.body.data.riskRules.nodes.every((n: { enabled: boolean }) => !n.enabled)).toBe(true);
  });

  it('documents the CEL environment and checks conditions without saving', async () => {
    const res = await a.gql(
      `{ riskRuleEnvironment { variables { name type } functions { name type } } checkRiskRuleCondition(condition: "sender.count_1h >") { valid message } }`,
      {},
      auth,
    );
    const vars = res.body.data.riskRuleEnvironment.variables;
    expect(vars).toContainEqual({ name: 'txn.amount', type: 'double' });
    expect(vars).toContainEqual({ name: 'sender.count_1h', type: 'int' });
    expect(vars).toContainEqual({ name: 'graph.in_cycle', type: 'bool' });
    expect(res.body.data.checkRiskRuleCondition).toEqual({ valid: false, message: expect.stringMatching(/^Unexpected token: EOF/) });
  });

  it('sandbox rules are separate from live ones', async () => {
    const test = await a.createClient({ name: 'sandbox rules', service: 'risk', environment: 'test', organizationId: org });
    const sandbox = bearer(test.apiKey);
    expect((await put(a, 'live_only', { condition: 'txn.amount > 1.0', action: 'review' })).status).toBe(201);
    const live = (await a.rest('GET', '/v1/rules', undefined, auth)).body.rules.map((r: { id: string }) => r.id);
    expect(live).toContain('live_only');
    const mine = (await a.rest('GET', '/v1/rules', undefined, sandbox)).body.rules.map((r: { id: string }) => r.id);
    expect(mine).not.toContain('live_only');
    expect((await put(a, 'sandbox_only', { condition: 'true', action: 'review' }, sandbox)).status).toBe(201);
    expect((await a.rest('GET', '/v1/rules', undefined, auth)).body.rules.map((r: { id: string }) => r.id)).not.toContain('sandbox_only');
  });

  it('reads one rule by id (GraphQL riskRule), null for an unknown one', async () => {
    expect((await put(a, 'one_rule', { condition: 'txn.amount > 2.0', action: 'block', severity: 'high' })).status).toBe(201);
    const one = await a.gql(`{ riskRule(id: "one_rule") { id condition action severity enabled version isDefault } }`, {}, auth);
    expect(one.body.data.riskRule).toEqual({
      id: 'one_rule',
      condition: 'txn.amount > 2.0',
      action: 'BLOCK',
      severity: 'HIGH',
      enabled: true,
      version: 1,
      isDefault: false,
    });
    const missing = await a.gql(`{ riskRule(id: "no_such_rule") { id } }`, {}, auth);
    expect(missing.body).toEqual({ data: { riskRule: null } });
  });
});
