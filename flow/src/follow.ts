import type { ApiError, FlowApi } from './api';

/**
 * Follows one check live: its `…Updated(id)` subscription, and a read of the record when it
 * starts and after the live connection comes back (events of a gap are not replayed). A check
 * decided between its creation and the subscription's start is caught by that first read; the
 * read is repeated after `GUARD_MS` without news, for the rare event that lands between the read
 * and the subscription being served.
 */
export const GUARD_MS = 10_000;

export interface Follow<T> {
  api: FlowApi;
  id: string;
  query: string;
  subscription: string;
  /** The query's root field; the subscription's is `<field>Updated`. */
  field: string;
  onNode(node: T): void;
  onError(error: ApiError): void;
  /** Whether `node` is final: following stops there. */
  final(node: T): boolean;
}

export function follow<T>({ api, id, query, subscription, field, onNode, onError, final }: Follow<T>): () => void {
  let done = false;
  let guard: ReturnType<typeof setTimeout> | undefined;
  const seen = (node: T | null | undefined) => {
    if (done || !node) return;
    onNode(node);
    if (final(node)) stop();
    else rearm();
  };
  const read = () => {
    api.request<Record<string, T | null>>(query, { id }).then((data) => seen(data[field]), onError);
  };
  const rearm = () => {
    clearTimeout(guard);
    guard = setTimeout(read, GUARD_MS);
  };
  const unsubscribe = api.subscribe<Record<string, { node: T }>>(
    subscription,
    { id },
    (data) => seen(data[`${field}Updated`]?.node),
    onError,
  );
  const offReconnect = api.onReconnect(read);
  read();
  function stop() {
    done = true;
    clearTimeout(guard);
    unsubscribe();
    offReconnect();
  }
  return stop;
}
