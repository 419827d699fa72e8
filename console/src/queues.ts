import { useEffect, useState } from 'react';
import type { Api } from './api';
import { QUEUE_OPERATIONS, type QueueKind } from './operations';

export interface QueueDefinition {
  kind: QueueKind;
  label: string;
  /** Whether a record (from the list or a feed event) belongs in the queue. */
  holds(node: any): boolean;
  /** When it arrived, for the queue's order (oldest first: first in, first reviewed). */
  since(node: any): string;
  title(node: any): string;
  detail(node: any): string;
}

const reasons = (node: { reasons?: string[] }) => (node.reasons?.length ? node.reasons.join(', ') : 'no reason given');

export const QUEUES: QueueDefinition[] = [
  {
    kind: 'identity',
    label: 'Identities',
    holds: (n) => n.overallStatus === 'MANUAL_REVIEW',
    since: (n) => n.createdAt,
    title: (n) => `${n.userId} · ${n.tier}`,
    detail: reasons,
  },
  {
    kind: 'document',
    label: 'Documents',
    holds: (n) => n.status === 'MANUAL_REVIEW',
    since: (n) => n.createdAt,
    title: (n) => `${n.userId} · ${n.documentType} ${n.documentCountry}`,
    detail: reasons,
  },
  {
    kind: 'address',
    label: 'Addresses',
    holds: (n) => n.status === 'MANUAL_REVIEW',
    since: (n) => n.createdAt,
    title: (n) => `${n.userId} · ${n.documentType}${n.country ? ` ${n.country}` : ''}`,
    detail: reasons,
  },
  {
    kind: 'business',
    label: 'Businesses',
    holds: (n) => n.status === 'MANUAL_REVIEW',
    since: (n) => n.createdAt,
    title: (n) => `${n.businessName} · ${n.country}`,
    detail: reasons,
  },
  {
    kind: 'aml',
    label: 'AML hits',
    holds: (n) => (n.matches ?? []).some((m: { resolution: string }) => m.resolution === 'OPEN'),
    since: (n) => n.createdAt,
    title: (n) => `${n.fullName} · ${n.userId}`,
    detail: (n) =>
      `${n.matches.filter((m: { resolution: string }) => m.resolution === 'OPEN').length} of ${n.matchCount} hits open · ${n.riskLevel} risk`,
  },
  {
    kind: 'alert',
    label: 'Watchlist alerts',
    holds: (n) => n.status === 'OPEN',
    since: (n) => n.detectedAt,
    title: (n) => `${n.match.matchedName} · ${n.userId}`,
    detail: (n) => `${n.match.listName} · score ${n.match.score.toFixed(2)}`,
  },
];

export const queueOf = (kind: string) => QUEUES.find((q) => q.kind === kind);

export interface QueueState {
  items: any[];
  /** How many records are in the queue (beyond the 100 shown when it is longer). */
  total: number;
  loading: boolean;
  error: string | null;
  /** Takes a record out at once (a decision made here); the feed confirms it. */
  drop(id: string): void;
}

/**
 * One queue, live: its first page (the 100 newest, shown oldest first), then the organization's
 * feed: a record that enters is appended below the others (nothing already shown moves), one that
 * leaves is taken out. Events that arrive before the page are kept; after a reconnection the page
 * is read again (events of the gap were missed).
 */
export function useQueue(api: Api, queue: QueueDefinition): QueueState {
  const [state, setState] = useState<{ items: any[]; hidden: number; loading: boolean; error: string | null }>({
    items: [],
    hidden: 0,
    loading: true,
    error: null,
  });

  useEffect(() => {
    let live = true;
    // what the feed said about records before the page arrived
    const seen = new Map<string, any>();
    let loaded = false;

    const apply = (node: any) => {
      setState((s) => {
        const at = s.items.findIndex((item) => item.id === node.id);
        if (!queue.holds(node)) return at < 0 ? s : { ...s, items: s.items.filter((item) => item.id !== node.id) };
        if (at >= 0) return { ...s, items: s.items.map((item) => (item.id === node.id ? node : item)) };
        return { ...s, items: [...s.items, node] };
      });
    };

    const load = async () => {
      try {
        const { queue: page } = await api.request(QUEUE_OPERATIONS[queue.kind].list);
        if (!live) return;
        const oldestFirst = [...page.nodes].reverse();
        for (const [id, node] of seen) {
          const at = oldestFirst.findIndex((n) => n.id === id);
          if (at >= 0) oldestFirst.splice(at, 1);
          if (queue.holds(node)) oldestFirst.push(node);
        }
        seen.clear();
        loaded = true;
        oldestFirst.sort((a, b) => queue.since(a).localeCompare(queue.since(b)));
        setState({ items: oldestFirst, hidden: page.totalCount - page.nodes.length, loading: false, error: null });
      } catch (error) {
        if (live) setState((s) => ({ ...s, loading: false, error: (error as Error).message }));
      }
    };

    const stop = api.subscribe(
      QUEUE_OPERATIONS[queue.kind].feed,
      ({ event }) => {
        if (!loaded) seen.set(event.node.id, event.node);
        else apply(event.node);
      },
      (error) => live && setState((s) => ({ ...s, error: error.message })),
    );
    const stopReconnect = api.onReconnect(() => {
      loaded = false;
      void load();
    });
    void load();
    return () => {
      live = false;
      stop();
      stopReconnect();
    };
  }, [api, queue]);

  return {
    items: state.items,
    total: state.items.length + state.hidden,
    loading: state.loading,
    error: state.error,
    drop: (id) => setState((s) => ({ ...s, items: s.items.filter((item) => item.id !== id) })),
  };
}
