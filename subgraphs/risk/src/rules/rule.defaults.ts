import type { RuleAction, RuleSeverity } from './rule.entity.js';

export interface RuleDefinition {
  id: string;
  name: string;
  description: string;
  condition: string;
  action: RuleAction;
  severity: RuleSeverity;
  enabled: boolean;
}

/**
 * The default rule set for mobile-money fraud, seeded into each tenant (organization +
 * environment) the first time it uses the rules or evaluates; from then on the tenant owns them
 * (edit, disable, version history). Documented in docs/api/risk.md.
 */
export const DEFAULT_RULES: readonly RuleDefinition[] = [
  {
    id: 'velocity_burst',
    name: 'Velocity burst',
    description: 'The sender already made 5 or more transfers in the last hour',
    condition: 'sender.count_1h >= 5',
    action: 'review',
    severity: 'medium',
    enabled: true,
  },
  {
    id: 'velocity_burst_extreme',
    name: 'Extreme velocity burst',
    description: 'The sender already made 15 or more transfers in the last hour (bot or account takeover)',
    condition: 'sender.count_1h >= 15',
    action: 'block',
    severity: 'high',
    enabled: true,
  },
  {
    id: 'structuring_below_threshold',
    name: 'Structuring just below the reporting threshold',
    description:
      "An amount between 80% and 100% of the currency's reporting threshold, and together with the sender's last 24 hours it crosses the threshold",
    condition:
      'txn.amount >= 0.8 * reporting_threshold(txn.currency) && txn.amount < reporting_threshold(txn.currency) && sender.sum_24h + txn.amount >= reporting_threshold(txn.currency)',
    action: 'review',
    severity: 'high',
    enabled: true,
  },
  {
    id: 'new_device_large_transfer',
    name: 'Large transfer from a new device',
    description: 'A known sender moves at least 30% of the reporting threshold from a device it never used before',
    condition: '!sender.is_new && device.present && device.new_for_sender && txn.amount >= 0.3 * reporting_threshold(txn.currency)',
    action: 'review',
    severity: 'high',
    enabled: true,
  },
  {
    id: 'mule_fan_in',
    name: 'Fan-in to a mule account',
    description: 'The receiver collected from 10 or more distinct senders in 24 hours',
    condition: 'graph.fan_in_24h >= 10',
    action: 'review',
    severity: 'high',
    enabled: true,
  },
  {
    id: 'mule_pass_through',
    name: 'Rapid pass-through',
    description: 'The sender forwards what it just received (80% or more within the hour) to several payees',
    condition: 'graph.pass_through && sender.received_count_1h >= 1 && graph.fan_out_24h >= 3',
    action: 'review',
    severity: 'high',
    enabled: true,
  },
  {
    id: 'round_trip_cycle',
    name: 'Round-tripping',
    description: 'The transfer closes a cycle of 2–5 transfers (funds return to where they came from)',
    condition: 'graph.in_cycle',
    action: 'review',
    severity: 'medium',
    enabled: true,
  },
  {
    id: 'shared_device_many_accounts',
    name: 'Device shared by many accounts',
    description: 'The device was used by 5 or more accounts in 24 hours (SIM-swap farms, agent misuse)',
    condition: 'device.present && device.distinct_accounts_24h >= 5',
    action: 'review',
    severity: 'medium',
    enabled: true,
  },
  {
    id: 'new_account_large_transfer',
    name: 'Large first transfer',
    description: 'A never-seen sender starts with at least half of the reporting threshold',
    condition: 'sender.is_new && txn.amount >= 0.5 * reporting_threshold(txn.currency)',
    action: 'review',
    severity: 'medium',
    enabled: true,
  },
];
