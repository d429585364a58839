import { useEffect, useRef, useState } from 'react';

/** Screen readers hear the time left only at these marks (seconds), not at every tick. */
const ANNOUNCED: ReadonlyArray<readonly [number, string]> = [
  [300, 'Faltam 5 minutos para o Pix expirar.'],
  [60, 'Falta 1 minuto para o Pix expirar.'],
];
export const PIX_EXPIRED_ANNOUNCEMENT = 'Pix expirado. Gere um novo Pix para pagar.';

/** Whole seconds left until `deadline` (ms since the epoch), never below 0. */
export function secondsLeft(deadline: number, now: number): number {
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}

/** 899 → "14:59"; an hour or more → "1:00:00". */
export function formatCountdown(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${String(m).padStart(2, '0')}:${s}`;
}

/**
 * Seconds left until the provider's deadline (`expira_em`, from the server), counted on this device's
 * clock and read again every second until it reaches 0; null without a charge.
 */
export function useSecondsLeft(expiresAt: string | undefined): number | null {
  const deadline = expiresAt ? Date.parse(expiresAt) : null;
  const [, setTick] = useState(0);
  useEffect(() => {
    if (deadline === null) return;
    const timer = setInterval(() => {
      setTick((n) => n + 1);
      if (Date.now() >= deadline) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [deadline]);
  return deadline === null ? null : secondsLeft(deadline, Date.now());
}

/**
 * "Expira em 14:59", updated each second but silent for screen readers (a timer is not read as it
 * changes); a status line says only when 5 minutes and 1 minute are left, and when it expired.
 */
export function PixCountdown({ secondsLeft: left }: { secondsLeft: number }) {
  const [announcement, setAnnouncement] = useState<string | null>(null);
  const previous = useRef(left);
  useEffect(() => {
    const before = previous.current;
    previous.current = left;
    if (left === 0) {
      if (before > 0) setAnnouncement(PIX_EXPIRED_ANNOUNCEMENT);
      return;
    }
    // After a long pause (a sleeping tab) only the nearest mark is said.
    const crossed = ANNOUNCED.filter(([mark]) => before > mark && left <= mark).at(-1);
    if (crossed) setAnnouncement(crossed[1]);
  }, [left]);
  return (
    <>
      {left > 0 ? (
        <p role="timer" aria-live="off" className="font-medium">
          Expira em <span className="tabular-nums">{formatCountdown(left)}</span>
        </p>
      ) : null}
      <p role="status" className="sr-only">
        {announcement}
      </p>
    </>
  );
}
