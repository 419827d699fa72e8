import type express from 'express';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Tenant } from './auth/tenant.js';
import type { SubgraphContext } from './graphql/subgraph.js';
import type { PersonalDataHolder } from './privacy/personal-data.js';

/** Background work of a capability: started once its subgraph serves, stopped before it closes. */
export interface CapabilityWorker {
  start(): void | Promise<void>;
  stop(): Promise<void>;
}

/** What a capability's parts see: the shared deps, every capability's privacy parts, its own and those it needs. */
type All<Shared, Deps, Needs> = Shared & CapabilityDeps & Deps & Needs;

/**
 * One capability of a service (`<capability>/<capability>.module.ts`): everything its service wires
 * for it. `Shared` is what the service builds once for all its capabilities; `Deps` what this one
 * builds for itself (`deps`), found with the rest in its resolvers' `ctx.deps`. A capability that
 * uses another's (an AI identity check reads documents) names it in `Needs`.
 */
export interface Capability<Shared, Deps extends object = object, Needs extends object = object> {
  name: string;
  /** Its resolvers: queries, mutations, subscriptions, and the fields it adds to others' types (User). */
  resolvers?: Function[];
  /** Types reached only through federation (a `User` it adds fields to), which the schema would drop. */
  orphanedTypes?: Function[];
  /** `__resolveReference` per federated type it owns (each with its own context's deps). */
  references?: Record<string, (ref: { id: string }, ctx: SubgraphContext<any>) => unknown>;
  /** Its MikroORM entities. */
  entities?: Function[];
  /** The events of its records a webhook may subscribe to. */
  webhookEvents?: readonly string[];
  /** Built once when the service starts. */
  deps?(shared: Shared): Deps | Promise<Deps>;
  /** Its records of a user, by the name they carry in an export and in an erasure's report. */
  personalData?(em: EntityManager, tenant: Tenant, deps: All<Shared, Deps, Needs>): Record<string, PersonalDataHolder>;
  /** Removes what is past the organization's retention period; how many of each kind. */
  retention?(deps: All<Shared, Deps, Needs>): Promise<Record<string, number>>;
  workers?(deps: All<Shared, Deps, Needs>): CapabilityWorker[];
  /** Plain HTTP routes beside the graph (public: they do their own checks). */
  routes?(app: express.Express, deps: All<Shared, Deps, Needs>): void;
}

/** What a service's capabilities give together to its context and to the platform's privacy work. */
export interface CapabilityDeps {
  /** Every capability's records of a user (erasure and export). */
  personalData(em: EntityManager, tenant: Tenant): Record<string, PersonalDataHolder>;
  /** Every capability's retention purge, counts by kind. */
  retention(): Promise<Record<string, number>>;
}

// the list mixes capabilities of different Deps: each is checked where it is declared
type AnyCapability<Shared> = Capability<Shared, any, any>;

/** The parts of a service's capabilities its schema is built from (no start needed). */
export function capabilityParts<Shared>(capabilities: readonly AnyCapability<Shared>[]) {
  return {
    resolvers: capabilities.flatMap((c) => c.resolvers ?? []),
    orphanedTypes: capabilities.flatMap((c) => c.orphanedTypes ?? []),
    references: Object.assign({}, ...capabilities.map((c) => c.references ?? {})) as NonNullable<Capability<Shared>['references']>,
    entities: capabilities.flatMap((c) => c.entities ?? []),
    webhookEvents: capabilities.flatMap((c) => c.webhookEvents ?? []),
    routes: (app: express.Express, deps: Shared) => capabilities.forEach((c) => c.routes?.(app, deps)),
  };
}

/**
 * Builds every capability's deps on top of the shared ones (in the list's order: one may read what
 * an earlier one built), then their workers; `deps` is the services' context `ctx.deps`.
 */
export async function startCapabilities<Shared extends object>(capabilities: readonly AnyCapability<Shared>[], shared: Shared) {
  const deps = { ...shared } as Shared & CapabilityDeps & Record<string, unknown>;
  for (const capability of capabilities) Object.assign(deps, await capability.deps?.(deps));
  deps.personalData = (em, tenant) => Object.assign({}, ...capabilities.map((c) => c.personalData?.(em, tenant, deps) ?? {}));
  deps.retention = async () => {
    const purged: Record<string, number> = {};
    for (const capability of capabilities) Object.assign(purged, await capability.retention?.(deps));
    return purged;
  };
  const workers = capabilities.flatMap((c) => c.workers?.(deps) ?? []);
  return {
    deps,
    start: async () => {
      for (const worker of workers) await worker.start();
    },
    stop: async () => {
      for (const worker of [...workers].reverse()) await worker.stop();
    },
  };
}
