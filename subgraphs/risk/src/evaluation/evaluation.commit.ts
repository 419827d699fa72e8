import type pg from 'pg';
import type { Logger } from '../../../../platform/logger.js';
import type { Evaluation } from './evaluation.entity.js';
import { EVALUATION_RESOURCE, evaluationEvent } from './evaluation.events.js';

/** The transfer an evaluation adds to the graph (live evaluations; the sandbox's add none). */
export interface GraphWrite {
  deviceId: string | null;
  ip: string | null;
}

interface Pending {
  row: Record<string, unknown>;
  resolve(written: boolean): void;
  reject(err: unknown): void;
}

/** Evaluations written by one statement at most (a batch's rows travel as one JSON parameter). */
const MAX_BATCH = 500;
/** A batch that lost a deadlock to another writer (an erasure) is tried again this many times. */
const RETRIES = 2;

/**
 * Every write of a batch, in ONE statement (one transaction): the evaluations (a transaction id
 * already stored is skipped, not an error), and for those written their outbox events and their
 * transfers in the graph — SENT edges, account/device/IP nodes, USED and FROM_IP edges (grouped
 * first: one row of a batch may not update another's row twice). Velocity counters are not stored:
 * the owner of a graph counts them from the SENT edges.
 */
const BATCH_SQL = /* SQL */ `
with input as (
  select * from jsonb_to_recordset($1::jsonb) as x(
    id uuid, organization_id uuid, environment text, transaction_id text, score float8, action text, mock boolean, amount float8,
    currency text, sender text, receiver text, channel text, metadata jsonb, layers jsonb, layer_scores jsonb, reasons jsonb,
    rules_fired jsonb, rule_errors jsonb, graph_patterns jsonb, sanctions_hits jsonb, facts jsonb, rules_revision bigint,
    latency_ms float8, created_at timestamptz, graph boolean, device_id text, ip text, event_id uuid, event text, payload jsonb, snapshot jsonb)
),
evaluation as (
  insert into risk.evaluations (id, organization_id, environment, transaction_id, score, action, mock, amount, currency, sender, receiver,
    channel, metadata, layers, layer_scores, reasons, rules_fired, rule_errors, graph_patterns, sanctions_hits, facts, rules_revision,
    latency_ms, created_at)
  select id, organization_id, environment, transaction_id, score, action, mock, amount, currency, sender, receiver,
    channel, metadata, layers, layer_scores, reasons, rules_fired, rule_errors, graph_patterns, sanctions_hits, facts, rules_revision,
    latency_ms, created_at
  from input
  on conflict do nothing
  returning id
),
written as (select input.* from input join evaluation using (id)),
event as (
  insert into platform.outbox_events (event_id, organization_id, environment, event, resource_type, resource_id, user_id, payload, snapshot, created_at)
  select event_id, organization_id, environment, event, '${EVALUATION_RESOURCE}', id::text, null, payload, snapshot, created_at from written
),
t as (
  select organization_id as org, environment as env, transaction_id as tid, sender as snd, receiver as rcv, amount, currency as cur,
         channel, device_id as dev, ip, created_at as at
  from written where graph
),
sent as (
  insert into risk.transfers (organization_id, environment, transaction_id, sender, receiver, amount, currency, channel, device_id, ip, at)
  select org, env, tid, snd, rcv, amount, cur, channel, dev, ip, at from t
),
accounts as (
  insert into risk.accounts (organization_id, environment, id, first_seen_at)
  select org, env, a.id, min(at) from t cross join lateral (values (t.snd), (t.rcv)) a(id) group by org, env, a.id
  on conflict do nothing
),
devices as (
  insert into risk.devices (organization_id, environment, id, first_seen_at)
  select org, env, dev, min(at) from t where dev is not null group by org, env, dev
  on conflict do nothing
),
used as (
  insert into risk.account_devices (organization_id, environment, account_id, device_id, first_seen_at, last_seen_at, uses)
  select org, env, snd, dev, min(at), max(at), count(*) from t where dev is not null group by org, env, snd, dev
  on conflict (organization_id, environment, account_id, device_id)
  do update set last_seen_at = greatest(risk.account_devices.last_seen_at, excluded.last_seen_at), uses = risk.account_devices.uses + excluded.uses
),
ips as (
  insert into risk.ips (organization_id, environment, address, first_seen_at)
  select org, env, ip, min(at) from t where ip is not null group by org, env, ip
  on conflict do nothing
),
from_ip as (
  insert into risk.account_ips (organization_id, environment, account_id, address, first_seen_at, last_seen_at, uses)
  select org, env, snd, ip, min(at), max(at), count(*) from t where ip is not null group by org, env, snd, ip
  on conflict (organization_id, environment, account_id, address)
  do update set last_seen_at = greatest(risk.account_ips.last_seen_at, excluded.last_seen_at), uses = risk.account_ips.uses + excluded.uses
)
select id::text from written`;

/**
 * Group commit of evaluations: writes wait in a queue and go to the database together, one
 * transaction per batch, as soon as the previous batch has committed (under load a batch gathers
 * what arrived during the last commit; alone, an evaluation is written at once). `write` resolves
 * after its batch commits — an answer is never sent for an evaluation that is not stored — with
 * false when the transaction id was already stored. No connection is held while evaluations are
 * computed: only the batch statement takes one.
 */
export class GroupCommit {
  private queue: Pending[] = [];
  private running: Promise<void> | null = null;
  private scheduled = false;
  private readonly unsettled = new Set<Promise<boolean>>();
  /** Batches and rows written (observability, the bench). */
  batches = 0;
  rows = 0;

  constructor(
    private readonly pool: pg.Pool,
    private readonly logger: Logger,
  ) {}

  /** Queues an evaluation (with its transfer, if live); resolves once committed: true, or false if its transaction id was taken. */
  write(e: Evaluation, graph: GraphWrite | null): Promise<boolean> {
    const written = new Promise<boolean>((resolve, reject) => {
      this.queue.push({ row: rowOf(e, graph), resolve, reject });
      this.schedule();
    });
    this.unsettled.add(written);
    const settle = () => this.unsettled.delete(written);
    written.then(settle, settle);
    return written;
  }

  /** Resolves when every write queued so far is committed (or refused). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.unsettled]);
  }

  private schedule(): void {
    if (this.running || this.scheduled) return;
    this.scheduled = true;
    // the rest of this turn of the event loop joins the batch
    setImmediate(() => {
      this.scheduled = false;
      if (this.running || !this.queue.length) return;
      this.running = this.flush().finally(() => {
        this.running = null;
        if (this.queue.length) this.schedule();
      });
    });
  }

  private async flush(): Promise<void> {
    const batch = this.queue.splice(0, MAX_BATCH);
    for (let attempt = 0; ; attempt++) {
      try {
        const { rows } = await this.pool.query<{ id: string }>({
          name: 'risk_group_commit',
          text: BATCH_SQL,
          values: [JSON.stringify(batch.map((p) => p.row))],
        });
        const written = new Set(rows.map((r) => r.id));
        this.batches++;
        this.rows += written.size;
        for (const p of batch) p.resolve(written.has(p.row.id as string));
        return;
      } catch (err) {
        if ((err as { code?: string }).code === '40P01' && attempt < RETRIES) continue;
        this.logger.error({ err, evaluations: batch.length }, 'an evaluation batch could not be written');
        for (const p of batch) p.reject(err);
        return;
      }
    }
  }
}

function rowOf(e: Evaluation, graph: GraphWrite | null): Record<string, unknown> {
  const event = evaluationEvent(e.action);
  return {
    id: e.id,
    organization_id: e.organizationId,
    environment: e.environment,
    transaction_id: e.transactionId,
    score: e.score,
    action: e.action,
    mock: e.mock,
    amount: e.amount,
    currency: e.currency,
    sender: e.sender,
    receiver: e.receiver,
    channel: e.channel ?? null,
    metadata: e.metadata,
    layers: e.layers,
    layer_scores: e.layerScores,
    reasons: e.reasons,
    rules_fired: e.rulesFired,
    rule_errors: e.ruleErrors,
    graph_patterns: e.graphPatterns,
    sanctions_hits: e.sanctionsHits,
    facts: e.facts,
    rules_revision: e.rulesRevision,
    latency_ms: e.latencyMs,
    created_at: e.createdAt.toISOString(),
    graph: graph !== null,
    device_id: graph?.deviceId ?? null,
    ip: graph?.ip ?? null,
    event_id: crypto.randomUUID(),
    event,
    payload: {
      event,
      timestamp: e.createdAt.toISOString(),
      data: { evaluationId: e.id, transactionId: e.transactionId, score: e.score, action: e.action, mock: e.mock },
    },
    // serialized with the batch: the evaluation without its tenant columns, as evaluationSnapshot
    snapshot: withoutTenant(e),
  };
}

function withoutTenant(e: Evaluation): Omit<Evaluation, 'organizationId' | 'environment'> {
  const { organizationId: _org, environment: _env, ...visible } = e;
  return visible;
}
