import type { Tenant } from '../../../../platform/auth/tenant.js';

/**
 * Everything the rules and the graph detectors need about a transaction's neighbourhood, before
 * the transaction is recorded (`TenantGraph.neighbourhood`):
 * - velocity counters (per-minute buckets) for the sender, the receiver, the sender as a receiver,
 *   the device and the pair;
 * - distinct counterparties (fan-in/fan-out), devices and IPs: the most recent `scanCap` edges;
 * - cycles of length 2–5 closed by sender → receiver within the cycle window: meet in the middle
 *   (2 hops forward from the receiver, 2 hops backward from the sender), each node expanding at
 *   most `degreeCap` of its most recent edges — at most 4·degreeCap² nodes, whatever the graph.
 */

export interface FactsQuery {
  tenant: Tenant;
  sender: string;
  receiver: string;
  currency: string;
  deviceId: string | null;
  ip: string | null;
  now: Date;
  cycleWindowHours: number;
  degreeCap: number;
  /** Edges read per node when counting distinct counterparties. */
  scanCap: number;
}

export interface Counter {
  count1h: number;
  sum1h: number;
  count24h: number;
  sum24h: number;
}

export interface Profile {
  account_id: string;
  full_name: string;
  date_of_birth: string | null;
  nationality: string | null;
}

export interface NeighbourhoodFacts {
  sender: Counter;
  senderAsReceiver: Counter;
  receiver: Counter;
  device: Counter;
  pair: Counter;
  senderKnown: boolean;
  receiverKnown: boolean;
  /** Distinct senders into the receiver in 24 h (before this transaction) and whether the sender is one. */
  fanInBefore: number;
  fanInHasSender: boolean;
  fanOutBefore: number;
  fanOutHasReceiver: boolean;
  deviceAccounts24h: number;
  deviceSenderActive24h: boolean;
  deviceUsedBySender: boolean;
  ipAccounts24h: number;
  ipSenderActive24h: boolean;
  /** Shortest cycle closed by this transfer: [sender, receiver, …, sender], or null. */
  cyclePath: string[] | null;
  nodesTraversed: number;
  profiles: Profile[];
}
