import { RESULT_STATUS_LABEL, type ResultStatus } from '@passada/core/results';

/** "3º de 120", or "—" without a place (DNF, DSQ, DNS). */
export function placeOutOf(place: number | null, total: number): string {
  return place === null ? '—' : `${place}º de ${total}`;
}

/** The time a results line shows: net time when the timer gave one, else gun time; the status otherwise. */
export function shownTime(row: {
  situacao: ResultStatus;
  tempo_bruto: string | null;
  tempo_liquido: string | null;
}) {
  if (row.situacao !== 'OK') return RESULT_STATUS_LABEL[row.situacao];
  return row.tempo_liquido ?? row.tempo_bruto ?? '—';
}

/** "M35-39" as people read it: "Masculino, 35 a 39 anos". */
export function describeAgeGroup(group: string): string {
  const m = /^([A-Z])(\d+)-(\d+)$/.exec(group);
  if (!m) return group;
  const who = m[1] === 'F' ? 'Feminino' : m[1] === 'M' ? 'Masculino' : '';
  return `${who ? `${who}, ` : ''}${m[2]} a ${m[3]} anos`;
}
