import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError, FlowApi, STEP_NAMES, locate, openFlow, type OpenedFlow, type StepName, type StepStatus } from './api';
import { applyBranding, logoUrl } from './branding';
import { chooseLocale, LOCALES, translator, type Locale } from './i18n';
import { FLOW } from './operations';
import { flowOutcome, redirectTarget } from './outcome';
import { tellParent } from './parent';
import { Consent, Problem, Progress, Result } from './screens';
import { AddressStep } from './steps/AddressStep';
import { CodeStep } from './steps/CodeStep';
import type { StepProps } from './steps/common';
import { DocumentStep } from './steps/DocumentStep';
import { LivenessStep } from './steps/LivenessStep';
import { clearProgress, readProgress, saveProgress, type Finished, type Progress as Saved } from './storage';
import { Announce, I18n, Screen, Status } from './ui';

/**
 * The hosted verification flow: opens the link once (or resumes from what this browser kept),
 * asks for consent, runs the flow's steps in order through the public API with the flow's
 * session token, then shows the outcome and the way back to the organization (`redirectUrl` with
 * `flowId` and `status`). In an iframe (`?embed=1`) it tells the parent page instead of leaving.
 */
const STEP_COMPONENTS: Record<StepName, (props: StepProps) => React.JSX.Element> = {
  DOCUMENT: DocumentStep,
  LIVENESS: LivenessStep,
  PHONE: CodeStep,
  EMAIL: CodeStep,
  ADDRESS: AddressStep,
};

type Load =
  | { state: 'loading' }
  | { state: 'problem'; kind: 'gone' | 'notFound' | 'expired' | 'network'; error: string }
  | { state: 'finished'; finished: Finished['finished'] }
  | { state: 'open'; saved: Saved };

interface FlowStatus {
  step: StepName;
  status: StepStatus;
  checkId: string | null;
}

const query = new URLSearchParams(location.search);

/** The link opens once: one request per page, whoever asks (React may run an effect twice); a failed one may be asked again. */
const opening = new Map<string, Promise<OpenedFlow>>();
function openOnce(base: string, linkToken: string): Promise<OpenedFlow> {
  let pending = opening.get(linkToken);
  if (!pending) {
    pending = openFlow(base, linkToken);
    opening.set(linkToken, pending);
    pending.catch(() => opening.delete(linkToken));
  }
  return pending;
}

/** Why the link did not open: unknown (404), spent or expired (409, the message says which), or the API out of reach. */
function openingProblem(error: unknown): { kind: 'gone' | 'notFound' | 'expired' | 'network'; error: string } {
  if (!(error instanceof ApiError) || !error.status || error.status >= 500) return { kind: 'network', error: 'UNAVAILABLE' };
  if (error.status === 404) return { kind: 'notFound', error: 'NOT_FOUND' };
  if (/expired/i.test(error.message)) return { kind: 'expired', error: 'EXPIRED' };
  return { kind: 'gone', error: 'ALREADY_OPENED' };
}
const EMBEDDED = query.get('embed') === '1';

export function App() {
  const { origin, prefix, linkToken } = useMemo(() => locate(), []);
  const base = `${origin}${prefix}`;
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [locale, setLocale] = useState<Locale>(() => chooseLocale(query.get('lang'), null));
  const [statuses, setStatuses] = useState<Partial<Record<StepName, FlowStatus>>>({});
  const [announcement, setAnnouncement] = useState('');
  const t = useMemo(() => translator(locale), [locale]);
  const saved = load.state === 'open' ? load.saved : null;

  const open = useCallback(async () => {
    if (!linkToken) return setLoad({ state: 'problem', kind: 'notFound', error: 'NOT_FOUND' });
    const kept = readProgress(linkToken);
    if (kept && 'finished' in kept) return setLoad({ state: 'finished', finished: kept.finished });
    if (kept) return setLoad({ state: 'open', saved: kept });
    setLoad({ state: 'loading' });
    try {
      const opened = await openOnce(base, linkToken);
      const progress: Saved = { ...opened, acknowledged: [] };
      saveProgress(linkToken, progress);
      setLoad({ state: 'open', saved: progress });
    } catch (error) {
      setLoad({ state: 'problem', ...openingProblem(error) });
    }
  }, [base, linkToken]);

  useEffect(() => void open(), [open]);

  // the language: ?lang= wins, then the one chosen on the page, then the flow's
  useEffect(() => {
    if (saved) setLocale(chooseLocale(query.get('lang') && !saved.locale ? query.get('lang') : (saved.locale ?? null), saved.flow.locale));
  }, [saved?.flow.id]);
  useEffect(() => {
    document.documentElement.lang = locale;
    document.title = saved ? t('app.titleFor', { organization: saved.flow.organizationName }) : t('app.title');
  }, [locale, saved, t]);
  useEffect(() => {
    applyBranding(saved?.flow.branding);
  }, [saved?.flow.branding]);

  // errors the parent page hears of (a spent or unknown link, an expired session)
  useEffect(() => {
    if (load.state === 'problem') tellParent({ type: 'error', detail: { error: load.error } });
  }, [load]);

  const save = useCallback(
    (patch: Partial<Saved>) => {
      setLoad((current) => {
        if (current.state !== 'open' || !linkToken) return current;
        const next = { ...current.saved, ...patch };
        saveProgress(linkToken, next);
        return { state: 'open', saved: next };
      });
    },
    [linkToken],
  );

  const api = useMemo(() => (saved ? new FlowApi(base, saved.sessionToken) : null), [base, saved?.sessionToken]);
  useEffect(() => {
    if (!api) return;
    api.onSessionEnded = () => {
      if (linkToken) clearProgress(linkToken);
      setLoad({ state: 'problem', kind: 'expired', error: 'EXPIRED' });
    };
    return () => api.close();
  }, [api, linkToken]);

  // where each step stands, from the API (a reload resumes there)
  useEffect(() => {
    if (!api || !saved) return;
    api
      .request<{ verificationFlow: { steps: FlowStatus[] } | null }>(FLOW, { id: saved.flow.id })
      .then((data) => {
        const read = Object.fromEntries((data.verificationFlow?.steps ?? []).map((s) => [s.step, s]));
        setStatuses((current) => ({ ...read, ...current }));
      })
      .catch(() => undefined); // the steps then read their own checks
  }, [api, saved?.flow.id]);

  const steps = (saved?.flow.steps ?? []).filter((step) => STEP_NAMES.includes(step));
  const acknowledged = saved?.acknowledged ?? [];
  const current = steps.find((step) => !acknowledged.includes(step)) ?? null;
  const statusOf = Object.fromEntries(steps.map((step) => [step, statuses[step]?.status ?? 'NOT_STARTED'])) as Record<StepName, StepStatus>;
  const outcome = flowOutcome(steps, statusOf);
  const finished = !!saved?.consented && current === null;

  const onStatus = useCallback((step: StepName, status: StepStatus, checkId?: string) => {
    setStatuses((all) => {
      const before = all[step];
      if (before?.status === status && (checkId === undefined || before.checkId === checkId)) return all;
      tellParent({ type: 'step', detail: { step, status } });
      return { ...all, [step]: { step, status, checkId: checkId ?? before?.checkId ?? null } };
    });
  }, []);

  // the end: the parent hears it, and the session token is forgotten (the outcome stays for a reload)
  const completed = useRef(false);
  useEffect(() => {
    if (!finished || !saved || !linkToken || completed.current) return;
    completed.current = true;
    tellParent({ type: 'complete', detail: { flowId: saved.flow.id, status: outcome } });
    saveProgress(linkToken, {
      finished: { flowId: saved.flow.id, outcome, redirectUrl: saved.flow.redirectUrl, organizationName: saved.flow.organizationName },
    });
  }, [finished, saved, linkToken, outcome]);

  // the iframe's height for the web component
  useEffect(() => {
    if (!EMBEDDED || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => tellParent({ type: 'resize', detail: { height: document.documentElement.scrollHeight } }));
    observer.observe(document.body);
    return () => observer.disconnect();
  }, []);

  function chooseLanguage(next: Locale) {
    setLocale(next);
    if (saved) save({ locale: next });
  }

  let body: React.ReactNode;
  if (load.state === 'loading') {
    body = (
      <Screen title={t('app.title')} name="loading">
        <Status busy>{t('app.loading')}</Status>
      </Screen>
    );
  } else if (load.state === 'problem') {
    body = <Problem kind={load.kind} organization={undefined} onRetry={load.kind === 'network' ? open : undefined} />;
  } else if (load.state === 'finished') {
    const { finished: f } = load;
    body = (
      <Result
        organization={f.organizationName}
        outcome={f.outcome}
        steps={[]}
        statuses={{}}
        embedded={EMBEDDED}
        redirect={f.redirectUrl ? redirectTarget(f.redirectUrl, f.flowId, f.outcome) : null}
      />
    );
  } else if (!saved!.consented) {
    body = <Consent organization={saved!.flow.organizationName} steps={steps} onAgree={() => save({ consented: true })} />;
  } else if (current === null) {
    body = (
      <Result
        organization={saved!.flow.organizationName}
        outcome={outcome}
        steps={steps}
        statuses={statusOf}
        embedded={EMBEDDED}
        redirect={saved!.flow.redirectUrl ? redirectTarget(saved!.flow.redirectUrl, saved!.flow.id, outcome) : null}
      />
    );
  } else {
    const Step = STEP_COMPONENTS[current];
    body = (
      <Step
        key={current}
        api={api!}
        flow={saved!.flow}
        step={current}
        status={statusOf[current]}
        checkId={statuses[current]?.checkId ?? saved!.checks?.[current] ?? null}
        progress={saved!}
        save={save}
        onStatus={(status, checkId) => onStatus(current, status, checkId)}
        onContinue={() => save({ acknowledged: [...acknowledged, current] })}
      />
    );
  }

  const organization = saved?.flow.organizationName ?? (load.state === 'finished' ? load.finished.organizationName : null);
  const logo = logoUrl(saved?.flow.branding);
  return (
    <I18n.Provider value={{ t, locale }}>
      <Announce.Provider value={setAnnouncement}>
        <header className="top">
          <div className="brand">
            {logo && <img className="logo" src={logo} alt={t('app.logoAlt', { organization: organization ?? '' })} />}
            {organization && <span className="organization">{organization}</span>}
          </div>
          <div className="language">
            <label htmlFor="language">{t('app.language')}</label>
            <select id="language" value={locale} onChange={(e) => chooseLanguage(e.target.value as Locale)}>
              {LOCALES.map((code) => (
                <option key={code} value={code} lang={code}>
                  {t(`language.${code}`)}
                </option>
              ))}
            </select>
          </div>
        </header>
        {saved?.consented && <Progress steps={steps} current={current} statuses={statusOf} />}
        <main>{body}</main>
        <div className="visually-hidden" role="status" aria-live="polite">
          {announcement}
        </div>
      </Announce.Provider>
    </I18n.Provider>
  );
}
