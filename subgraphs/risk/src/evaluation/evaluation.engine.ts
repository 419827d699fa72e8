import { createHash, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { conflict } from '../../../../platform/errors.js';
import type { Logger } from '../../../../platform/logger.js';
import type { Listening } from '../../../../platform/db/listen.js';
import type { EventStream } from '../../../../platform/events/event-stream.js';
import type { Tenant } from '../../../../platform/auth/tenant.js';
import type { RulesStore } from '../rules/rule.store.js';
import { runRules, type RuleCache, type RuleSetSnapshot, type RulesOutcome } from '../rules/rule.cache.js';
import { activation, type RuleFacts } from '../rules/rule.environment.js';
import type { NeighbourhoodFacts, Profile } from '../graph/graph.facts.js';
import type { TenantGraphs } from '../graph/graph.owner.js';
import type { TenantGraph } from '../graph/graph.memory.js';
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
import type { GroupCommit } from './evaluation.commit.js';
import { EvaluationHeads } from './evaluation.head.js';

/** An evaluation as the engine produces it (the entity's fields). */
export type EvaluationRecord = Omit<Evaluation, never>;

export interface EngineOptions {
  pool: pg.Pool;
  /** The tenants' graphs this process owns. */
  graphs: TenantGraphs;
  /** Where evaluations are written. */
  commit: GroupCommit;
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
 * POST /v1/evaluate. Live, the engine of the tenant's owner (this process, see `TenantGraphs`):
 *   1. the head: the rules and the parties' profiles. Held by the owner once read (no round trip),
 *      and then checked at the commit (4): an evaluation whose rule-set revision or party profile
 *      moved meanwhile is not written but evaluated again from a read. Not held yet: one read
 *      (pooled connection, released at once; one for the tenant's evaluations arriving in the same
 *      turn, `EvaluationHeads`) of the rule-set revision and the profiles — either way the database
 *      stays authoritative (a committed change applies to the next evaluation);
 *   2. the rules at that revision (cached, compiled once; reloaded when the revision moved);
 *   3. without a round trip or an await: the neighbourhood facts from the tenant's graph in memory
 *      (counters, distinct counterparties, cycles), graph detectors, rules, sanctions screening →
 *      score and action, and the transfer recorded in memory — concurrent evaluations of a tenant
 *      see each other exactly;
 *   4. the evaluation, its outbox event and the transfer's graph rows written by the group commit;
 *      the answer waits for that commit, so nothing answered is lost.
 * A reused transaction id is refused (409) from memory within the graph's window, else by the
 * database's unique index at commit (the transfer is then taken back out of memory).
 * Sandbox (test keys): a deterministic mock score, marked `mock`, reading and writing no graph,
 * counter or rule data.
 */
export class EvaluationEngine {
  private readonly detectors: DetectorThresholds;
  private readonly scanCap: number;

  private readonly heads: EvaluationHeads;

  constructor(private readonly opts: EngineOptions) {
    this.heads = new EvaluationHeads(opts.pool);
    this.detectors = opts.detectors ?? DEFAULT_THRESHOLDS;
    this.scanCap = opts.scanCap ?? DEFAULT_SCAN_CAP;
  }

  private listening: Listening | null = null;

  /** Hears of profile changes, so the profiles held are dropped as they change (`EvaluationHeads.listen`). */
  async start(events: Pick<EventStream, 'listen'>): Promise<void> {
    this.listening = await this.heads.listen(events, this.opts.logger);
  }

  async stop(): Promise<void> {
    await this.listening?.stop();
    this.listening = null;
  }

  async evaluate(tenant: Tenant, input: TransactionInput): Promise<EvaluationRecord> {
    const started = performance.now();
    const txn = validateTransaction(input);
    const record =
      tenant.environment === 'test'
        ? await this.mock(tenant, txn, started)
        : await this.opts.graphs.evaluate(tenant, input, (graph) => this.live(graph, tenant, txn, started), reviveRecord);
    if (!record) throw duplicateTransaction(txn.transactionId);
    return record;
  }

  private async live(graph: TenantGraph, tenant: Tenant, txn: Transaction, started: number): Promise<EvaluationRecord | null> {
    await this.opts.store.ensureSeeded(tenant);
    for (let attempt = 1; ; attempt++) {
      // the head the owner holds (checked at the commit), else read; always read after a stale one
      const held = attempt === 1 ? this.heldHead(tenant, txn) : null;
      const { snapshot, profiles } = held ?? (await this.readHead(tenant, txn));

      // from here to record(): synchronous, so no other evaluation of this tenant comes between
      if (graph.has(txn.transactionId)) return null;
      const at = graph.clock();
      const now = new Date(at);
      const n: NeighbourhoodFacts = {
        ...graph.neighbourhood(
          {
            sender: txn.sender,
            receiver: txn.receiver,
            currency: txn.currency,
            deviceId: txn.deviceId,
            ip: txn.ip,
            cycleWindowHours: this.opts.cycleWindowHours,
            degreeCap: this.opts.degreeCap,
            scanCap: this.scanCap,
          },
          at,
        ),
        profiles,
      };
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
      const undo = graph.record(txn, at);
      const written = await this.opts.commit
        .write(record, { deviceId: txn.deviceId, ip: txn.ip }, held && { profiles })
        .catch((err: unknown) => {
          undo();
          throw err;
        });
      if (written === 'written') return record;
      undo();
      if (written === 'duplicate') return null;
      // a rule or a party's profile changed since it was held: evaluated again from a fresh read
      this.staleHeads++;
      this.heads.forget(tenant, txn.sender, txn.receiver);
    }
  }

  /** Evaluations computed from a held head that had moved by their commit, and so evaluated again (tests, metrics). */
  staleHeads = 0;

  /** Statements that read heads (tests, the bench). */
  get headReads(): number {
    return this.heads.statements;
  }

  /** The rules and the parties' profiles this owner holds for the transaction, when it holds both. */
  private heldHead(tenant: Tenant, txn: Transaction): { snapshot: RuleSetSnapshot; profiles: Profile[] } | null {
    const snapshot = this.opts.rules.latest(tenant);
    const profiles = snapshot && this.heads.held(tenant, txn.sender, txn.receiver);
    return snapshot && profiles ? { snapshot, profiles } : null;
  }

  /** The rule-set revision and the parties' profiles read now (after the evaluation arrived), and the rules at that revision. */
  private async readHead(tenant: Tenant, txn: Transaction): Promise<{ snapshot: RuleSetSnapshot; profiles: Profile[] }> {
    const head = await this.heads.read(tenant, txn.sender, txn.receiver);
    return { snapshot: await this.opts.rules.rulesAt(this.opts.pool, tenant, head.revision ?? '0'), profiles: head.profiles };
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
  private async mock(tenant: Tenant, txn: Transaction, started: number): Promise<EvaluationRecord | null> {
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
      ...noFindings(),
      createdAt: new Date(),
    };
    record.latencyMs = round2(performance.now() - started);
    return (await this.opts.commit.write(record, null)) === 'written' ? record : null;
  }
}

/** An evaluation's findings when nothing was looked at (the sandbox's): no rules, graph, sanctions or facts. */
export const noFindings = () => ({
  rulesFired: [],
  ruleErrors: [],
  graphPatterns: [],
  sanctionsHits: [],
  facts: {},
  rulesRevision: '0',
  latencyMs: 0,
});

/** An evaluation as the tenant's owner sent it (JSON). */
function reviveRecord(json: unknown): EvaluationRecord {
  const record = json as EvaluationRecord;
  return { ...record, createdAt: new Date(record.createdAt) };
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
