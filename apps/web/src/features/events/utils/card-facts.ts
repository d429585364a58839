import type { Event } from '@passada/core/contracts/events';
import { formatIsoDateBR } from '@passada/core/events';
import { reaisToCents } from '@passada/core/money';

/**
 * The lowest price a place costs today among the event's categories that still have places, as the
 * server priced each (the lot in force, else the category's own price), in centavos; null when none has
 * places left.
 */
export function lowestPriceCents(event: Pick<Event, 'dias_evento'>): number | null {
  const prices = event.dias_evento
    .flatMap((d) => d.categorias)
    .filter((c) => c.quantidade_disponivel > 0)
    .map((c) => reaisToCents(c.lote_atual?.preco ?? c.preco_inscricao));
  return prices.length ? Math.min(...prices) : null;
}

/** Where registration stands, in the card's words: open until the deadline, sold out, or closed. */
export function registrationState(
  event: Pick<Event, 'dias_evento' | 'inscricoes_abertas' | 'prazo_inscricao'>,
): { open: boolean; text: string } {
  if (!event.inscricoes_abertas) return { open: false, text: 'Inscrições encerradas' };
  if (lowestPriceCents(event) === null) return { open: false, text: 'Esgotado' };
  return { open: true, text: `Inscrições abertas até ${formatIsoDateBR(event.prazo_inscricao)}` };
}
