import { useContext, useEffect, useMemo, useState } from 'react';
import { ApiError, type StepStatus } from '../api';
import { Camera, PhotoInput } from '../camera';
import { countries } from '../countries';
import { describe, documentReasons, userError, type Problem } from '../errors';
import { follow } from '../follow';
import { messageKey, type MessageKey } from '../i18n';
import { ASSESS_DOCUMENT_IMAGE, CREATE_DOCUMENT, DOCUMENT_QUERY, DOCUMENT_UPDATED } from '../operations';
import { Alert, I18n, Screen, SelectField, Status, useT } from '../ui';
import { Outcome, type StepProps } from './common';

/**
 * The identity document: its type and country, then a photo of each side (camera with a frame
 * guide, or a file), each judged by the API (assessDocumentImage) before it is used, then the
 * check followed live until it is decided.
 */
const TYPES = ['PASSPORT', 'ID_CARD', 'DRIVER_LICENSE', 'RESIDENCE_PERMIT'] as const;
type DocumentType = (typeof TYPES)[number];

interface Document {
  id: string;
  status: 'PENDING' | 'PROCESSING' | 'VERIFIED' | 'REJECTED' | 'MANUAL_REVIEW';
  reasons: string[];
}

interface Assessment {
  acceptable: boolean;
  problems: string[];
}

const STEP_STATUS: Record<Document['status'], StepStatus> = {
  PENDING: 'PROCESSING',
  PROCESSING: 'PROCESSING',
  VERIFIED: 'PASSED',
  REJECTED: 'FAILED',
  MANUAL_REVIEW: 'MANUAL_REVIEW',
};
const isFinal = (d: Document) => ['VERIFIED', 'REJECTED', 'MANUAL_REVIEW'].includes(d.status);

type Side = 'front' | 'back';
type Phase =
  | { name: 'choose' }
  | { name: 'capture'; side: Side }
  | { name: 'review'; side: Side; photo: Blob; url: string; assessment: Assessment | null }
  | { name: 'sending' }
  | { name: 'checking'; id: string; document: Document | null };

export function DocumentStep({ api, flow, step, checkId, onStatus, onContinue, save, progress }: StepProps) {
  const t = useT();
  const { locale } = useContext(I18n);
  const [type, setType] = useState<DocumentType | ''>('');
  const [country, setCountry] = useState('');
  const [photos, setPhotos] = useState<Partial<Record<Side, Blob>>>({});
  const [phase, setPhase] = useState<Phase>(() => (checkId ? { name: 'checking', id: checkId, document: null } : { name: 'choose' }));
  const [problem, setProblem] = useState<Problem | null>(null);
  const [assessing, setAssessing] = useState(false);
  const countryList = useMemo(() => countries(locale), [locale]);
  const sides: Side[] = type === 'PASSPORT' ? ['front'] : ['front', 'back'];
  const checkingId = phase.name === 'checking' ? phase.id : null;

  useEffect(() => {
    if (!checkingId) return;
    return follow<Document>({
      api,
      id: checkingId,
      query: DOCUMENT_QUERY,
      subscription: DOCUMENT_UPDATED,
      field: 'documentVerification',
      final: isFinal,
      onNode: (document) => {
        setPhase({ name: 'checking', id: checkingId, document });
        onStatus(STEP_STATUS[document.status], checkingId);
      },
      onError: (error) => setProblem(describe(error)),
    });
    // follows one check per id; the callbacks change with every render of the app
  }, [api, checkingId]);

  useEffect(() => () => (phase.name === 'review' ? URL.revokeObjectURL(phase.url) : undefined), [phase]);

  const [errors, setErrors] = useState<{ type?: MessageKey; country?: MessageKey }>({});
  function choose(event: React.FormEvent) {
    event.preventDefault();
    const found = {
      type: type ? undefined : ('document.missingType' as const),
      country: country ? undefined : ('document.missingCountry' as const),
    };
    setErrors(found);
    if (found.type || found.country) {
      document.getElementById(found.type ? 'document-type' : 'document-country')?.focus();
      return;
    }
    setPhotos({});
    setProblem(null);
    setPhase({ name: 'capture', side: 'front' });
  }

  async function assess(side: Side, photo: Blob) {
    setProblem(null);
    setAssessing(true);
    let assessment: Assessment | null = null;
    try {
      const data = (await api.request(ASSESS_DOCUMENT_IMAGE, { image: photo })).assessDocumentImage;
      const refused = userError(data.userErrors);
      if (refused) throw refused;
      assessment = data.assessment as Assessment;
    } catch (error) {
      // a file the API cannot take is said now; any other failure of the advice lets the photo through unjudged
      if (error instanceof ApiError && ['UNSUPPORTED_MEDIA_TYPE', 'PAYLOAD_TOO_LARGE', 'UNAUTHENTICATED'].includes(error.code ?? '')) {
        setProblem(describe(error));
        setAssessing(false);
        return;
      }
    }
    setAssessing(false);
    setPhase({ name: 'review', side, photo, url: URL.createObjectURL(photo), assessment });
  }

  async function use(side: Side, photo: Blob) {
    const taken = { ...photos, [side]: photo };
    setPhotos(taken);
    const next = sides[sides.indexOf(side) + 1];
    if (next) return setPhase({ name: 'capture', side: next });
    setPhase({ name: 'sending' });
    try {
      const input = {
        userId: flow.userId,
        documentType: type,
        documentCountry: country,
        frontImage: taken.front,
        backImage: taken.back ?? null,
      };
      const data = await api.request(CREATE_DOCUMENT, { input });
      const refused = userError(data.createDocumentVerification.userErrors);
      if (refused) throw refused;
      const created = data.createDocumentVerification.documentVerification as Document;
      save({ checks: { ...progress.checks, [step]: created.id } });
      onStatus('PROCESSING', created.id);
      setPhase({ name: 'checking', id: created.id, document: created });
    } catch (error) {
      setProblem(describe(error));
      setPhase({ name: 'capture', side: sides[0]! });
    }
  }

  function retry() {
    setProblem(null);
    setPhotos({});
    setPhase({ name: 'choose' });
  }

  const sideTitle = (side: Side): string =>
    t(type === 'PASSPORT' ? 'document.side.passport' : side === 'front' ? 'document.side.front' : 'document.side.back');

  if (phase.name === 'choose') {
    return (
      <Screen title={t('document.title')} name="choose">
        <p>{t('document.intro')}</p>
        <form onSubmit={choose} noValidate>
          <SelectField
            id="document-type"
            label={t('document.type')}
            error={errors.type ? t(errors.type) : null}
            value={type}
            options={TYPES.map((value) => ({ value, label: t(messageKey(`document.type.${value}`)!) }))}
            onChange={(value) => setType(value as DocumentType)}
          />
          <SelectField
            id="document-country"
            label={t('document.country')}
            error={errors.country ? t(errors.country) : null}
            value={country}
            options={countryList.map(({ code, name }) => ({ value: code, label: name }))}
            autoComplete="country"
            onChange={setCountry}
          />
          <button type="submit" className="primary">
            {t('step.continue')}
          </button>
        </form>
      </Screen>
    );
  }

  if (phase.name === 'capture') {
    return (
      <Screen title={sideTitle(phase.side)} name={`capture-${phase.side}`}>
        <p>{t('document.capture.hint')}</p>
        <Alert problem={problem} />
        <Camera
          facing="environment"
          guide="document"
          takeLabel={t('camera.take')}
          busy={assessing}
          onPhoto={(photo) => assess(phase.side, photo)}
          onUnavailable={(key) => setProblem({ key })}
        />
        {assessing && <Status busy>{t('document.assessing')}</Status>}
        <PhotoInput
          id={`document-file-${phase.side}`}
          label={t('document.upload')}
          disabled={assessing}
          onPhoto={(photo) => assess(phase.side, photo)}
        />
      </Screen>
    );
  }

  if (phase.name === 'review') {
    const { assessment } = phase;
    const problems = [...new Set((assessment?.problems ?? []).map((p) => messageKey(`document.problem.${p}`) ?? 'document.problem.other'))];
    const good = !assessment || assessment.acceptable;
    return (
      <Screen title={t('document.review.title')} name={`review-${phase.side}`}>
        <img className="preview" src={phase.url} alt={t('document.review.alt', { side: sideTitle(phase.side) })} />
        {assessment && good && <Status>{t(problems.length ? 'document.assessment.soft' : 'document.assessment.good')}</Status>}
        {problems.length > 0 && (
          <div className={good ? 'advice tip' : 'advice'} role={good ? undefined : 'alert'}>
            {!good && <p>{t('document.assessment.bad')}</p>}
            <ul>
              {problems.map((key) => (
                <li key={key}>{t(key)}</li>
              ))}
            </ul>
          </div>
        )}
        <div className="actions">
          <button type="button" className={good ? 'primary' : 'secondary'} onClick={() => use(phase.side, phase.photo)}>
            {t(good ? 'document.use' : 'document.useAnyway')}
          </button>
          <button type="button" className={good ? 'secondary' : 'primary'} onClick={() => setPhase({ name: 'capture', side: phase.side })}>
            {t('document.retake')}
          </button>
        </div>
      </Screen>
    );
  }

  if (phase.name === 'sending') {
    return (
      <Screen title={t('document.title')} name="sending">
        <Status busy>{t('document.sending')}</Status>
      </Screen>
    );
  }

  return <Checking phase={phase} onContinue={onContinue} onRetry={retry} problem={problem} />;
}

function Checking({
  phase,
  problem,
  onContinue,
  onRetry,
}: {
  phase: { id: string; document: Document | null };
  problem: Problem | null;
  onContinue(): void;
  onRetry(): void;
}) {
  const t = useT();
  const document = phase.document;
  const status = document?.status;
  return (
    <Screen title={t('document.title')} name={`checking-${status === undefined || !isFinal(document!) ? 'open' : status}`}>
      <Alert problem={problem} />
      {(!document || !isFinal(document)) && <Status busy>{t('document.checking')}</Status>}
      {status === 'VERIFIED' && <Outcome kind="passed" message="document.verified" onContinue={onContinue} />}
      {status === 'MANUAL_REVIEW' && <Outcome kind="review" message="document.review" onContinue={onContinue} />}
      {status === 'REJECTED' && (
        <Outcome
          kind="failed"
          message="document.rejected"
          reasons={documentReasons(document!.reasons)}
          onContinue={onContinue}
          onRetry={onRetry}
        />
      )}
    </Screen>
  );
}
