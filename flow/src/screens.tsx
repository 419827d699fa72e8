import { useState } from 'react';
import type { StepName, StepStatus } from './api';
import { messageKey, type MessageKey } from './i18n';
import type { Outcome } from './storage';
import { Screen, Status, useT } from './ui';

/** The first screen: who asks, what each step collects, and the person's agreement. */
export function Consent({ organization, steps, onAgree }: { organization: string; steps: StepName[]; onAgree(): void }) {
  const t = useT();
  const [agreed, setAgreed] = useState(false);
  const [error, setError] = useState(false);
  return (
    <Screen title={t('consent.title', { organization })} name="consent">
      <p>{t('consent.intro', { organization })}</p>
      <ul className="collected">
        {steps.map((step) => (
          <li key={step}>
            <strong>{t(messageKey(`step.${step}`)!)}</strong> — {t(messageKey(`consent.collect.${step}`)!)}
          </li>
        ))}
      </ul>
      <p>{t('consent.use', { organization })}</p>
      {(steps.includes('DOCUMENT') || steps.includes('LIVENESS')) && <p>{t('consent.camera')}</p>}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (agreed) onAgree();
          else {
            setError(true);
            document.getElementById('consent-agree')?.focus();
          }
        }}
        noValidate
      >
        <div className={error ? 'check invalid' : 'check'}>
          <input
            id="consent-agree"
            type="checkbox"
            checked={agreed}
            onChange={(e) => {
              setAgreed(e.target.checked);
              if (e.target.checked) setError(false);
            }}
            aria-invalid={error}
            aria-describedby={error ? 'consent-error' : undefined}
            required
          />
          <label htmlFor="consent-agree">{t('consent.agree', { organization })}</label>
        </div>
        {error && (
          <p className="field-error" id="consent-error" role="alert">
            {t('consent.required')}
          </p>
        )}
        <button type="submit" className="primary">
          {t('consent.start')}
        </button>
      </form>
    </Screen>
  );
}

const STATE_KEY: Record<StepStatus, MessageKey> = {
  NOT_STARTED: 'progress.todo',
  IN_PROGRESS: 'progress.inProgress',
  PROCESSING: 'progress.processing',
  PASSED: 'progress.passed',
  FAILED: 'progress.failed',
  MANUAL_REVIEW: 'progress.review',
};

/** Where the person is: step n of N, and each step's state. */
export function Progress({
  steps,
  current,
  statuses,
}: {
  steps: StepName[];
  current: StepName | null;
  statuses: Partial<Record<StepName, StepStatus>>;
}) {
  const t = useT();
  const index = current ? steps.indexOf(current) : steps.length;
  return (
    <nav className="progress" aria-label={t('progress.label')}>
      <p className="progress-count">
        {current ? t('progress.count', { current: index + 1, total: steps.length }) : t('progress.complete')}
      </p>
      <ol>
        {steps.map((step, i) => {
          const status = statuses[step] ?? 'NOT_STARTED';
          const state = i < index ? 'done' : i === index ? 'current' : 'todo';
          return (
            <li key={step} className={`${state} ${status.toLowerCase()}`} aria-current={state === 'current' ? 'step' : undefined}>
              <span className="name">{t(messageKey(`step.${step}`)!)}</span>
              <span className="state">{t(STATE_KEY[status])}</span>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

/** The end: the outcome, each step's state, and the way back to the organization. */
export function Result({
  organization,
  outcome,
  steps,
  statuses,
  embedded,
  redirect,
}: {
  organization: string;
  outcome: Outcome;
  steps: StepName[];
  statuses: Partial<Record<StepName, StepStatus>>;
  embedded: boolean;
  redirect: string | null;
}) {
  const t = useT();
  return (
    <Screen title={t(messageKey(`result.title.${outcome}`)!)} name={`result-${outcome}`}>
      <Status>{t(messageKey(`result.body.${outcome}`)!, { organization })}</Status>
      {steps.length > 0 && (
        <ul className="summary" aria-label={t('result.summary')}>
          {steps.map((step) => (
            <li key={step} className={(statuses[step] ?? 'NOT_STARTED').toLowerCase()}>
              <span className="name">{t(messageKey(`step.${step}`)!)}</span>
              <span className="state">{t(STATE_KEY[statuses[step] ?? 'NOT_STARTED'])}</span>
            </li>
          ))}
        </ul>
      )}
      {embedded ? (
        <p>{t('result.embedded', { organization })}</p>
      ) : redirect ? (
        <a className="button primary" href={redirect}>
          {t('result.continue', { organization })}
        </a>
      ) : (
        <p>{t('result.close')}</p>
      )}
    </Screen>
  );
}

/** A link that cannot be used (spent, unknown, expired) or an API out of reach. */
export function Problem({
  kind,
  organization,
  onRetry,
}: {
  kind: 'gone' | 'notFound' | 'expired' | 'network';
  organization?: string;
  onRetry?: () => void;
}) {
  const t = useT();
  return (
    <Screen title={t(messageKey(`link.${kind}.title`)!)} name={kind}>
      <p>{t(messageKey(`link.${kind}.body`)!, { organization: organization ?? t('link.theOrganization') })}</p>
      {onRetry && (
        <button type="button" className="primary" onClick={onRetry}>
          {t('link.retry')}
        </button>
      )}
    </Screen>
  );
}
