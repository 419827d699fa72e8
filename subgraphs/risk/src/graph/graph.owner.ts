import { createHash, randomUUID } from 'node:crypto';
import type express from 'express';
import pg from 'pg';
import { AppError, isErrorCode } from '../../../../platform/errors.js';
import type { Listening } from '../../../../platform/db/listen.js';
import type { EventStream } from '../../../../platform/events/event-stream.js';
import type { Logger } from '../../../../platform/logger.js';
import { tenantKey, type Tenant } from '../../../../platform/auth/tenant.js';
import { principalHeaders, readPrincipal } from '../../../../platform/auth/principal.js';
import type { Sql } from '../../../../platform/db/transaction.js';
import { TenantGraph } from './graph.memory.js';

/** Tenants hash into this many partitions; a partition is owned by one process at a time. */
export const PARTITIONS = 64;
/** The first key of the partitions' advisory locks ('RSKG'). */
const LOCK_CLASS = 0x52534b47;
/** NOTIFY channel: a tenant's graph changed outside the evaluations (an erasure); its owner reloads it. */
const CHANGED_CHANNEL = 'risk_graph_changed';
/** Where a process that does not own a tenant sends its evaluations. */
export const OWNER_PATH = '/internal/risk/evaluations';
const OWNER_AUDIENCE = 'risk-graph-owner';
/** A forwarded evaluation is tried this many times while ownership moves (an owner that died). */
const FORWARD_ATTEMPTS = 6;

export const partitionOf = (tenant: Tenant): number => createHash('sha256').update(tenantKey(tenant)).digest().readUInt32BE(0) % PARTITIONS;

/** After an erasure (in its transaction): the owner of the tenant's graph reloads it once committed. */
export async function graphChanged(db: Sql, tenant: Tenant): Promise<void> {
  await db.query(`select pg_notify($1, $2)`, [CHANGED_CHANNEL, JSON.stringify(tenant)]);
}

export interface TenantGraphsOptions {
  databaseUrl: string;
  /** Graph changes arrive over the process's event transport (LISTEN, or the NATS bus). */
  events: Pick<EventStream, 'listen'>;
  pool: pg.Pool;
  cycleWindowHours: number;
  internalSecret: string;
  logger: Logger;
  /** Resolves when this process's evaluations written so far are stored: a graph loaded after it misses none. */
  settled(): Promise<void>;
}

type Evaluate = (tenant: Tenant, input: unknown) => Promise<unknown>;

/**
 * Which process holds each tenant's graph in memory. A process owns a partition of tenants while
 * it holds a session advisory lock on it, on a connection of its own (not pooled): the lock lives
 * with the session, so a process that stops or dies (kill -9 included) hands its partitions over
 * the moment PostgreSQL sees its connection close. The first process asked to evaluate for a tenant
 * whose partition nobody holds takes it (and loads the graph from the database); the others
 * forward to it (`risk.graph_owners` names its URL), and take over when they find it gone.
 */
export class TenantGraphs {
  private readonly instance = randomUUID();
  private url: string | null = null;
  private locks: pg.Client | null = null;
  private connecting: Promise<pg.Client> | null = null;
  private readonly owned = new Set<number>();
  private readonly graphs = new Map<string, Promise<TenantGraph>>();
  private readonly owners = new Map<number, string>();
  private lookups: Promise<unknown> = Promise.resolve();
  private listening: Listening | null = null;
  private stopped = false;

  constructor(private readonly opts: TenantGraphsOptions) {}

  /** Starts taking partitions, reachable by the others at `url` (this risk service's GraphQL endpoint). */
  async start(url: string): Promise<void> {
    this.url = new URL(OWNER_PATH, url).toString();
    this.listening = await this.opts.events.listen({
      channel: CHANGED_CHANNEL,
      logger: this.opts.logger,
      onNotification: (payload) => {
        if (payload) this.graphs.delete(tenantKey(JSON.parse(payload) as Tenant));
      },
      // an erasure's notice may have been missed: reload every graph
      onReconnect: () => this.graphs.clear(),
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.listening?.stop();
    const locks = this.locks;
    this.release();
    if (locks) {
      await locks.query(`delete from risk.graph_owners where instance = $1`, [this.instance]).catch(() => undefined);
      await locks.end().catch(() => undefined);
    }
  }

  /**
   * Runs `evaluate` here if this process owns the tenant's partition (or can take it), else
   * forwards it to the owner, over HTTP; an owner found gone is replaced.
   */
  async evaluate<T>(
    tenant: Tenant,
    input: unknown,
    evaluate: (graph: TenantGraph) => Promise<T>,
    revive: (json: unknown) => T,
  ): Promise<T> {
    const partition = partitionOf(tenant);
    for (let attempt = 1; ; attempt++) {
      let graph: TenantGraph | null = null;
      try {
        const owner = await this.ownerOf(partition);
        if (owner === 'self') graph = await this.graphOf(tenant);
        else return revive(await this.forward(owner, tenant, input));
      } catch (err) {
        if (err instanceof AppError || attempt >= FORWARD_ATTEMPTS) throw err;
        // the owner did not answer (it may have died: its lock goes with it), or is registering
        this.owners.delete(partition);
        await new Promise((r) => setTimeout(r, 25 * 2 ** attempt));
        continue;
      }
      return evaluate(graph);
    }
  }

  /** The express route the others forward to: runs the evaluation here if this process still owns the tenant. */
  route(app: express.Express, evaluateHere: Evaluate): void {
    app.post(OWNER_PATH, async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks).toString('utf8');
      const principal = readPrincipal(req.headers, this.opts.internalSecret, { audience: OWNER_AUDIENCE, request: digest(body) });
      if (!principal?.organizationId) return void res.status(401).json({ error: 'unsigned' });
      const tenant = { organizationId: principal.organizationId, environment: principal.environment };
      // not (or no longer) the owner: the caller looks the owner up again
      if (!this.owned.has(partitionOf(tenant))) return void res.status(421).json({ error: { code: 'MISDIRECTED' } });
      try {
        res.json({ result: await evaluateHere(tenant, (JSON.parse(body) as { input: unknown }).input) });
      } catch (err) {
        if (err instanceof AppError)
          res.status(err.status).json({ error: { code: err.code, messages: err.messages, message: err.message } });
        else {
          this.opts.logger.error({ err }, 'a forwarded evaluation failed');
          res.status(500).json({ error: { code: 'INTERNAL' } });
        }
      }
    });
  }

  private async forward(url: string, tenant: Tenant, input: unknown): Promise<unknown> {
    const body = JSON.stringify({ input });
    const principal = {
      kind: 'client' as const,
      organizationId: tenant.organizationId,
      clientId: null,
      service: 'risk' as const,
      environment: tenant.environment as 'live',
      permissions: [],
    };
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...principalHeaders(principal, this.opts.internalSecret, { audience: OWNER_AUDIENCE, request: digest(body) }),
      },
      body,
    });
    const answer = (await response.json()) as { result?: unknown; error?: { code: string; messages?: string[]; message?: string } };
    if (response.ok) return answer.result;
    // the owner lost the partition between our look-up and its answer: look again
    if (response.status === 421) throw new Error('not the owner');
    const code = answer.error?.code;
    if (isErrorCode(code)) throw new AppError(code, answer.error?.messages ?? answer.error?.message ?? code);
    throw new Error(`the owner of the tenant's graph answered ${response.status}`);
  }

  /** A tenant's graph, loaded once (this process owns its partition). */
  private graphOf(tenant: Tenant): Promise<TenantGraph> {
    const key = tenantKey(tenant);
    let graph = this.graphs.get(key);
    if (!graph) {
      // after a reload notice (an erasure) this process's own evaluations may still be on their way to the tables
      graph = this.opts.settled().then(() => TenantGraph.load(this.opts.pool, tenant, this.opts.cycleWindowHours));
      this.graphs.set(key, graph);
      graph.catch(() => this.graphs.delete(key));
    }
    return graph;
  }

  /** 'self', or the URL of the process that owns the partition. */
  private ownerOf(partition: number): Promise<'self' | string> {
    if (this.owned.has(partition)) return Promise.resolve('self');
    const known = this.owners.get(partition);
    if (known) return Promise.resolve(known);
    // one look-up at a time on the session (its queries run one by one anyway)
    const next = this.lookups.then(() => this.lookUp(partition));
    this.lookups = next.catch(() => undefined);
    return next;
  }

  private async lookUp(partition: number): Promise<'self' | string> {
    if (this.owned.has(partition)) return 'self';
    const known = this.owners.get(partition);
    if (known) return known;
    const locks = await this.lockSession();
    const { rows } = await locks.query<{ taken: boolean }>(`select pg_try_advisory_lock($1, $2) as taken`, [LOCK_CLASS, partition]);
    if (rows[0].taken) {
      await locks.query(
        `insert into risk.graph_owners (partition, url, instance, claimed_at) values ($1, $2, $3, now())
         on conflict (partition) do update set url = excluded.url, instance = excluded.instance, claimed_at = excluded.claimed_at`,
        [partition, this.url, this.instance],
      );
      this.owned.add(partition);
      this.opts.logger.info({ partition }, 'took a partition of the risk graph');
      return 'self';
    }
    const owner = await locks.query<{ url: string }>(`select url from risk.graph_owners where partition = $1`, [partition]);
    const url = owner.rows[0]?.url;
    if (!url) throw new Error(`partition ${partition} of the risk graph is held but its owner is not registered yet`);
    this.owners.set(partition, url);
    return url;
  }

  private lockSession(): Promise<pg.Client> {
    if (this.locks) return Promise.resolve(this.locks);
    if (this.stopped) return Promise.reject(new Error('the risk service is stopping'));
    this.connecting ??= (async () => {
      const client = new pg.Client({ connectionString: this.opts.databaseUrl, application_name: 'risk-graph-owner' });
      // the session holds the locks: when it is gone, so is every partition
      client.on('error', (err) => {
        this.opts.logger.error({ err }, 'the risk graph ownership session was lost: partitions released');
        this.release();
      });
      client.on('end', () => this.release());
      await client.connect();
      this.locks = client;
      return client;
    })().finally(() => (this.connecting = null));
    return this.connecting;
  }

  private release(): void {
    this.locks = null;
    this.owned.clear();
    this.graphs.clear();
    this.owners.clear();
  }
}

const digest = (body: string) => createHash('sha256').update(body).digest('base64url');
