/**
 * Waves (ondas de largada) by estimated finish time (docs/decisions/0066). A category's waves are in
 * order, fastest first; each takes runners whose estimate is at most its bound (`upToSeconds`), the last
 * has no bound and takes everyone else. A wave with a cap that is full passes the runner to the next one
 * (fill, then roll over); the last wave has no cap, so a paid place always gets a wave.
 */
export interface WaveBound {
  upToSeconds: number | null;
}

/** An estimate typed as `h:mm` or `h:mm:ss` ("0:55", "1:45:30"), in seconds; null when it is not one. */
export function parseEstimatedTime(text: string): number | null {
  const m = /^(\d{1,2}):([0-5]\d)(?::([0-5]\d))?$/.exec(text.trim());
  if (!m) return null;
  const seconds = (Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3] ?? 0);
  return seconds > 0 && seconds < 24 * 3600 ? seconds : null;
}

/** "0:55" or "1:45:30": an estimate or a wave's bound as the forms and the ticket show it. */
export function formatEstimatedTime(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const base = `${h}:${String(m).padStart(2, '0')}`;
  return s ? `${base}:${String(s).padStart(2, '0')}` : base;
}

/**
 * The waves to try for an estimate, as indexes in order: the first whose bound holds it, then each
 * slower one. Without an estimate only the last wave (runners who state none start at the back).
 */
export function waveCandidates(waves: readonly WaveBound[], estimateSeconds: number | null): number[] {
  if (!waves.length) return [];
  const last = waves.length - 1;
  if (estimateSeconds === null) return [last];
  const first = waves.findIndex((w) => w.upToSeconds === null || estimateSeconds <= w.upToSeconds);
  const start = first === -1 ? last : first;
  return Array.from({ length: waves.length - start }, (_, i) => start + i);
}

/**
 * What is wrong with a category's waves as the organiser wrote them, or null: at least one; bounds
 * rising; the last without a bound nor a cap (it takes whoever did not fit before).
 */
export function wavesProblem(
  waves: ReadonlyArray<{ upToSeconds: number | null; capacity: number | null }>,
): string | null {
  if (!waves.length) return null;
  const last = waves[waves.length - 1]!;
  if (last.upToSeconds !== null || last.capacity !== null)
    return 'A última onda recebe quem não coube nas anteriores: deixe-a sem tempo limite e sem limite de vagas.';
  for (let i = 0; i < waves.length - 1; i++) {
    const bound = waves[i]!.upToSeconds;
    if (bound === null) return 'Só a última onda fica sem tempo limite.';
    const previous = i > 0 ? waves[i - 1]!.upToSeconds! : 0;
    if (bound <= previous) return 'Os tempos limite das ondas devem crescer da primeira para a última.';
  }
  return null;
}
