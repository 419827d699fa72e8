import type { Opt } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { Action } from './evaluation.scoring.js';
import type { FiredRule, RuleError } from '../rules/rule.cache.js';
import type { GraphPattern } from '../graph/graph.patterns.js';
import type { SanctionsHit } from '../sanctions/sanctions.layer.js';

export interface LayerCounts {
  rules: { fired: number; checked: number };
  graph: { patternsFound: number; nodesTraversed: number };
  sanctions: { hits: number; listsChecked: number };
}

export interface LayerScores {
  rules: number;
  graph: number;
  sanctions: number;
}

/**
 * One evaluation, created complete (the spec gives it no states). Inserted by the evaluation
 * engine's transaction (raw SQL, with the graph edge and the counters); read through the ORM.
 */
@Entity({ schema: 'risk', tableName: 'evaluations' })
export class Evaluation {
  @PrimaryKey({ type: 'uuid' })
  id!: string;

  @Property({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'text' })
  environment!: string;

  @Property({ type: 'text' })
  transactionId!: string;

  @Property({ type: 'double' })
  score!: number;

  @Property({ type: 'text' })
  action!: Action;

  /** Sandbox evaluations: a deterministic mock score, no rules/graph/sanctions data used. */
  @Property({ type: 'boolean' })
  mock!: boolean;

  @Property({ type: 'double' })
  amount!: number;

  @Property({ type: 'text' })
  currency!: string;

  @Property({ type: 'text' })
  sender!: string;

  @Property({ type: 'text' })
  receiver!: string;

  @Property({ type: 'text', nullable: true })
  channel?: string | null;

  @Property({ type: 'json' })
  metadata!: Record<string, unknown>;

  @Property({ type: 'json' })
  layers!: LayerCounts;

  @Property({ type: 'json' })
  layerScores!: LayerScores;

  @Property({ type: 'json' })
  reasons!: string[];

  @Property({ type: 'json' })
  rulesFired!: FiredRule[];

  @Property({ type: 'json' })
  ruleErrors!: RuleError[];

  @Property({ type: 'json' })
  graphPatterns!: GraphPattern[];

  @Property({ type: 'json' })
  sanctionsHits!: SanctionsHit[];

  /** The facts the rules saw (CEL environment values). */
  @Property({ type: 'json' })
  facts!: Record<string, unknown>;

  @Property({ type: 'bigint' })
  rulesRevision!: string;

  @Property({ type: 'double' })
  latencyMs!: number;

  @Property({ type: 'datetime' })
  createdAt: Date & Opt = new Date();
}
