import { useContext, useEffect, useState } from 'react';
import type { StepStatus } from '../api';
import { describe, userError, type Problem } from '../errors';
import { follow } from '../follow';
import { CODE_OPERATIONS } from '../operations';
import { Alert, Field, I18n, Screen, Status, describedBy, useT } from '../ui';
import { Outcome, type StepProps } from './common';

/**
 * A phone number or an email address confirmed with a 6-digit code: entered, sent (in the page's
 * language), typed back; a new code on request; followed live, so an expired code is said.
 */
interface Verification {
  id: string;
  status: 'PENDING' | 'VERIFIED' | 'FAILED' | 'EXPIRED';
  attemptsRemaining: number;
  failureReason: string | null;
  phoneNumber?: string | null;
  email?: string | null;
}

const STEP_STATUS: Record<Verification['status'], StepStatus> = {
  PENDING: 'IN_PROGRESS',
  VERIFIED: 'PASSED',
  FAILED: 'FAILED',
  EXPIRED: 'FAILED',
};

export function CodeStep({ api, flow, step, checkId, progress, save, onStatus, onContinue }: StepProps) {
  const t = useT();
  const { locale } = useContext(I18n);
  const kind = step === 'PHONE' ? 'PHONE' : 'EMAIL';
  const ops = CODE_OPERATIONS[kind];
  const p = kind === 'PHONE' ? 'phone' : 'email';
  const [address, setAddress] = useState('');
  const [code, setCode] = useState('');
  const [verification, setVerification] = useState<Verification | null>(null);
  const [followed, setFollowed] = useState<string | null>(checkId);
  const [loading, setLoading] = useState(!!checkId);
  const [busy, setBusy] = useState(false);
  const [fieldError, setFieldError] = useState<Problem | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const seen = (v: Verification) => {
    setVerification(v);
    onStatus(STEP_STATUS[v.status], v.id);
  };

  useEffect(() => {
    if (!followed) return;
    return follow<Verification>({
      api,
      id: followed,
      query: ops.read,
      subscription: ops.updated,
      field: ops.field,
      final: (v) => v.status !== 'PENDING',
      onNode: (v) => {
        setLoading(false);
        seen(v);
      },
      onError: (error) => {
        setLoading(false);
        setProblem(describe(error));
      },
    });
  }, [api, followed]);

  async function run(mutation: string, input: Record<string, unknown>, field: string) {
    setBusy(true);
    setProblem(null);
    setFieldError(null);
    try {
      const data = (await api.request(mutation, { input }))[field];
      const refused = userError(data.userErrors);
      if (refused) {
        setFieldError(describe(refused));
        return null;
      }
      return data[ops.field] as Verification;
    } catch (error) {
      setProblem(describe(error));
      return null;
    } finally {
      setBusy(false);
    }
  }

  async function sendCode(event: React.FormEvent) {
    event.preventDefault();
    if (!address.trim()) return setFieldError({ key: `error.${p}.missing` as const });
    const input =
      kind === 'PHONE'
        ? { userId: flow.userId, phoneNumber: address.replace(/[\s().-]/g, ''), locale }
        : { userId: flow.userId, email: address.trim(), locale };
    const started = await run(ops.start, input, kind === 'PHONE' ? 'startPhoneVerification' : 'startEmailVerification');
    if (!started) return document.getElementById(`${p}-address`)?.focus();
    save({ checks: { ...progress.checks, [step]: started.id } });
    setCode('');
    seen(started);
    setFollowed(started.id);
  }

  async function verify(event: React.FormEvent) {
    event.preventDefault();
    if (!/^\d{6}$/.test(code.trim())) {
      setFieldError({ key: 'code.format' });
      return document.getElementById(`${p}-code`)?.focus();
    }
    const after = await run(
      ops.verify,
      { id: verification!.id, code: code.trim() },
      kind === 'PHONE' ? 'verifyPhoneCode' : 'verifyEmailCode',
    );
    if (!after) return;
    seen(after);
    if (after.status === 'PENDING') {
      setFieldError({ key: 'code.wrong', values: { attempts: after.attemptsRemaining } });
      document.getElementById(`${p}-code`)?.focus();
    }
  }

  async function resend() {
    const after = await run(ops.resend, { id: verification!.id }, kind === 'PHONE' ? 'resendPhoneCode' : 'resendEmailCode');
    if (after) {
      seen(after);
      setCode('');
      setNotice(t('code.resent'));
    }
  }

  function restart() {
    setVerification(null);
    setFollowed(null);
    setCode('');
    setNotice(null);
    setFieldError(null);
  }

  if (loading) {
    return (
      <Screen title={t(`${p}.title`)} name="loading">
        <Status busy>{t('step.loading')}</Status>
      </Screen>
    );
  }

  if (verification?.status === 'VERIFIED') {
    return (
      <Screen title={t(`${p}.title`)} name="verified">
        <Outcome kind="passed" message={`${p}.verified`} onContinue={onContinue} />
      </Screen>
    );
  }

  if (verification?.status === 'PENDING') {
    const sentTo = verification.phoneNumber ?? verification.email ?? address;
    const error = fieldError ? t(fieldError.key, fieldError.values) : null;
    return (
      <Screen title={t('code.title')} name="code">
        <p>{t(`${p}.sent`, { address: sentTo })}</p>
        {notice && <Status>{notice}</Status>}
        <Alert problem={problem} />
        <form onSubmit={verify} noValidate>
          <Field id={`${p}-code`} label={t('code.label')} hint={t('code.hint')} error={error}>
            <input
              id={`${p}-code`}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              value={code}
              onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
              aria-invalid={!!error}
              aria-describedby={describedBy(`${p}-code`, true, !!error)}
              required
            />
          </Field>
          <button type="submit" className="primary" disabled={busy}>
            {t('code.verify')}
          </button>
        </form>
        <div className="actions">
          <button type="button" className="secondary" onClick={resend} disabled={busy}>
            {t('code.resend')}
          </button>
          <button type="button" className="link" onClick={restart} disabled={busy}>
            {t(`${p}.change`)}
          </button>
        </div>
      </Screen>
    );
  }

  // nothing sent yet, or the last code failed or expired: (again) an address to send one to
  const over = verification && (verification.status === 'EXPIRED' ? 'code.expired' : 'code.failed');
  const error = fieldError ? t(fieldError.key, fieldError.values) : null;
  return (
    <Screen title={t(`${p}.title`)} name="enter">
      <p>{t(`${p}.intro`)}</p>
      <Alert problem={problem ?? (over ? { key: over } : null)} />
      <form onSubmit={sendCode} noValidate>
        <Field id={`${p}-address`} label={t(`${p}.label`)} hint={t(`${p}.hint`)} error={error}>
          <input
            id={`${p}-address`}
            type={kind === 'PHONE' ? 'tel' : 'email'}
            inputMode={kind === 'PHONE' ? 'tel' : 'email'}
            autoComplete={kind === 'PHONE' ? 'tel' : 'email'}
            value={address}
            onChange={(e) => setAddress(e.target.value)}
            aria-invalid={!!error}
            aria-describedby={describedBy(`${p}-address`, true, !!error)}
            required
          />
        </Field>
        <button type="submit" className="primary" disabled={busy}>
          {t('code.send')}
        </button>
      </form>
    </Screen>
  );
}
