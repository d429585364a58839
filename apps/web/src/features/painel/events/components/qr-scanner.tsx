import { useEffect, useRef, useState } from 'react';

interface Detector {
  detect(source: HTMLVideoElement): Promise<Array<{ rawValue: string }>>;
}
declare global {
  interface Window {
    BarcodeDetector?: new (options: { formats: string[] }) => Detector;
  }
}

/**
 * The phone's back camera reading QR codes: the browser's own detector where it has one (Android
 * Chrome), jsQR otherwise. Calls `onCode` once per code until the same code leaves the frame.
 */
export function QrScanner({ onCode }: { onCode(text: string): void }) {
  const video = useRef<HTMLVideoElement>(null);
  const [error, setError] = useState<string | null>(null);
  const callback = useRef(onCode);
  callback.current = onCode;

  useEffect(() => {
    let stream: MediaStream | null = null;
    let timer = 0;
    let stopped = false;
    let last = '';
    const canvas = document.createElement('canvas');
    const start = async () => {
      try {
        stream = await navigator.mediaDevices.getUserMedia({
          video: { facingMode: 'environment' },
          audio: false,
        });
      } catch {
        setError('Não foi possível abrir a câmera. Permita o acesso ou busque pelo nome.');
        return;
      }
      const el = video.current;
      if (!el || stopped) return;
      el.srcObject = stream;
      await el.play().catch(() => undefined);
      const native = window.BarcodeDetector ? new window.BarcodeDetector({ formats: ['qr_code'] }) : null;
      const jsQR = native ? null : (await import('jsqr')).default;
      const tick = async () => {
        if (stopped) return;
        let text = '';
        if (el.videoWidth > 0) {
          if (native) {
            text = (await native.detect(el).catch(() => []))[0]?.rawValue ?? '';
          } else if (jsQR) {
            canvas.width = el.videoWidth;
            canvas.height = el.videoHeight;
            const ctx = canvas.getContext('2d', { willReadFrequently: true });
            ctx?.drawImage(el, 0, 0);
            const frame = ctx?.getImageData(0, 0, canvas.width, canvas.height);
            text = frame ? (jsQR(frame.data, frame.width, frame.height)?.data ?? '') : '';
          }
        }
        if (text && text !== last) callback.current(text);
        last = text;
        timer = window.setTimeout(tick, 250);
      };
      void tick();
    };
    void start();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
  }, []);

  return (
    <div>
      <video
        ref={video}
        muted
        playsInline
        className="w-full max-w-sm rounded-lg bg-black"
        aria-label="Câmera"
      />
      {error ? (
        <p role="alert" className="text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
