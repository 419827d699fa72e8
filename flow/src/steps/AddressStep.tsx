import { useContext, useEffect, useMemo, useState } from 'react';
import type { StepStatus } from '../api';
import { PhotoInput } from '../camera';
import { countries } from '../countries';
import { addressReasons, describe, userError, type Problem } from '../errors';
import { follow } from '../follow';
import { messageKey, type MessageKey } from '../i18n';
import { ADDRESS_QUERY, ADDRESS_UPDATED, CREATE_ADDRESS } from '../operations';
import { Alert, Field, I18n, Screen, SelectField, Status, describedBy, useT } from '../ui';
import { Outcome, type StepProps } from './common';

/** A proof of address: its kind, country, the address as written on it (optional), and the file; the check followed live. */
const TYPES = ['UTILITY_BILL', 'BANK_STATEMENT', 'GOVERNMENT_LETTER', 'TAX_DOCUMENT'] as const;

interface AddressCheck {
  id: string;
  status: 'PROCESSING' | 'VERIFIED' | 'REJECTED' | 'MANUAL_REVIEW';
  reasons: string[];
}

const STEP_STATUS: Record<AddressCheck['status'], StepStatus> = {
  PROCESSING: 'PROCESSING',
  VERIFIED: 'PASSED',
  REJECTED: 'FAILED',
  MANUAL_REVIEW: 'MANUAL_REVIEW',
};

export function AddressStep({ api, flow, step, checkId, progress, save, onStatus, onContinue }: StepProps) {
  const t = useT();
  const { locale } = useContext(I18n);
  const countryList = useMemo(() => countries(locale), [locale]);
  const [type, setType] = useState('');
  const [country, setCountry] = useState('');
  const [expected, setExpected] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<Partial<Record<'type' | 'country' | 'file', MessageKey>>>({});
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  const [followed, setFollowed] = useState<string | null>(checkId);
  const [check, setCheck] = useState<AddressCheck | null>(null);

  useEffect(() => {
    if (!followed) return;
    return follow<AddressCheck>({
      api,
      id: followed,
      query: ADDRESS_QUERY,
      subscription: ADDRESS_UPDATED,
      field: 'addressVerification',
      final: (c) => c.status !== 'PROCESSING',
      onNode: (c) => {
        setCheck(c);
        onStatus(STEP_STATUS[c.status], c.id);
      },
      onError: (error) => setProblem(describe(error)),
    });
  }, [api, followed]);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    const found = {
      type: type ? undefined : ('address.missingType' as const),
      country: country ? undefined : ('address.missingCountry' as const),
      file: file ? undefined : ('address.missingFile' as const),
    };
    setErrors(found);
    const first = (['type', 'country', 'file'] as const).find((name) => found[name]);
    if (first) return document.getElementById(`address-${first}`)?.focus();
    setBusy(true);
    setProblem(null);
    try {
      const input = { userId: flow.userId, documentType: type, country, document: file, expectedAddress: expected.trim() || null };
      const data = (await api.request(CREATE_ADDRESS, { input })).createAddressVerification;
      const refused = userError(data.userErrors);
      if (refused) throw refused;
      const created = data.addressVerification as AddressCheck;
      save({ checks: { ...progress.checks, [step]: created.id } });
      setCheck(created);
      onStatus('PROCESSING', created.id);
      setFollowed(created.id);
    } catch (error) {
      setProblem(describe(error));
    } finally {
      setBusy(false);
    }
  }

  function retry() {
    setCheck(null);
    setFollowed(null);
    setFile(null);
  }

  if (followed) {
    return (
      <Screen title={t('address.title')} name={`check-${check?.status ?? 'open'}`}>
        <Alert problem={problem} />
        {(!check || check.status === 'PROCESSING') && <Status busy>{t('address.checking')}</Status>}
        {check?.status === 'VERIFIED' && <Outcome kind="passed" message="address.verified" onContinue={onContinue} />}
        {check?.status === 'MANUAL_REVIEW' && <Outcome kind="review" message="address.review" onContinue={onContinue} />}
        {check?.status === 'REJECTED' && (
          <Outcome
            kind="failed"
            message="address.rejected"
            reasons={addressReasons(check.reasons)}
            onContinue={onContinue}
            onRetry={retry}
          />
        )}
      </Screen>
    );
  }

  const error = (name: 'type' | 'country' | 'file') => (errors[name] ? t(errors[name]!) : null);
  return (
    <Screen title={t('address.title')} name="form">
      <p>{t('address.intro')}</p>
      <Alert problem={problem} />
      <form onSubmit={submit} noValidate>
        <SelectField
          id="address-type"
          label={t('address.type')}
          error={error('type')}
          value={type}
          options={TYPES.map((value) => ({ value, label: t(messageKey(`address.type.${value}`)!) }))}
          onChange={setType}
        />
        <SelectField
          id="address-country"
          label={t('address.country')}
          error={error('country')}
          value={country}
          options={countryList.map(({ code, name }) => ({ value: code, label: name }))}
          autoComplete="country"
          onChange={setCountry}
        />
        <Field id="address-expected" label={t('address.expected')} hint={t('address.expectedHint')}>
          <textarea
            id="address-expected"
            rows={3}
            autoComplete="street-address"
            value={expected}
            onChange={(e) => setExpected(e.target.value)}
            aria-describedby={describedBy('address-expected', true, false)}
          />
        </Field>
        <div className={errors.file ? 'field invalid' : 'field'}>
          <p className="hint" id="address-file-hint">
            {t('address.fileHint')}
          </p>
          <PhotoInput id="address-file" label={t('address.file')} onPhoto={setFile} disabled={busy} />
          {file && <p className="chosen">{t('address.chosen', { name: file.name })}</p>}
          {errors.file && <p className="field-error">{t(errors.file)}</p>}
        </div>
        <button type="submit" className="primary" disabled={busy}>
          {t('address.submit')}
        </button>
        {busy && <Status busy>{t('address.sending')}</Status>}
      </form>
    </Screen>
  );
}
