/**
 * The graph as Cypher sees it, mapped onto the risk schema's tables. Every table carries
 * (organization_id, environment): the compiler adds both to every table it reads.
 */

export const LABELS = ['Account', 'Device', 'IP'] as const;
export type Label = (typeof LABELS)[number];
export const REL_TYPES = ['SENT', 'USED', 'FROM_IP'] as const;
export type RelType = (typeof REL_TYPES)[number];

export type ValueType = 'string' | 'integer' | 'number' | 'boolean' | 'datetime' | 'list' | 'null' | 'any';

export interface LabelTable {
  table: string;
  /** key column */
  key: string;
  /** the node's one property (its key) */
  property: 'id' | 'address';
}

export const NODE_TABLES: Record<Label, LabelTable> = {
  Account: { table: 'risk.accounts', key: 'id', property: 'id' },
  Device: { table: 'risk.devices', key: 'id', property: 'id' },
  IP: { table: 'risk.ips', key: 'address', property: 'address' },
};

export interface RelProperty {
  column: string;
  type: ValueType;
  /** SQL cast for the NULL placeholder in unions */
  sqlType: string;
}

export interface RelTable {
  table: string;
  src: string;
  dst: string;
  srcLabel: Label;
  dstLabel: Label;
  /** unprefixed identity of an edge (the table's key within the tenant) */
  pk: (alias: string) => string;
  /** prefix of the edge identity used across types */
  prefix: string;
  properties: Record<string, RelProperty>;
}

const seen = {
  first_seen: { column: 'first_seen_at', type: 'datetime', sqlType: 'timestamptz' },
  last_seen: { column: 'last_seen_at', type: 'datetime', sqlType: 'timestamptz' },
  uses: { column: 'uses', type: 'integer', sqlType: 'integer' },
} satisfies Record<string, RelProperty>;

export const REL_TABLES: Record<RelType, RelTable> = {
  SENT: {
    table: 'risk.transfers',
    src: 'sender',
    dst: 'receiver',
    srcLabel: 'Account',
    dstLabel: 'Account',
    pk: (a) => `${a}.transaction_id`,
    prefix: 'S',
    properties: {
      transaction_id: { column: 'transaction_id', type: 'string', sqlType: 'text' },
      amount: { column: 'amount', type: 'number', sqlType: 'float8' },
      currency: { column: 'currency', type: 'string', sqlType: 'text' },
      channel: { column: 'channel', type: 'string', sqlType: 'text' },
      at: { column: 'at', type: 'datetime', sqlType: 'timestamptz' },
    },
  },
  USED: {
    table: 'risk.account_devices',
    src: 'account_id',
    dst: 'device_id',
    srcLabel: 'Account',
    dstLabel: 'Device',
    pk: (a) => `(${a}.account_id || '|' || ${a}.device_id)`,
    prefix: 'U',
    properties: seen,
  },
  FROM_IP: {
    table: 'risk.account_ips',
    src: 'account_id',
    dst: 'address',
    srcLabel: 'Account',
    dstLabel: 'IP',
    pk: (a) => `(${a}.account_id || '|' || ${a}.address)`,
    prefix: 'I',
    properties: seen,
  },
};

/** Every relationship property name across types, with its type (for unions). */
export const ALL_REL_PROPERTIES: Record<string, RelProperty> = Object.assign({}, ...REL_TYPES.map((t) => REL_TABLES[t].properties));

/** Tables a graph query may read (for nodes_scanned). */
export const GRAPH_TABLES = ['accounts', 'devices', 'ips', 'transfers', 'account_devices', 'account_ips'];
