import { useEffect, useMemo, useRef, useState, type FormEvent, type RefObject } from 'react';
import { Api } from './api';
import { CaseView } from './CaseView';
import { Errors } from './components';
import { QUEUES, queueOf, useQueue, type QueueState } from './queues';
import { RiskView } from './RiskView';
import { clearSession, readSession, saveSession, type Session } from './session';

export function App() {
  const [session, setSession] = useState<Session | null>(readSession);
  if (!session) return <SignIn onSignIn={setSession} />;
  return (
    <Console
      session={session}
      onSignOut={() => {
        clearSession();
        setSession(null);
      }}
    />
  );
}

/** The key (or session token) is tried once before it is kept, in this tab's sessionStorage only. */
function SignIn({ onSignIn }: { onSignIn: (session: Session) => void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const session = { credential: String(form.get('credential')).trim(), reviewer: String(form.get('reviewer')).trim() };
    setBusy(true);
    setError(null);
    const api = new Api(session.credential);
    try {
      await api.request('query SignIn { __typename }');
      saveSession(session);
      onSignIn(session);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      api.close();
      setBusy(false);
    }
  };
  return (
    <main className="sign-in">
      <form onSubmit={submit} aria-label="Sign in">
        <h1>Review console</h1>
        <p>
          Sign in with an API key that has review permissions (or a session token). It is kept in this tab only, until you close it or sign
          out.
        </p>
        <label>
          API key or session token
          <input name="credential" type="password" autoComplete="off" required autoFocus />
        </label>
        <label>
          Your name (recorded with each decision)
          <input name="reviewer" autoComplete="name" required />
        </label>
        <button type="submit" className="good" disabled={busy}>
          Sign in
        </button>
        <Errors messages={error} />
      </form>
    </main>
  );
}

type Route = { view: 'queue'; kind: string; id: string | null } | { view: 'risk' };

function parseRoute(hash: string): Route {
  const [view, kind, id] = hash.replace(/^#\/?/, '').split('/');
  if (view === 'risk') return { view: 'risk' };
  return { view: 'queue', kind: queueOf(kind ?? '') ? kind! : QUEUES[0]!.kind, id: id ? decodeURIComponent(id) : null };
}

const go = (hash: string) => {
  if (location.hash !== hash) location.hash = hash;
};

function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

const SHORTCUTS: Array<[string, string]> = [
  ['1 – 6', 'Open a queue (identities, documents, addresses, businesses, AML hits, watchlist alerts)'],
  ['7 or r', 'Risk view'],
  ['j / k', 'Next / previous item of the queue (opens it)'],
  ['n', 'Write the decision notes of the open item'],
  ['Ctrl+Enter', 'In the notes: the first decision (verify, dismiss)'],
  ['Esc', 'Back to the queue list; close this help'],
  ['?', 'This help'],
];

function Console({ session, onSignOut }: { session: Session; onSignOut: () => void }) {
  const api = useMemo(() => new Api(session.credential), [session.credential]);
  useEffect(() => () => api.close(), [api]);
  // one hook per queue, always in the same order (QUEUES is constant): every count stays live
  const queues = QUEUES.map((q) => ({ definition: q, state: useQueue(api, q) }));
  const route = useRoute();
  const [help, setHelp] = useState(false);
  const list = useRef<HTMLOListElement>(null);
  const current = route.view === 'queue' ? queues.find((q) => q.definition.kind === route.kind)! : null;

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setHelp(false);
        (list.current?.querySelector('[aria-current="true"]') as HTMLElement | null)?.focus();
        return;
      }
      const target = e.target as HTMLElement;
      if (e.ctrlKey || e.metaKey || e.altKey || target.closest('input, textarea, select, [contenteditable]')) return;
      const number = Number(e.key);
      if (number >= 1 && number <= QUEUES.length) go(`#/queue/${QUEUES[number - 1]!.kind}`);
      else if (e.key === '7' || e.key === 'r') go('#/risk');
      else if (e.key === '?') setHelp((h) => !h);
      else if ((e.key === 'j' || e.key === 'k') && current && route.view === 'queue') {
        const items = current.state.items;
        if (!items.length) return;
        const at = items.findIndex((item) => item.id === route.id);
        const next = e.key === 'j' ? Math.min(items.length - 1, at + 1) : Math.max(0, at < 0 ? 0 : at - 1);
        go(`#/queue/${route.kind}/${encodeURIComponent(items[next].id)}`);
      } else if (e.key === 'n') {
        const notes = document.querySelector<HTMLTextAreaElement>('[data-decision-notes]:not(:disabled)');
        if (notes) {
          e.preventDefault();
          notes.focus();
        }
      } else return;
      e.preventDefault();
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  });

  return (
    <div className="console">
      <header className="top">
        <span className="brand">Review console</span>
        <nav aria-label="Views">
          {queues.map(({ definition, state }, i) => (
            <a
              key={definition.kind}
              href={`#/queue/${definition.kind}`}
              aria-current={current?.definition.kind === definition.kind ? 'page' : undefined}
              aria-keyshortcuts={String(i + 1)}
            >
              {definition.label} <span className="count">{state.loading ? '…' : state.total}</span>
            </a>
          ))}
          <a href="#/risk" aria-current={route.view === 'risk' ? 'page' : undefined} aria-keyshortcuts="7 r">
            Risk
          </a>
        </nav>
        <span className="who">
          {session.reviewer}
          <button type="button" onClick={() => setHelp(true)} aria-keyshortcuts="?">
            Shortcuts
          </button>
          <button type="button" onClick={onSignOut}>
            Sign out
          </button>
        </span>
      </header>
      {route.view === 'risk' ? (
        <main className="main single">
          <RiskView api={api} />
        </main>
      ) : (
        <main className={`main ${route.id ? 'has-case' : ''}`}>
          <QueueList queue={current!} selected={route.id} listRef={list} />
          <div className="case-pane">
            {route.id ? (
              <>
                <a className="back" href={`#/queue/${route.kind}`}>
                  ← Back to the queue
                </a>
                <CaseView
                  key={`${route.kind}/${route.id}`}
                  api={api}
                  kind={current!.definition.kind}
                  id={route.id}
                  reviewer={session.reviewer}
                  inQueue={current!.state.items.some((item) => item.id === route.id)}
                  onDecided={(id) => current!.state.drop(id)}
                />
              </>
            ) : (
              <p className="muted empty-case">Open an item of the queue (click it, or press j).</p>
            )}
          </div>
        </main>
      )}
      {help && (
        <div className="help" role="dialog" aria-modal="true" aria-label="Keyboard shortcuts">
          <h2>Keyboard shortcuts</h2>
          <dl>
            {SHORTCUTS.map(([keys, what]) => (
              <div key={keys}>
                <dt>
                  <kbd>{keys}</kbd>
                </dt>
                <dd>{what}</dd>
              </div>
            ))}
          </dl>
          <button type="button" autoFocus onClick={() => setHelp(false)}>
            Close
          </button>
        </div>
      )}
    </div>
  );
}

function QueueList({
  queue,
  selected,
  listRef,
}: {
  queue: { definition: (typeof QUEUES)[number]; state: QueueState };
  selected: string | null;
  listRef: RefObject<HTMLOListElement>;
}) {
  const { definition, state } = queue;
  return (
    <section className="queue" aria-label={`${definition.label} queue`}>
      <h2>
        {definition.label} <span className="count">{state.loading ? '…' : state.total}</span>
      </h2>
      <Errors messages={state.error} />
      <ol ref={listRef} className="items">
        {state.items.map((item) => (
          <li key={item.id} data-id={item.id}>
            <a
              className="row"
              href={`#/queue/${definition.kind}/${encodeURIComponent(item.id)}`}
              aria-current={item.id === selected ? 'true' : undefined}
            >
              <span className="row-main">
                <span className="row-title">{definition.title(item)}</span>
                <span className="row-detail">{definition.detail(item)}</span>
              </span>
              <time className="row-time" dateTime={definition.since(item)}>
                {new Date(definition.since(item)).toLocaleTimeString()}
              </time>
            </a>
          </li>
        ))}
      </ol>
      {!state.loading && state.items.length === 0 && <p className="muted">Nothing to review. New items appear here as they arrive.</p>}
      {state.total > state.items.length && (
        <p className="muted">
          The {state.items.length} newest of {state.total} are shown.
        </p>
      )}
    </section>
  );
}
