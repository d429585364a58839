/** yyyy-MM-dd (or an ISO timestamp) → dd/MM/yyyy; anything else → 'Data inválida.' (spec §8). */
export function formatDeliveryDate(value: string | null | undefined): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value ?? '');
  if (!m) return 'Data inválida.';
  return `${m[3]}/${m[2]}/${m[1]}`;
}
