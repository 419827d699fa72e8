import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import type { Api, UserError } from './api';
import { CASE_AUDIT, USER_SIGNALS } from './operations';

export const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : '—');
export const score = (value: number | null | undefined) => (value == null ? '—' : value.toFixed(2));
export const yesNo = (value: boolean | null | undefined) => (value == null ? '—' : value ? 'yes' : 'no');

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="section" aria-label={title}>
      <h3>{title}</h3>
      {children}
    </section>
  );
}

/** Label/value pairs; empty values show as a dash. */
export function Fields({ rows }: { rows: Array<[string, ReactNode]> }) {
  return (
    <dl className="fields">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value === null || value === undefined || value === '' ? '—' : value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A status in a colour that says how it ends. */
export function Status({ value }: { value: string }) {
  const tone = /VERIFIED|PASSED|CLEAR|DISMISSED|FALSE_POSITIVE|ALLOW/.test(value)
    ? 'good'
    : /REJECTED|FAILED|BLOCK|CONFIRMED|TRUE_POSITIVE|HIGH|CRITICAL/.test(value)
      ? 'bad'
      : 'warn';
  return <span className={`status ${tone}`}>{value.replace(/_/g, ' ')}</span>;
}

/**
 * A document image or selfie, read from `/files/<id>` with the reviewer's credential (the API
 * serves it to the owning organization only). Its box has a fixed size: nothing moves when it loads.
 */
export function FileImage({ api, path, label }: { api: Api; path: string | null | undefined; label: string }) {
  const [state, setState] = useState<{ url?: string; error?: string }>({});
  useEffect(() => {
    if (!path) return;
    let url: string | undefined;
    let live = true;
    api.file(path).then(
      (u) => {
        url = u;
        if (live) setState({ url: u });
        else URL.revokeObjectURL(u);
      },
      (error: Error) => live && setState({ error: error.message }),
    );
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
      setState({});
    };
  }, [api, path]);
  return (
    <figure className="file-image">
      <div className="frame">
        {!path ? (
          <span className="muted">none</span>
        ) : state.url ? (
          <img src={state.url} alt={label} />
        ) : (
          <span className="muted">{state.error ?? 'Loading…'}</span>
        )}
      </div>
      <figcaption>{label}</figcaption>
    </figure>
  );
}

export interface TimelineEntry {
  at: string | null | undefined;
  what: string;
}

/** The record's dated steps and the events seen live while the case is open, in time order. */
export function Timeline({ entries }: { entries: TimelineEntry[] }) {
  const dated = entries.filter((e): e is { at: string; what: string } => !!e.at).sort((a, b) => a.at.localeCompare(b.at));
  return (
    <ol className="timeline">
      {dated.map((e, i) => (
        <li key={i}>
          <time dateTime={e.at}>{when(e.at)}</time> {e.what}
        </li>
      ))}
    </ol>
  );
}

/** A screening hit: the list entry and why it matched (name parts and qualifiers). */
export function HitExplanation({ hit, explanation }: { hit: any; explanation?: any }) {
  return (
    <div className="hit">
      <Fields
        rows={[
          ['Matched name', hit.matchedName],
          ['Primary name', hit.primaryName],
          ['List', `${hit.listName} (${hit.kind}, version ${hit.listVersion})`],
          ['Programs', hit.programs.join(', ')],
          ['Score', score(hit.score)],
          ['Entity', `${hit.entityType} ${hit.externalId}`],
        ]}
      />
      {explanation && (
        <table className="explanation">
          <caption>Name score {score(explanation.nameScore)}: how each part matched</caption>
          <thead>
            <tr>
              <th scope="col">Part</th>
              <th scope="col">Matched</th>
              <th scope="col">How</th>
              <th scope="col">Score</th>
            </tr>
          </thead>
          <tbody>
            {explanation.tokens.map((t: any, i: number) => (
              <tr key={i}>
                <td>{t.query}</td>
                <td>{t.matched ?? '—'}</td>
                <td>{t.how}</td>
                <td>{score(t.score)}</td>
              </tr>
            ))}
            {explanation.qualifiers.map((q: any, i: number) => (
              <tr key={`q${i}`}>
                <td colSpan={3}>
                  {q.kind}: {q.detail}
                </td>
                <td>{q.effect >= 0 ? `+${score(q.effect)}` : score(q.effect)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

/** The person's latest device and IP assessments (their own query: a key without `intelligence` still sees the case). */
export function Signals({ api, userId }: { api: Api; userId: string }) {
  const [state, setState] = useState<{ user?: any; error?: string }>({});
  useEffect(() => {
    let live = true;
    api.request(USER_SIGNALS, { userId }).then(
      (data) => live && setState({ user: data.user }),
      (error: Error) => live && setState({ error: error.message }),
    );
    return () => {
      live = false;
    };
  }, [api, userId]);
  if (state.error) return <p className="muted">Device and IP signals unavailable: {state.error}</p>;
  if (!state.user) return <p className="muted">Loading…</p>;
  const devices = state.user.deviceAssessments.nodes;
  const ips = state.user.ipAnalyses.nodes;
  if (!devices.length && !ips.length) return <p className="muted">No device or IP assessment for this user.</p>;
  return (
    <div className="signals">
      {devices.map((d: any) => (
        <Fields
          key={d.id}
          rows={[
            ['Device', `${d.deviceId} · ${[d.device.browser, d.device.os, d.device.deviceType].filter(Boolean).join(', ')}`],
            ['Device risk', <Status key="r" value={`${d.riskLevel}`} />],
            ['Seen from', [d.ip, d.location?.city, d.location?.countryName, d.location?.isp].filter(Boolean).join(' · ')],
            [
              'Flags',
              Object.entries(d.signals)
                .filter(([k, v]) => v === true || (k === 'multipleAccounts' && (v as number) > 1))
                .map(([k, v]) => (v === true ? k : `${k} ${v}`))
                .join(', ') || 'none',
            ],
            ['Why', d.reasons.map((r: any) => r.detail).join('; ') || 'nothing notable'],
          ]}
        />
      ))}
      {ips.map((ip: any) => (
        <Fields
          key={ip.id}
          rows={[
            ['IP', `${ip.ip} · ${[ip.geolocation.city, ip.geolocation.countryName].filter(Boolean).join(', ')}`],
            ['IP risk', <Status key="r" value={`${ip.riskLevel}`} />],
            ['Network', [ip.network.isp, ip.network.asn, ip.network.connectionType].filter(Boolean).join(' · ')],
            [
              'Threats',
              Object.entries(ip.threats)
                .filter(([, v]) => v === true)
                .map(([k]) => k.replace(/^is/, ''))
                .join(', ') || 'none',
            ],
          ]}
        />
      ))}
    </div>
  );
}

/** What an audit entry says happened, in words. */
function auditWhat(e: any): string {
  const d = e.details ?? {};
  const record = e.resourceType.replace(/_/g, ' ');
  switch (e.action) {
    case 'FILE_VIEWED':
      return `Viewed the ${String(d.role ?? 'file').replace(/_/g, ' ')} of a ${record}`;
    case 'AML_MATCH_RESOLVED':
      return `Resolved an AML hit: ${String(d.resolution ?? '').replace(/_/g, ' ')}`;
    default:
      if (e.action.endsWith('_REVIEWED')) return `Decided the ${record}: ${String(d.decision ?? d.status ?? '').replace(/_/g, ' ')}`;
      return `${e.action.replace(/_/g, ' ').toLowerCase()} (${record})`;
  }
}

/**
 * The case's audit trail (newest first): each view of its images and each decision, with the key or
 * session used and the reviewer named. Read again when a file is viewed here and when `version`
 * changes (the record changed).
 */
export function AuditTrail({ api, filter, version }: { api: Api; filter: { userId: string } | { resourceId: string }; version: number }) {
  const [state, setState] = useState<{ trail?: any; error?: string }>({});
  const [viewed, setViewed] = useState(0);
  useEffect(() => api.onFileViewed(() => setViewed((n) => n + 1)), [api]);
  const key = JSON.stringify(filter);
  useEffect(() => {
    let live = true;
    api.request(CASE_AUDIT, { filter: JSON.parse(key) }).then(
      (data) => live && setState({ trail: data.trail }),
      (error: Error) => live && setState({ error: error.message }),
    );
    return () => {
      live = false;
    };
  }, [api, key, version, viewed]);
  if (state.error) return <p className="muted">Audit trail unavailable: {state.error}</p>;
  if (!state.trail) return <p className="muted">Loading…</p>;
  if (!state.trail.nodes.length) return <p className="muted">Nothing recorded yet.</p>;
  return (
    <table className="audit">
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">What</th>
          <th scope="col">Who</th>
        </tr>
      </thead>
      <tbody>
        {state.trail.nodes.map((e: any) => (
          <tr key={e.id} data-action={e.action}>
            <td>
              <time dateTime={e.occurredAt}>{when(e.occurredAt)}</time>
            </td>
            <td>{auditWhat(e)}</td>
            <td>
              {[
                e.reviewer,
                e.actor.clientName ?? e.actor.kind.toLowerCase(),
                e.actor.sessionUserId && `session of ${e.actor.sessionUserId}`,
              ]
                .filter(Boolean)
                .join(' · ')}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** What went wrong, in the API's words (nothing when there is nothing). */
export function Errors({ messages }: { messages: Array<string | null | undefined> | string | null | undefined }) {
  const list = [messages].flat().filter((m): m is string => !!m);
  if (!list.length) return null;
  return (
    <ul className="errors" role="alert">
      {list.map((m, i) => (
        <li key={i}>{m}</li>
      ))}
    </ul>
  );
}

export interface DecisionOption {
  value: string;
  label: string;
  tone: 'good' | 'bad';
}

/**
 * A decision with its mandatory notes: the buttons stay disabled until notes are written. The
 * API's user errors are shown under the form; Ctrl+Enter in the notes is the first option.
 */
export function DecisionForm({
  options,
  notesLabel = 'Notes (required)',
  onDecide,
  disabled,
  autoFocus,
}: {
  options: DecisionOption[];
  notesLabel?: string;
  onDecide: (value: string, notes: string) => Promise<UserError[]>;
  disabled?: boolean;
  autoFocus?: boolean;
}) {
  const [notes, setNotes] = useState('');
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const id = useId();
  const ref = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (autoFocus) ref.current?.focus();
  }, [autoFocus]);
  const ready = notes.trim().length > 0 && !busy && !disabled;
  const decide = async (value: string) => {
    if (!ready) return;
    setBusy(true);
    setErrors([]);
    try {
      const userErrors = await onDecide(value, notes.trim());
      setErrors(userErrors.map((e) => e.message));
    } catch (error) {
      setErrors([(error as Error).message]);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="decision" onSubmit={(e) => e.preventDefault()}>
      <label htmlFor={id}>{notesLabel}</label>
      <textarea
        id={id}
        ref={ref}
        data-decision-notes
        value={notes}
        rows={3}
        required
        disabled={disabled}
        onChange={(e) => setNotes(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void decide(options[0]!.value);
        }}
      />
      <div className="buttons">
        {options.map((o) => (
          <button key={o.value} type="button" className={o.tone} disabled={!ready} onClick={() => void decide(o.value)}>
            {o.label}
          </button>
        ))}
        <span className="hint" aria-live="polite">
          {notes.trim() ? '' : 'Write a note to decide.'}
        </span>
      </div>
      <Errors messages={errors} />
    </form>
  );
}
