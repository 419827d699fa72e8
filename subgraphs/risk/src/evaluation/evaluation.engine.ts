import { createHash, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { conflict } from '../../../../platform/errors.js';
import type { Logger } from '../../../../platform/logger.js';
import type { Tenant } from '../../../../platform/auth/tenant.js';
import { inTransaction, isUniqueViolation } from '../../../../platform/db/transaction.js';
import type { RulesStore } from '../rules/rule.store.js';
import { runRules, type RuleCache, type RulesOutcome } from '../rules/rule.cache.js';
import { activation, type RuleFacts } from '../rules/rule.environment.js';
import { readNeighbourhoodAndRecord, type NeighbourhoodFacts } from '../graph/graph.facts.js';
import { detectPatterns, type DetectorThresholds, DEFAULT_THRESHOLDS, type GraphPattern } from '../graph/graph.patterns.js';
import type { Party, SanctionsLayer, SanctionsOutcome } from '../sanctions/sanctions.layer.js';
import { validateTransaction, type Transaction, type TransactionInput } from './evaluation.validation.js';
import {
  actionForScore,
  combineLayers,
  mostSevere,
  noisyOr,
  SEVERITY_WEIGHTS,
  type Action,
  type Thresholds,
} from './evaluation.scoring.js';
import type { Evaluation } from './evaluation.entity.js';
import { recordEvaluation } from './evaluation.events.js';

const { escapeLiteral } = pg;

/** An evaluation as the engine produces it (the entity's fields). */
export type EvaluationRecord = Omit<Evaluation, never>;

export interface EngineOptions {
  pool: pg.Pool;
  rules: RuleCache;
  store: RulesStore;
  sanctions: SanctionsLayer;
  thresholds: Thresholds;
  detectors?: DetectorThresholds;
  cycleWindowHours: number;
  degreeCap: number;
  /** Time budget of one evaluation's rules (runRules). */
  ruleBudgetMs?: number;
  /** Edges read per node when counting distinct counterparties. */
  scanCap?: number;
  logger: Logger;
}

const DEFAULT_SCAN_CAP = 1_000;

export const duplicateTransaction = (id: string) =>
  conflict(`transaction_id ${id} was already evaluated; it must be unique per organization`);

/**
 * POST /v1/evaluate. Live: one transaction per evaluation, four round trips —
 *   1. begin, with a transaction-scoped advisory lock on the sender (its counters are exact under
 *      concurrency) and the rule-set revision;
 *   2. the rules at that revision (cached, compiled once; reloaded when the revision moved);
 *   3. the neighbourhood facts (counters, distinct counterparties, cycles) read, and the SENT edge,
 *      nodes, USED/FROM_IP edges and counters written, in one statement;
 *   4. rules, graph detectors and sanctions screening in memory → score and action;
 *   5. the evaluation and its outbox event in one statement; commit. Nothing is half-written.
 * The unique indexes on the transaction id decide duplicates, concurrent or not (no look-up
 * first: it is the write that fails): the loser waits for the winner's commit, then gets 409.
 * Sandbox (test keys): a deterministic mock score, marked `mock`, reading and writing no graph,
 * counter or rule data.
 */
export class EvaluationEngine {
  private readonly detectors: DetectorThresholds;
  private readonly scanCap: number;

  constructor(private readonly opts: EngineOptions) {
    this.detectors = opts.detectors ?? DEFAULT_THRESHOLDS;
    this.scanCap = opts.scanCap ?? DEFAULT_SCAN_CAP;
  }

  async evaluate(tenant: Tenant, input: TransactionInput): Promise<EvaluationRecord> {
    const started = performance.now();
    const txn = validateTransaction(input);
    try {
      if (tenant.environment === 'test') return await this.mock(tenant, txn, started);
      await this.opts.store.ensureSeeded(tenant);
      return await inTransaction(this.opts.pool, (client, opened) => this.live(client, tenant, txn, started, opened), {
        begin: this.head(tenant, txn),
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw duplicateTransaction(txn.transactionId);
      throw err;
    }
  }

  /**
   * Opens the evaluation's transaction and reads its head in the same round trip: the sender's
   * lock (its counters are exact under concurrency), the transaction's time and the rule-set
   * revision. A simple query (values as literals): the lock must come before the statement that
   * reads the counters, whose snapshot would otherwise predate it.
   */
  private head(tenant: Tenant, txn: Transaction): string {
    const org = escapeLiteral(tenant.organizationId);
    const env = escapeLiteral(tenant.environment);
    const lock = escapeLiteral(`${tenant.organizationId}/${tenant.environment}/${txn.sender}`);
    return `begin; select pg_advisory_xact_lock(hashtextextended(${lock}, 0)) is null as locked, now() as now,
      (select revision::text from risk.rule_sets where organization_id = ${org} and environment = ${env}) as revision`;
  }

  private async live(client: pg.PoolClient, tenant: Tenant, txn: Transaction, started: number, opened: unknown): Promise<EvaluationRecord> {
    const head = (opened as pg.QueryResult<{ now: Date; revision: string | null }>[])[1].rows[0];
    const now = head.now;

    const snapshot = await this.opts.rules.rulesAt(client, tenant, head.revision ?? '0');
    const n = await readNeighbourhoodAndRecord(
      client,
      {
        tenant,
        sender: txn.sender,
        receiver: txn.receiver,
        currency: txn.currency,
        deviceId: txn.deviceId,
        ip: txn.ip,
        now,
        cycleWindowHours: this.opts.cycleWindowHours,
        degreeCap: this.opts.degreeCap,
        scanCap: this.scanCap,
      },
      { transactionId: txn.transactionId, amount: txn.amount, channel: txn.channel },
    );
    const detected = detectPatterns(
      {
        sender: txn.sender,
        receiver: txn.receiver,
        deviceId: txn.deviceId,
        cyclePath: n.cyclePath,
        fanIn: n.fanInBefore + (n.fanInHasSender ? 0 : 1),
        fanOut: n.fanOutBefore + (n.fanOutHasReceiver ? 0 : 1),
        deviceAccounts: txn.deviceId ? n.deviceAccounts24h + (n.deviceSenderActive24h ? 0 : 1) : 0,
        receivedCount1h: n.senderAsReceiver.count1h,
        receivedSum1h: n.senderAsReceiver.sum1h,
        sentSum1h: n.sender.sum1h,
        amount: txn.amount,
      },
      this.detectors,
    );
    const facts = buildFacts(txn, n, detected, now);
    const rules = runRules(snapshot, activation(facts), this.opts.ruleBudgetMs);
    const sanctions = this.opts.sanctions.screen(partiesOf(txn, n));
    if (rules.errors.length) this.opts.logger.warn({ tenant, errors: rules.errors }, 'rules failed during an evaluation');

    const record = this.decide(tenant, txn, {
      rules,
      patterns: detected.patterns,
      nodesTraversed: n.nodesTraversed,
      sanctions,
      facts,
      revision: snapshot.revision,
      now,
      started,
    });
    await recordEvaluation(client, record);
    return record;
  }

  private decide(
    tenant: Tenant,
    txn: Transaction,
    r: {
      rules: RulesOutcome;
      patterns: GraphPattern[];
      nodesTraversed: number;
      sanctions: SanctionsOutcome;
      facts: RuleFacts;
      revision: string;
      now: Date;
      started: number;
    },
  ): EvaluationRecord {
    const layerScores = {
      rules: noisyOr(r.rules.fired.map((f) => SEVERITY_WEIGHTS[f.severity])),
      graph: noisyOr(r.patterns.map((p) => p.weight)),
      sanctions: r.sanctions.score,
    };
    const score = combineLayers(layerScores);
    const byScore = actionForScore(score, this.opts.thresholds);
    const action = mostSevere(byScore, ...r.rules.fired.map((f) => f.action), r.sanctions.action);
    const reasons = [
      ...r.sanctions.hits.map(
        (h) => `sanctions: ${h.party} "${h.name}" matches ${h.primaryName} on ${h.source} (${h.kind}, score ${h.score})`,
      ),
      ...r.rules.fired.map((f) => `rule ${f.id} (${f.severity}, ${f.action}): ${f.description ?? f.name}`),
      ...r.patterns.map(describePattern),
    ];
    if (byScore !== 'allow') {
      const t = byScore === 'block' ? this.opts.thresholds.block : this.opts.thresholds.review;
      reasons.push(`score ${score} is at or above the ${byScore} threshold (${t})`);
    }
    return {
      id: randomUUID(),
      organizationId: tenant.organizationId,
      environment: tenant.environment,
      transactionId: txn.transactionId,
      score,
      action,
      mock: false,
      amount: txn.amount,
      currency: txn.currency,
      sender: txn.sender,
      receiver: txn.receiver,
      channel: txn.channel,
      metadata: txn.metadata,
      layers: {
        rules: { fired: r.rules.fired.length, checked: r.rules.checked },
        graph: { patternsFound: r.patterns.length, nodesTraversed: r.nodesTraversed },
        sanctions: { hits: r.sanctions.hits.length, listsChecked: r.sanctions.listsChecked },
      },
      layerScores,
      reasons,
      rulesFired: r.rules.fired,
      ruleErrors: r.rules.errors,
      graphPatterns: r.patterns,
      sanctionsHits: r.sanctions.hits,
      facts: r.facts as unknown as Record<string, unknown>,
      rulesRevision: r.revision,
      latencyMs: round2(performance.now() - r.started),
      createdAt: r.now,
    };
  }

  /** Sandbox: metadata.mock_score, else a score derived from transaction_id (0–29: allow). */
  private async mock(tenant: Tenant, txn: Transaction, started: number): Promise<EvaluationRecord> {
    const score = txn.mockScore ?? mockScore(txn.transactionId);
    const action: Action = actionForScore(score, this.opts.thresholds);
    const record: EvaluationRecord = {
      id: randomUUID(),
      organizationId: tenant.organizationId,
      environment: tenant.environment,
      transactionId: txn.transactionId,
      score,
      action,
      mock: true,
      amount: txn.amount,
      currency: txn.currency,
      sender: txn.sender,
      receiver: txn.receiver,
      channel: txn.channel,
      metadata: txn.metadata,
      layers: { rules: { fired: 0, checked: 0 }, graph: { patternsFound: 0, nodesTraversed: 0 }, sanctions: { hits: 0, listsChecked: 0 } },
      layerScores: { rules: 0, graph: 0, sanctions: 0 },
      reasons: [
        `sandbox: mock score ${score} (${txn.mockScore !== null ? 'metadata.mock_score' : 'derived from transaction_id'}); no rules, graph or sanctions data used`,
      ],
      rulesFired: [],
      ruleErrors: [],
      graphPatterns: [],
      sanctionsHits: [],
      facts: {},
      rulesRevision: '0',
      latencyMs: 0,
      createdAt: new Date(),
    };
    return inTransaction(this.opts.pool, async (client) => {
      record.latencyMs = round2(performance.now() - started);
      await recordEvaluation(client, record);
      return record;
    });
  }
}

/** Deterministic sandbox score: SHA-256 of the transaction id, mapped onto 0–29 (allow). */
export function mockScore(transactionId: string): number {
  return createHash('sha256').update(transactionId).digest().readUInt32BE(0) % 30;
}

function buildFacts(txn: Transaction, n: NeighbourhoodFacts, detected: ReturnType<typeof detectPatterns>, now: Date): RuleFacts {
  const deviceAccounts = txn.deviceId ? n.deviceAccounts24h + (n.deviceSenderActive24h ? 0 : 1) : 0;
  const cycleLength = n.cyclePath ? n.cyclePath.length - 1 : 0;
  return {
    txn: {
      amount: txn.amount,
      currency: txn.currency,
      channel: txn.channel ?? '',
      sender: txn.sender,
      receiver: txn.receiver,
      metadata: txn.metadata,
      hour_utc: now.getUTCHours(),
    },
    sender: {
      count_1h: n.sender.count1h,
      sum_1h: n.sender.sum1h,
      count_24h: n.sender.count24h,
      sum_24h: n.sender.sum24h,
      distinct_receivers_24h: n.fanOutBefore,
      received_count_1h: n.senderAsReceiver.count1h,
      received_sum_1h: n.senderAsReceiver.sum1h,
      is_new: !n.senderKnown,
    },
    receiver: {
      count_1h: n.receiver.count1h,
      sum_1h: n.receiver.sum1h,
      count_24h: n.receiver.count24h,
      sum_24h: n.receiver.sum24h,
      distinct_senders_24h: n.fanInBefore,
      is_new: !n.receiverKnown,
    },
    device: {
      present: txn.deviceId !== null,
      distinct_accounts_24h: deviceAccounts,
      new_for_sender: txn.deviceId !== null && !n.deviceUsedBySender,
      count_1h: n.device.count1h,
    },
    ip: { present: txn.ip !== null, distinct_accounts_24h: txn.ip ? n.ipAccounts24h + (n.ipSenderActive24h ? 0 : 1) : 0 },
    pair: { count_24h: n.pair.count24h, sum_24h: n.pair.sum24h, is_new: n.pair.count24h === 0 },
    graph: {
      in_cycle: cycleLength > 0,
      cycle_length: cycleLength,
      fan_in_24h: n.fanInBefore + (n.fanInHasSender ? 0 : 1),
      fan_out_24h: n.fanOutBefore + (n.fanOutHasReceiver ? 0 : 1),
      shared_device_accounts: deviceAccounts,
      pass_through: detected.passThrough,
      pass_through_ratio: detected.passThroughRatio,
      patterns: detected.patterns.map((p) => p.type),
    },
  };
}

function partiesOf(txn: Transaction, n: NeighbourhoodFacts): Party[] {
  const parties: Party[] = [];
  for (const [role, account, given] of [
    ['sender', txn.sender, txn.senderName],
    ['receiver', txn.receiver, txn.receiverName],
  ] as const) {
    const profile = n.profiles.find((p) => p.account_id === account);
    if (given)
      parties.push({
        role,
        account,
        name: given,
        from: 'metadata',
        dateOfBirth: profile?.date_of_birth,
        nationality: profile?.nationality,
      });
    else if (profile)
      parties.push({
        role,
        account,
        name: profile.full_name,
        from: 'profile',
        dateOfBirth: profile.date_of_birth,
        nationality: profile.nationality,
      });
  }
  return parties;
}

function describePattern(p: GraphPattern): string {
  switch (p.type) {
    case 'cycle':
      return `graph: cycle of ${p.length} transfers (${p.accounts.join(' → ')})`;
    case 'fan_in':
      return `graph: fan-in of ${p.count} distinct senders into ${p.accounts[0]} in 24 hours`;
    case 'fan_out':
      return `graph: fan-out of ${p.count} distinct receivers from ${p.accounts[0]} in 24 hours`;
    case 'shared_device':
      return `graph: device ${p.device} used by ${p.count} accounts in 24 hours`;
    case 'rapid_pass_through':
      return `graph: rapid pass-through by ${p.accounts[0]} (sent/received in the last hour = ${p.ratio})`;
  }
}

const round2 = (x: number) => Math.round(x * 100) / 100;
