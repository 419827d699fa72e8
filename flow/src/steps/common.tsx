import type { FlowApi, FlowInfo, StepName, StepStatus } from '../api';
import type { MessageKey } from '../i18n';
import type { Progress } from '../storage';
import { Status, useT } from '../ui';

/** What every step is given by the app. */
export interface StepProps {
  api: FlowApi;
  flow: FlowInfo;
  step: StepName;
  /** The API's status of the step (verificationFlow), when known. */
  status: StepStatus;
  /** The newest check of the step (from the API, else the one this page started). */
  checkId: string | null;
  progress: Progress;
  save(patch: Partial<Progress>): void;
  /** The step's status changed (a check started, was decided…). */
  onStatus(status: StepStatus, checkId?: string): void;
  /** The person moves on to the next step. */
  onContinue(): void;
}

/** How a step ended, with what to do next: continue, or try again (or go on without). */
export function Outcome({
  kind,
  message,
  reasons = [],
  onContinue,
  onRetry,
}: {
  kind: 'passed' | 'review' | 'failed';
  message: MessageKey;
  reasons?: MessageKey[];
  onContinue(): void;
  onRetry?: () => void;
}) {
  const t = useT();
  return (
    <div className={`outcome ${kind}`}>
      <Status>{t(message)}</Status>
      {reasons.length > 0 && (
        <ul className="reasons">
          {reasons.map((reason) => (
            <li key={reason}>{t(reason)}</li>
          ))}
        </ul>
      )}
      <div className="actions">
        {kind === 'failed' && onRetry && (
          <button type="button" className="primary" onClick={onRetry}>
            {t('step.retry')}
          </button>
        )}
        <button type="button" className={kind === 'failed' ? 'secondary' : 'primary'} onClick={onContinue}>
          {t(kind === 'failed' ? 'step.continueAnyway' : 'step.continue')}
        </button>
      </div>
    </div>
  );
}
