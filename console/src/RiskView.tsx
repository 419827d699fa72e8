import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { Api } from './api';
import { Errors, Fields, Section, Status, score, when } from './components';
import { RISK_FEED, RULES } from './operations';

/**
 * The risk view: a live feed of REVIEW and BLOCK evaluations with their reasons (oldest at the
 * top, each new one appended below, in a box of fixed height), and the rules with an editor whose
 * condition is checked by the API as it is typed.
 */
export function RiskView({ api }: { api: Api }) {
  return (
    <div className="risk">
      <RiskFeed api={api} />
      <Rules api={api} />
    </div>
  );
}

function RiskFeed({ api }: { api: Api }) {
  const [items, setItems] = useState<any[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const box = useRef<HTMLOListElement>(null);
  const following = useRef(true);

  useEffect(() => {
    let live = true;
    const seen: any[] = [];
    let loaded = false;
    const add = (node: any) => setItems((list) => (list.some((e) => e.id === node.id) ? list : [...list, node].slice(-200)));
    const onEvent = ({ event }: any) => (loaded ? add(event.node) : seen.push(event.node));
    const onError = (e: Error) => live && setError(e.message);
    const stops = [api.subscribe(RISK_FEED.reviewFeed, onEvent, onError), api.subscribe(RISK_FEED.blockFeed, onEvent, onError)];
    Promise.all([api.request(RISK_FEED.review), api.request(RISK_FEED.block)]).then(([review, block]) => {
      if (!live) return;
      const all = new Map([...review.list.nodes, ...block.list.nodes, ...seen].map((n: any) => [n.id, n]));
      setItems([...all.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt)).slice(-100));
      loaded = true;
    }, onError);
    return () => {
      live = false;
      stops.forEach((stop) => stop());
    };
  }, [api]);

  // the box keeps its size; scrolled to the end, it follows new evaluations
  useLayoutEffect(() => {
    if (box.current && following.current) box.current.scrollTop = box.current.scrollHeight;
  }, [items]);

  const [chosen, setChosen] = useState<any>(null);
  useEffect(() => {
    if (!selected) return;
    let live = true;
    api.request(RISK_FEED.one, { id: selected }).then(
      (data) => live && setChosen(data.evaluation),
      (e: Error) => live && setError(e.message),
    );
    return () => {
      live = false;
    };
  }, [api, selected]);
  return (
    <Section title="Live feed: review and block">
      <Errors messages={error} />
      <ol
        className="feed"
        ref={box}
        aria-label="Risk evaluations"
        onScroll={(e) => {
          const el = e.currentTarget;
          following.current = el.scrollTop + el.clientHeight >= el.scrollHeight - 4;
        }}
      >
        {items.map((e) => (
          <li key={e.id}>
            <button type="button" className="row" aria-pressed={e.id === selected} onClick={() => setSelected(e.id)}>
              <Status value={e.action} />
              <span className="row-main">
                <span className="row-title">
                  {e.transactionId} · {e.transaction.amount} {e.transaction.currency} · score {score(e.score)}
                </span>
                <span className="row-detail">{e.reasons.join(' · ') || 'no reason'}</span>
              </span>
            </button>
          </li>
        ))}
        {items.length === 0 && <li className="muted">No review or block evaluation yet.</li>}
      </ol>
      {chosen && (
        <div className="evaluation" aria-label="Evaluation">
          <Fields
            rows={[
              ['Transaction', `${chosen.transactionId}: ${chosen.transaction.sender.id} → ${chosen.transaction.receiver.id}`],
              ['When', when(chosen.createdAt)],
              ['Score', `${score(chosen.score)}${chosen.mock ? ' (sandbox mock)' : ''}`],
              ['Rules fired', chosen.rulesFired.map((r: any) => `${r.name} (${r.action}, ${r.severity}, v${r.version})`).join('; ')],
              ['Rule errors', chosen.ruleErrors.map((r: any) => `${r.id}: ${r.message}`).join('; ')],
              [
                'Sanctions',
                chosen.sanctionsHits.map((h: any) => `${h.party} ${h.name} ~ ${h.hit.matchedName} (${h.hit.listName})`).join('; '),
              ],
            ]}
          />
          <ul>
            {chosen.reasons.map((r: string, i: number) => (
              <li key={i}>{r}</li>
            ))}
          </ul>
        </div>
      )}
    </Section>
  );
}

interface Draft {
  id: string;
  name: string;
  description: string;
  condition: string;
  action: string;
  severity: string;
  enabled: boolean;
}

const EMPTY: Draft = { id: '', name: '', description: '', condition: '', action: 'REVIEW', severity: 'MEDIUM', enabled: true };

function Rules({ api }: { api: Api }) {
  const [rules, setRules] = useState<any[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [draft, setDraft] = useState<(Draft & { isNew: boolean }) | null>(null);
  // a new editor for each rule opened (not when the open one is saved: its message stays)
  const [opened, setOpened] = useState(0);
  const open = (d: Draft & { isNew: boolean }) => {
    setDraft(d);
    setOpened((n) => n + 1);
  };

  const load = () =>
    api.request(RULES.list).then(
      (data) => setRules(data.riskRules.nodes),
      (e: Error) => setError(e.message),
    );
  useEffect(() => {
    void load();
  }, [api]); // load() reads only api

  return (
    <Section title="Rules">
      <Errors messages={error} />
      <div className="rules">
        <ul className="rule-list" aria-label="Rules">
          {(rules ?? []).map((r) => (
            <li key={r.id}>
              <button
                type="button"
                className="row"
                aria-pressed={draft?.id === r.id}
                onClick={() => open({ ...r, description: r.description ?? '', isNew: false })}
              >
                <span className="row-main">
                  <span className="row-title">
                    {r.name} {r.enabled ? '' : '(off)'}
                  </span>
                  <span className="row-detail">
                    {r.action} · {r.severity} · v{r.version} · <code>{r.condition}</code>
                  </span>
                </span>
              </button>
            </li>
          ))}
          <li>
            <button type="button" onClick={() => open({ ...EMPTY, isNew: true })}>
              New rule
            </button>
          </li>
        </ul>
        {draft && (
          <RuleEditor
            key={opened}
            api={api}
            initial={draft}
            onSaved={(rule) => {
              setDraft({ ...rule, description: rule.description ?? '', isNew: false });
              void load();
            }}
          />
        )}
      </div>
    </Section>
  );
}

interface Check {
  valid: boolean;
  message: string | null;
  position: { offset: number; length: number; line: number; column: number } | null;
}

/** The condition is checked by the API (checkRiskRuleCondition) as it is typed; Save waits for a valid one. */
function RuleEditor({ api, initial, onSaved }: { api: Api; initial: Draft & { isNew: boolean }; onSaved: (rule: any) => void }) {
  const [draft, setDraft] = useState<Draft>(initial);
  const [check, setCheck] = useState<Check | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const [saved, setSaved] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [isNew, setIsNew] = useState(initial.isNew);

  useEffect(() => {
    if (!draft.condition.trim()) return setCheck(null);
    let live = true;
    const timer = setTimeout(() => {
      api.request(RULES.check, { condition: draft.condition }).then(
        (data) => live && setCheck(data.check),
        (e: Error) => live && setCheck({ valid: false, message: e.message, position: null }),
      );
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [api, draft.condition]);

  const set = (field: keyof Draft) => (e: { target: { value: string; checked?: boolean; type?: string } }) => {
    setSaved(null);
    setDraft((d) => ({ ...d, [field]: e.target.type === 'checkbox' ? e.target.checked : e.target.value }));
  };
  const checkedNow = check !== null && check.valid;
  const save = async () => {
    setBusy(true);
    setErrors([]);
    try {
      const { id, name, condition, action, severity, enabled, description } = draft;
      const input = { id, name: name || null, condition, action, severity, enabled, description: description || null };
      const { result } = await api.request(RULES.upsert, { input });
      if (result.userErrors.length) setErrors(result.userErrors.map((e: { message: string }) => e.message));
      else {
        setSaved(`Saved version ${result.riskRule.version}: the next evaluation uses it (effective ${when(result.effectiveAt)}).`);
        setIsNew(false);
        onSaved(result.riskRule);
      }
    } catch (e) {
      setErrors([(e as Error).message]);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="rule-editor" aria-label="Rule editor" onSubmit={(e) => (e.preventDefault(), void save())}>
      <label>
        Id
        <input value={draft.id} onChange={set('id')} readOnly={!isNew} required pattern="[A-Za-z0-9][A-Za-z0-9_.\-]{0,63}" />
      </label>
      <label>
        Name
        <input value={draft.name} onChange={set('name')} />
      </label>
      <label>
        Condition (CEL)
        <textarea
          className="code"
          value={draft.condition}
          onChange={set('condition')}
          rows={4}
          spellCheck={false}
          aria-invalid={check ? !check.valid : undefined}
          aria-describedby="condition-check"
        />
      </label>
      <div id="condition-check" className="condition-check" aria-live="polite">
        {check === null ? (
          <span className="muted">{draft.condition.trim() ? 'Checking…' : 'Write a condition: it is checked as you type.'}</span>
        ) : check.valid ? (
          <span className="status good">Valid condition</span>
        ) : (
          <ConditionError condition={draft.condition} check={check} />
        )}
      </div>
      <div className="inline">
        <label>
          Action
          <select value={draft.action} onChange={set('action')}>
            <option value="REVIEW">REVIEW</option>
            <option value="BLOCK">BLOCK</option>
          </select>
        </label>
        <label>
          Severity
          <select value={draft.severity} onChange={set('severity')}>
            {['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'].map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <label className="check">
          <input type="checkbox" checked={draft.enabled} onChange={set('enabled')} /> Enabled
        </label>
      </div>
      <label>
        Description
        <input value={draft.description} onChange={set('description')} />
      </label>
      <div className="buttons">
        <button type="submit" className="good" disabled={!checkedNow || busy || !draft.id}>
          Save rule
        </button>
        <span role="status">{saved}</span>
      </div>
      <Errors messages={errors} />
    </form>
  );
}

/** The check's message under the condition, the characters at fault marked where they are. */
function ConditionError({ condition, check }: { condition: string; check: Check }) {
  const summary = (check.message ?? 'invalid condition').split('\n')[0];
  const p = check.position;
  if (!p)
    return (
      <p className="errors" role="alert">
        {summary}
      </p>
    );
  const line = condition.split('\n')[p.line - 1] ?? '';
  const width = Math.max(1, Math.min(p.length || 1, line.length - (p.column - 1) || 1));
  return (
    <div className="errors" role="alert" data-line={p.line} data-column={p.column}>
      <p>
        Line {p.line}, column {p.column}: {summary}
      </p>
      <pre className="code" aria-hidden="true">
        {line}
        {'\n'}
        {' '.repeat(p.column - 1)}
        <span className="caret">{'^'.repeat(width)}</span>
      </pre>
    </div>
  );
}
