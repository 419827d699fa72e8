import { useEffect, useState } from 'react';
import type { StepStatus } from '../api';
import { Camera } from '../camera';
import { describe, livenessFailure, userError, type Problem } from '../errors';
import { follow } from '../follow';
import { messageKey, type MessageKey } from '../i18n';
import { CHALLENGE_PHOTO, CREATE_LIVENESS, LIVENESS_QUERY, LIVENESS_UPDATED, REFERENCE_SELFIE } from '../operations';
import { Alert, Screen, Status, useT } from '../ui';
import { Outcome, type StepProps } from './common';

/**
 * The face check: a liveness session of the flow's user (createLivenessSession), its reference
 * selfie taken here with the front camera, then its challenges prompted one at a time (a nod in
 * two photos), each photo judged as it is sent. The session's token is kept with the progress,
 * so a reload goes on where it stopped while the session is open.
 */
interface Challenge {
  id: string;
  type: string;
  outcome: 'PENDING' | 'PASSED' | 'FAILED';
  framesRequired: number;
  framesReceived: number;
}

interface Session {
  id: string;
  status: 'IN_PROGRESS' | 'PASSED' | 'FAILED' | 'EXPIRED';
  isComplete: boolean;
  referenceSelfieReceived: boolean;
  expiresAt: string;
  challenges: Challenge[];
  result: { isAlive: boolean; failureReason: string | null } | null;
}

const STEP_STATUS: Record<Session['status'], StepStatus> = {
  IN_PROGRESS: 'IN_PROGRESS',
  PASSED: 'PASSED',
  FAILED: 'FAILED',
  EXPIRED: 'FAILED',
};

/** Seconds counted down before a photo that the person cannot take themselves while doing it (eyes closed). */
const COUNTDOWN: Record<string, number> = { BLINK: 3 };

/** What the person does next: the reference selfie, or a challenge's next photo. */
function nextMove(
  session: Session,
): { kind: 'reference' } | { kind: 'challenge'; index: number; challenge: Challenge; frame: number } | null {
  if (session.isComplete) return null;
  if (!session.referenceSelfieReceived) return { kind: 'reference' };
  const index = session.challenges.findIndex((c) => c.outcome === 'PENDING' && c.framesReceived < c.framesRequired);
  if (index < 0) return null;
  const challenge = session.challenges[index]!;
  return { kind: 'challenge', index, challenge, frame: challenge.framesReceived + 1 };
}

export function LivenessStep({ api, flow, progress, save, onStatus, onContinue }: StepProps) {
  const t = useT();
  const [session, setSession] = useState<Session | null>(null);
  const [token, setToken] = useState<string | null>(progress.liveness?.token ?? null);
  const [loading, setLoading] = useState(!!progress.liveness);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const sessionId = session?.id ?? progress.liveness?.id ?? null;
  const open = session ? !session.isComplete : !!progress.liveness;

  useEffect(() => {
    if (!sessionId || !open) return;
    return follow<Session>({
      api,
      id: sessionId,
      query: LIVENESS_QUERY,
      subscription: LIVENESS_UPDATED,
      field: 'livenessSession',
      final: (s) => s.isComplete,
      onNode: (node) => {
        setLoading(false);
        setSession((current) => (current && moves(current) > moves(node) ? current : node));
        onStatus(STEP_STATUS[node.status], node.id);
      },
      onError: (error) => {
        setLoading(false);
        setProblem(describe(error));
      },
    });
  }, [api, sessionId, open]);

  async function start() {
    setProblem(null);
    setBusy(true);
    try {
      const data = await api.request(CREATE_LIVENESS, { input: { userId: flow.userId } });
      const refused = userError(data.createLivenessSession.userErrors);
      if (refused) throw refused;
      const created = data.createLivenessSession.livenessSession as Session;
      save({ liveness: { id: created.id, token: data.createLivenessSession.sessionToken } });
      setToken(data.createLivenessSession.sessionToken);
      setSession(created);
      onStatus('IN_PROGRESS', created.id);
    } catch (error) {
      setProblem(describe(error));
    } finally {
      setBusy(false);
    }
  }

  async function send(photo: Blob) {
    const move = session && nextMove(session);
    if (!move || !token) return;
    setProblem(null);
    setBusy(true);
    try {
      const data =
        move.kind === 'reference'
          ? (await api.request(REFERENCE_SELFIE, { input: { sessionToken: token, selfie: photo } })).submitLivenessReferenceSelfie
          : (await api.request(CHALLENGE_PHOTO, { input: { sessionToken: token, challengeId: move.challenge.id, photo } }))
              .submitLivenessChallenge;
      const refused = userError(data.userErrors);
      if (refused) throw refused;
      const next = data.livenessSession as Session;
      setSession(next);
      onStatus(STEP_STATUS[next.status], next.id);
    } catch (error) {
      setProblem(describe(error));
    } finally {
      setBusy(false);
    }
  }

  function retry() {
    save({ liveness: undefined });
    setSession(null);
    setToken(null);
    void start();
  }

  if (loading) {
    return (
      <Screen title={t('liveness.title')} name="loading">
        <Status busy>{t('liveness.resuming')}</Status>
      </Screen>
    );
  }

  if (!session || !token) {
    return (
      <Screen title={t('liveness.title')} name="intro">
        <p>{t('liveness.intro')}</p>
        <ul className="tips">
          <li>{t('liveness.tip.light')}</li>
          <li>{t('liveness.tip.alone')}</li>
          <li>{t('liveness.tip.face')}</li>
        </ul>
        <Alert problem={problem} />
        <button type="button" className="primary" onClick={start} disabled={busy}>
          {t('liveness.start')}
        </button>
      </Screen>
    );
  }

  if (session.isComplete) {
    return (
      <Screen title={t('liveness.title')} name={`done-${session.status}`}>
        {session.status === 'PASSED' ? (
          <Outcome kind="passed" message="liveness.passed" onContinue={onContinue} />
        ) : (
          <Outcome
            kind="failed"
            message="liveness.failed"
            reasons={[livenessFailure(session.result?.failureReason ?? (session.status === 'EXPIRED' ? 'SESSION_EXPIRED' : null))]}
            onContinue={onContinue}
            onRetry={retry}
          />
        )}
      </Screen>
    );
  }

  const move = nextMove(session);
  const total = session.challenges.length;
  let title: string;
  let instruction: string;
  let countdown = 0;
  if (!move || move.kind === 'reference') {
    title = t('liveness.reference.title');
    instruction = t('liveness.reference.hint');
  } else {
    title = t('liveness.challenge.title', { current: move.index + 1, total });
    const key: MessageKey | null =
      move.challenge.type === 'NOD'
        ? messageKey(`liveness.challenge.NOD.${move.frame}`)
        : messageKey(`liveness.challenge.${move.challenge.type}`);
    instruction = key ? t(key) : t('liveness.challenge.other');
    countdown = COUNTDOWN[move.challenge.type] ?? 0;
  }
  const name = move?.kind === 'challenge' ? `challenge-${move.challenge.id}-${move.frame}` : 'reference';
  return (
    <Screen title={title} name={name}>
      <p className="instruction">{instruction}</p>
      <Alert problem={problem} />
      <Camera
        facing="user"
        guide="face"
        takeLabel={t('camera.take')}
        countdown={countdown}
        busy={busy}
        onPhoto={send}
        onUnavailable={(key) => setProblem({ key })}
      />
      {busy && <Status busy>{t('liveness.sending')}</Status>}
    </Screen>
  );
}

/** How far a session has gone: a late event never takes the page back. */
const moves = (s: Session) =>
  (s.referenceSelfieReceived ? 1 : 0) + s.challenges.reduce((n, c) => n + c.framesReceived, 0) + (s.isComplete ? 100 : 0);
