/**
 * The graph layer's pattern detectors, as thresholds over what `graph.facts.ts` reads in one
 * bounded query. Pure: the SQL gathers, these functions decide.
 */

export const PATTERN_TYPES = ['cycle', 'fan_in', 'fan_out', 'shared_device', 'rapid_pass_through'] as const;
export type PatternType = (typeof PATTERN_TYPES)[number];

export interface GraphPattern {
  type: PatternType;
  /** Contribution to the graph layer score (0–100), see `graphScore`. */
  weight: number;
  /** The accounts involved: the cycle's path (first = last), or the hub account. */
  accounts: string[];
  /** Cycle length (transfers in the cycle). */
  length?: number;
  /** Distinct counterparties (fan-in/out) or accounts on the device. */
  count?: number;
  /** Sent / received in the last hour (pass-through). */
  ratio?: number;
  device?: string;
}

export interface DetectorThresholds {
  /** Distinct senders into the receiver within 24 h (this one included). */
  fanIn: number;
  /** Distinct receivers of the sender within 24 h (this one included). */
  fanOut: number;
  /** Distinct accounts on the device within 24 h (this sender included). */
  sharedDevice: number;
  /** Sent (last hour, this one included) / received (last hour) at least… */
  passThroughMin: number;
  /** …and at most (sending much more than was received is the account's own money). */
  passThroughMax: number;
}

export const DEFAULT_THRESHOLDS: DetectorThresholds = { fanIn: 10, fanOut: 10, sharedDevice: 5, passThroughMin: 0.8, passThroughMax: 1.25 };

export const PATTERN_WEIGHTS: Record<PatternType, number> = {
  cycle: 45,
  fan_in: 35,
  fan_out: 30,
  shared_device: 35,
  rapid_pass_through: 35,
};

/** What the facts query found, in plain numbers. */
export interface RawGraphFacts {
  sender: string;
  receiver: string;
  deviceId: string | null;
  cyclePath: string[] | null;
  fanIn: number;
  fanOut: number;
  deviceAccounts: number;
  receivedCount1h: number;
  receivedSum1h: number;
  sentSum1h: number;
  amount: number;
}

export interface DetectedGraph {
  patterns: GraphPattern[];
  passThroughRatio: number;
  passThrough: boolean;
}

export function detectPatterns(f: RawGraphFacts, t: DetectorThresholds = DEFAULT_THRESHOLDS): DetectedGraph {
  const patterns: GraphPattern[] = [];
  if (f.cyclePath && f.cyclePath.length >= 3) {
    patterns.push({ type: 'cycle', weight: PATTERN_WEIGHTS.cycle, accounts: f.cyclePath, length: f.cyclePath.length - 1 });
  }
  if (f.fanIn >= t.fanIn) patterns.push({ type: 'fan_in', weight: PATTERN_WEIGHTS.fan_in, accounts: [f.receiver], count: f.fanIn });
  if (f.fanOut >= t.fanOut) patterns.push({ type: 'fan_out', weight: PATTERN_WEIGHTS.fan_out, accounts: [f.sender], count: f.fanOut });
  if (f.deviceId && f.deviceAccounts >= t.sharedDevice) {
    patterns.push({
      type: 'shared_device',
      weight: PATTERN_WEIGHTS.shared_device,
      accounts: [f.sender],
      count: f.deviceAccounts,
      device: f.deviceId,
    });
  }
  const ratio = f.receivedSum1h > 0 ? (f.sentSum1h + f.amount) / f.receivedSum1h : 0;
  const passThrough = f.receivedCount1h > 0 && ratio >= t.passThroughMin && ratio <= t.passThroughMax;
  if (passThrough) {
    patterns.push({ type: 'rapid_pass_through', weight: PATTERN_WEIGHTS.rapid_pass_through, accounts: [f.sender], ratio: round(ratio, 4) });
  }
  return { patterns, passThroughRatio: round(ratio, 4), passThrough };
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;
