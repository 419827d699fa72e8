import { activation, checkCondition, compileCondition, RULE_FACTS, type RuleFacts } from './rule.environment.js';
import { DEFAULT_RULES } from './rule.defaults.js';
import { runRules, type CompiledRule, type RuleSetSnapshot } from './rule.cache.js';

function facts(over: { [K in keyof RuleFacts]?: Partial<RuleFacts[K]> } = {}): RuleFacts {
  const base: RuleFacts = {
    txn: { amount: 1_000, currency: 'KES', channel: 'app', sender: 's', receiver: 'r', metadata: {}, hour_utc: 12 },
    sender: {
      count_1h: 0,
      sum_1h: 0,
      count_24h: 0,
      sum_24h: 0,
      distinct_receivers_24h: 0,
      received_count_1h: 0,
      received_sum_1h: 0,
      is_new: false,
    },
    receiver: { count_1h: 0, sum_1h: 0, count_24h: 0, sum_24h: 0, distinct_senders_24h: 0, is_new: false },
    device: { present: false, distinct_accounts_24h: 0, new_for_sender: false, count_1h: 0 },
    ip: { present: false, distinct_accounts_24h: 0 },
    pair: { count_24h: 0, sum_24h: 0, is_new: true },
    graph: {
      in_cycle: false,
      cycle_length: 0,
      fan_in_24h: 1,
      fan_out_24h: 1,
      shared_device_accounts: 0,
      pass_through: false,
      pass_through_ratio: 0,
      patterns: [],
    },
  };
  for (const [k, v] of Object.entries(over)) Object.assign((base as any)[k], v);
  return base;
}

const evaluate = (condition: string, f: RuleFacts) => compileCondition(condition)(activation(f));

function snapshot(rules: Array<Pick<CompiledRule, 'id' | 'condition'> & Partial<CompiledRule>>): RuleSetSnapshot {
  return {
    revision: '1',
    rules: rules.map((r) => ({
      name: r.id,
      description: null,
      version: 1,
      action: 'review',
      severity: 'medium',
      evaluate: compileCondition(r.condition),
      compileError: null,
      ...r,
    })),
  };
}

describe('CEL rule environment', () => {
  describe('type checking (PUT)', () => {
    it('accepts every default rule', () => {
      for (const rule of DEFAULT_RULES) expect([rule.id, checkCondition(rule.condition)]).toEqual([rule.id, { ok: true }]);
    });

    it('accepts the documented variables, mixed int/double comparisons and has() on metadata', () => {
      for (const c of [
        'sender.count_1h > 5 && sender.sum_1h > 100000',
        'txn.amount > 50000',
        'txn.amount > 50000.0 && txn.currency in ["KES", "UGX"]',
        'has(txn.metadata.device_id) && txn.metadata.device_id == "abc"',
        'receiver.distinct_senders_24h >= 10 || graph.fan_in_24h >= 10',
        'device.distinct_accounts_24h >= 5 && pair.count_24h > 3',
        'graph.in_cycle && graph.cycle_length <= 3 && "cycle" in graph.patterns',
        'txn.amount >= 0.9 * reporting_threshold(txn.currency)',
        'txn.channel.startsWith("ussd") && txn.hour_utc < 5',
      ]) {
        expect([c, checkCondition(c)]).toEqual([c, { ok: true }]);
      }
    });

    it("rejects syntax errors with the parser's message", () => {
      const r = checkCondition('sender.count_1h >');
      expect(r.ok).toBe(false);
      expect(!r.ok && r.message).toMatch(/^Unexpected token: EOF/);
      expect(!r.ok && r.message).toContain('sender.count_1h >');
    });

    it('rejects unknown variables and fields, type errors and non-boolean conditions', () => {
      expect(checkCondition('user.age > 3')).toMatchObject({ ok: false, message: expect.stringMatching(/Unknown variable: user/) });
      expect(checkCondition('sender.count_7d > 3')).toMatchObject({ ok: false, message: expect.stringMatching(/count_7d/) });
      // integers are BigInt and amounts double: arithmetic must not mix them
      expect(checkCondition('txn.amount + 1 > 5.0')).toMatchObject({
        ok: false,
        message: expect.stringMatching(/no such overload: double \+ int/),
      });
      expect(checkCondition('sender.count_1h + 1')).toMatchObject({
        ok: false,
        message: 'condition must be a bool expression, but it yields int',
      });
    });

    it('says where the error is in the author’s own text (line and column from 1), also when it calls matches()', () => {
      expect(checkCondition('sender.count_1h >')).toMatchObject({ ok: false, position: { offset: 17, length: 0, line: 1, column: 18 } });
      // the checker runs on a rewritten source when matches() is used: the position is still the author's
      const text = 'txn.channel.matches("^ussd")  &&\n   sender.count_7d > 3';
      expect(checkCondition(text)).toMatchObject({
        ok: false,
        message: expect.stringMatching(/count_7d/),
        position: { offset: text.indexOf('count_7d'), line: 2, column: 11 },
      });
      expect(checkCondition('sender.count_1h + 1')).toMatchObject({ ok: false, position: null });
    });
  });

  describe('bounds (a hostile tenant)', () => {
    it('matches is an RE2 search: a catastrophic pattern answers at once, partial matches as CEL says', () => {
      const channel = `${'a'.repeat(20_000)}b`;
      const started = performance.now();
      expect(evaluate('txn.channel.matches("^(a+)+$")', facts({ txn: { channel } }))).toBe(false);
      expect(performance.now() - started).toBeLessThan(1_000); // JavaScript's RegExp: longer than the universe
      expect(evaluate('txn.channel.matches("ss")', facts({ txn: { channel: 'ussd' } }))).toBe(true);
      expect(evaluate('matches(txn.channel, "^USSD$")', facts({ txn: { channel: 'ussd' } }))).toBe(false);
    });

    it('refuses patterns RE2 cannot run, patterns that are not literals, and macros nested more than 2 deep', () => {
      expect(checkCondition('txn.channel.matches("(a)\\\\1")')).toMatchObject({
        ok: false,
        message: expect.stringMatching(/not valid RE2/),
      });
      expect(checkCondition('txn.channel.matches("(?=a)b")')).toMatchObject({ ok: false, message: expect.stringMatching(/not valid RE2/) });
      expect(checkCondition('txn.channel.matches(txn.currency)')).toMatchObject({
        ok: false,
        message: 'matches() takes a string literal pattern',
      });
      expect(checkCondition('[1, 2].all(a, [1, 2].exists(b, a == b))')).toEqual({ ok: true });
      expect(checkCondition('[1].all(a, [1].all(b, [1].all(c, a == c)))')).toMatchObject({
        ok: false,
        message: expect.stringMatching(/nest at most 2 deep/),
      });
    });

    it('a condition without macros is bounded (runs without the timed vm call); one with a macro is not', () => {
      expect(compileCondition('txn.amount > 10.0 && txn.metadata.note.matches("^x+$")').bounded).toBe(true);
      expect(compileCondition('sender.is_new && txn.amount >= 0.5 * reporting_threshold(txn.currency)').bounded).toBe(true);
      expect(compileCondition('txn.metadata.note.split("").exists(c, c == "y")').bounded).toBe(false);
      for (const rule of DEFAULT_RULES) expect(compileCondition(rule.condition).bounded).toBe(true);
    });

    it('stops the rules of one evaluation when its time budget is spent, and reports the rule that ran over', () => {
      const note = 'x'.repeat(8_000); // the most metadata a transaction may carry
      const hostile = 'txn.metadata.note.split("").all(a, txn.metadata.note.split("").all(b, a == b))';
      expect(checkCondition(hostile)).toEqual({ ok: true });
      const started = performance.now();
      const outcome = runRules(
        snapshot([
          { id: 'first', condition: 'txn.amount > 10.0', action: 'block', severity: 'high' },
          { id: 'hostile', condition: hostile },
          { id: 'after', condition: 'true' },
        ]),
        activation(facts({ txn: { metadata: { note } } })),
        50,
      );
      const elapsed = performance.now() - started;
      expect(outcome.fired.map((f) => f.id)).toEqual(['first']);
      expect(outcome.errors).toEqual([
        { id: 'hostile', version: 1, message: "exceeded the evaluation's time budget (50 ms)" },
        { id: 'after', version: 1, message: "not run: the evaluation's time budget was spent" },
      ]);
      // 64 million comparisons otherwise; the budget is wall-clock, so allow for a loaded machine
      expect(elapsed).toBeLessThan(1_000);
    });
  });

  describe('evaluation', () => {
    it('counters are ints (BigInt), amounts doubles', () => {
      const a = activation(facts({ sender: { count_1h: 5, sum_1h: 12.5 } }));
      expect(a.sender.count_1h).toBe(5n);
      expect(a.sender.sum_1h).toBe(12.5);
      expect(a.txn.hour_utc).toBe(12n);
    });

    it('velocity burst fires from the 6th transfer of the hour (5 before it)', () => {
      const rule = DEFAULT_RULES.find((r) => r.id === 'velocity_burst')!;
      expect(evaluate(rule.condition, facts({ sender: { count_1h: 4 } }))).toBe(false);
      expect(evaluate(rule.condition, facts({ sender: { count_1h: 5 } }))).toBe(true);
    });

    it('structuring: just below the KES threshold and crossing it with the day’s transfers', () => {
      const rule = DEFAULT_RULES.find((r) => r.id === 'structuring_below_threshold')!;
      expect(evaluate(rule.condition, facts({ txn: { amount: 950_000 }, sender: { sum_24h: 900_000 } }))).toBe(true);
      expect(evaluate(rule.condition, facts({ txn: { amount: 950_000 }, sender: { sum_24h: 0 } }))).toBe(false);
      expect(evaluate(rule.condition, facts({ txn: { amount: 1_200_000 }, sender: { sum_24h: 900_000 } }))).toBe(false);
      // the threshold is per currency: 950,000 UGX is far below UGX 20,000,000
      expect(evaluate(rule.condition, facts({ txn: { amount: 950_000, currency: 'UGX' }, sender: { sum_24h: 900_000 } }))).toBe(false);
    });

    it('new device, large transfer, known sender', () => {
      const rule = DEFAULT_RULES.find((r) => r.id === 'new_device_large_transfer')!;
      const big = { amount: 400_000 };
      expect(evaluate(rule.condition, facts({ txn: big, device: { present: true, new_for_sender: true } }))).toBe(true);
      expect(evaluate(rule.condition, facts({ txn: big, device: { present: true, new_for_sender: false } }))).toBe(false);
      expect(evaluate(rule.condition, facts({ txn: big, sender: { is_new: true }, device: { present: true, new_for_sender: true } }))).toBe(
        false,
      );
    });

    it('runRules: fired rules, not fired, and run-time errors (a missing metadata key) that do not fire', () => {
      const outcome = runRules(
        snapshot([
          { id: 'fan_in', condition: 'graph.fan_in_24h >= 10', action: 'block', severity: 'high' },
          { id: 'quiet', condition: 'sender.count_1h > 100' },
          { id: 'needs_meta', condition: 'txn.metadata.agent == "x"' },
        ]),
        activation(facts({ graph: { fan_in_24h: 12 } })),
      );
      expect(outcome.checked).toBe(3);
      expect(outcome.fired).toEqual([{ id: 'fan_in', name: 'fan_in', description: null, version: 1, action: 'block', severity: 'high' }]);
      expect(outcome.errors).toEqual([{ id: 'needs_meta', version: 1, message: 'No such key: agent' }]);
    });

    it('documents every variable it accepts', () => {
      const names = RULE_FACTS.map((f) => f.name);
      for (const required of [
        'txn.amount',
        'txn.currency',
        'txn.channel',
        'txn.sender',
        'txn.receiver',
        'txn.metadata',
        'sender.count_1h',
        'sender.sum_1h',
        'sender.count_24h',
        'sender.sum_24h',
        'receiver.count_1h',
        'receiver.distinct_senders_24h',
        'device.distinct_accounts_24h',
        'pair.count_24h',
        'graph.in_cycle',
        'graph.fan_in_24h',
      ]) {
        expect(names).toContain(required);
      }
      for (const f of RULE_FACTS) expect(checkCondition(`has(${f.name}) || true`)).toEqual({ ok: true });
    });
  });
});
