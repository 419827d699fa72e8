import { useEffect, useRef, useState } from 'react';
import type { MessageKey } from './i18n';
import { useT } from './ui';

/**
 * The camera: a live preview with a guide drawn over it, and a button that takes a photo of the
 * next frame at the camera's full size (JPEG). The front camera's preview is mirrored, as people
 * expect; the photo is not (the API judges head turns as the camera sees them).
 */
export type Facing = 'environment' | 'user';

const CONSTRAINTS: Record<Facing, MediaTrackConstraints> = {
  // documents: the rear camera on a phone, as sharp as it goes
  environment: { facingMode: { ideal: 'environment' }, width: { ideal: 1920 }, height: { ideal: 1080 } },
  user: { facingMode: { ideal: 'user' }, width: { ideal: 1280 }, height: { ideal: 720 } },
};

/** Resolves at the next frame the video presents. */
function nextFrame(video: HTMLVideoElement): Promise<void> {
  return new Promise((resolve) => {
    if ('requestVideoFrameCallback' in video) video.requestVideoFrameCallback(() => resolve());
    else requestAnimationFrame(() => resolve());
  });
}

export async function grabPhoto(video: HTMLVideoElement): Promise<Blob> {
  await nextFrame(video);
  const canvas = document.createElement('canvas');
  canvas.width = video.videoWidth;
  canvas.height = video.videoHeight;
  canvas.getContext('2d')!.drawImage(video, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('no photo'))), 'image/jpeg', 0.92),
  );
}

export function cameraProblem(error: unknown): MessageKey {
  const name = (error as { name?: string })?.name;
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return 'camera.none';
  return 'camera.denied';
}

export interface CameraProps {
  facing: Facing;
  guide: 'document' | 'face';
  /** The button's text. */
  takeLabel: string;
  /** Seconds counted down (shown) between the press and the photo: for a movement that hides the screen (closed eyes). */
  countdown?: number;
  /** While the page sends a photo: the button waits. */
  busy?: boolean;
  onPhoto(photo: Blob): void;
  onUnavailable(problem: MessageKey): void;
}

export function Camera({ facing, guide, takeLabel, countdown = 0, busy = false, onPhoto, onUnavailable }: CameraProps) {
  const t = useT();
  const video = useRef<HTMLVideoElement>(null);
  const [ready, setReady] = useState(false);
  const [left, setLeft] = useState<number | null>(null);

  useEffect(() => {
    let stream: MediaStream | undefined;
    let stopped = false;
    (async () => {
      try {
        if (!navigator.mediaDevices?.getUserMedia) throw Object.assign(new Error('no camera'), { name: 'NotFoundError' });
        stream = await navigator.mediaDevices.getUserMedia({ video: CONSTRAINTS[facing], audio: false });
        if (stopped) return;
        const element = video.current!;
        element.srcObject = stream;
        await element.play().catch(() => undefined);
        // the first frames a camera gives can be blank: ready once it has presented two
        await nextFrame(element);
        await nextFrame(element);
        if (!stopped) setReady(true);
      } catch (error) {
        if (!stopped) onUnavailable(cameraProblem(error));
      }
    })();
    return () => {
      stopped = true;
      stream?.getTracks().forEach((track) => track.stop());
    };
    // the camera starts once per mount: a new onUnavailable does not restart it
  }, [facing]);

  async function take() {
    for (let s = countdown; s > 0; s--) {
      setLeft(s);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    setLeft(null);
    // the screen may have gone meanwhile
    if (video.current) onPhoto(await grabPhoto(video.current));
  }

  return (
    <div className="camera">
      <div className={`viewfinder ${guide}`}>
        <video ref={video} className={facing === 'user' ? 'mirrored' : undefined} muted playsInline aria-label={t('camera.preview')} />
        <div className="guide" aria-hidden="true" />
        {left !== null && (
          <p className="countdown" aria-live="assertive">
            {t('camera.countdown', { seconds: left })}
          </p>
        )}
      </div>
      {!ready && <p className="hint">{t('camera.starting')}</p>}
      <button type="button" className="primary" onClick={take} disabled={!ready || busy || left !== null}>
        {takeLabel}
      </button>
    </div>
  );
}

/** A photo chosen from the device: the fallback to the camera (and the only way for a bill). */
export function PhotoInput({
  id,
  label,
  onPhoto,
  disabled,
}: {
  id: string;
  label: string;
  onPhoto(photo: File): void;
  disabled?: boolean;
}) {
  return (
    <div className="file">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="file"
        accept="image/jpeg,image/png,image/webp,image/heic,image/heif"
        disabled={disabled}
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          event.currentTarget.value = '';
          if (file) onPhoto(file);
        }}
      />
    </div>
  );
}
