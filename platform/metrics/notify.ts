import { gauge, makeGauge, type Metric } from './metric.js';

/** The notification dispatch queue (notify.deliveries: each channel of an accepted notification until it is sent or fails). */
export const NOTIFY_METRICS = {
  queued: gauge(
    'notify_deliveries_queued',
    'Channels of accepted notifications not yet sent, by state: due (waiting for a dispatcher), sending (claimed by one), scheduled (a retry waiting for its time)',
    ['state'],
  ),
  oldestDue: gauge(
    'notify_deliveries_oldest_due_age_seconds',
    'How late the oldest due channel no dispatcher holds is (0 when none is late)',
    [],
  ),
};

export interface NotifyQueueReading {
  due: number;
  sending: number;
  scheduled: number;
  oldestDueSeconds: number;
}

/** The gauges, from a reading taken at scrape time (null: the database could not be read, so no series and NaN). */
export function notifyQueueMetrics(read: () => Promise<NotifyQueueReading | null>): Metric[] {
  return [
    makeGauge(NOTIFY_METRICS.queued, async (g) => {
      const reading = await read();
      g.reset();
      if (reading) for (const state of ['due', 'sending', 'scheduled'] as const) g.set({ state }, reading[state]);
    }),
    makeGauge(NOTIFY_METRICS.oldestDue, async (g) => {
      const reading = await read();
      g.set(reading ? reading.oldestDueSeconds : NaN);
    }),
  ];
}
