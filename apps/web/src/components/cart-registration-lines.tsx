import { formatRegistrationPrice } from '@passada/core/events';
import { useQueries } from '@tanstack/react-query';
import type { CartRegistration } from '../lib/cart-registrations.ts';
import { priceQuery } from '../lib/events-api.ts';
import { TrashIcon } from './trash-icon.tsx';

const priceOf = (line: CartRegistration) =>
  priceQuery(
    line.participant.evento,
    line.participant.categoria_evento,
    line.participant.data_nascimento,
    line.participant.regra_preco,
    // The team's price (docs/decisions/0074), as the server prices the cart's runner.
    line.participant.equipe_codigo || undefined,
  );

/**
 * The server's price of each registration in the cart (`GET /api/events/{id}/preco/`: lots, the 60+
 * half price, a special price and a team's price), and their sum in centavos once every one is known (null before, or on a failure).
 */
export function useRegistrationPrices(lines: readonly CartRegistration[]) {
  const results = useQueries({ queries: lines.map(priceOf) });
  const prices = results.map((r) => r.data?.total_centavos ?? null);
  const totalCents = prices.every((p) => p !== null)
    ? prices.reduce<number>((s, p) => s + (p ?? 0), 0)
    : null;
  return { prices, totalCents, failed: results.some((r) => r.isError) };
}

/**
 * Event registrations waiting in the cart, as the cart and the order review list them: event,
 * participant, categories, kit size and the server's price, each removable.
 */
export function CartRegistrationLines({
  lines,
  prices,
  onRemove,
  disabled = false,
}: {
  lines: readonly CartRegistration[];
  prices: ReadonlyArray<number | null>;
  onRemove(key: string): void;
  disabled?: boolean;
}) {
  return (
    <ul className="flex flex-col gap-3" aria-label="Inscrições no carrinho">
      {lines.map((line, i) => {
        const price = prices[i];
        const who = line.participant.nome_completo;
        return (
          <li
            key={line.key}
            className="flex items-start gap-3 border-b border-stone-200 pb-3 last:border-b-0 dark:border-stone-800"
          >
            <div className="min-w-0 flex-1">
              <p className="font-semibold leading-snug">Inscrição: {line.nome_evento}</p>
              <p className="text-sm text-stone-700 dark:text-stone-300">
                Participante: {who} · {line.categorias.join(', ')}
                {line.tamanho ? ` · Camisa: ${line.tamanho}` : ''}
                {line.preco_especial ? ` · Preço especial: ${line.preco_especial}` : ''}
              </p>
              <p className="font-bold">
                {price === null || price === undefined ? '…' : formatRegistrationPrice(price)}
              </p>
            </div>
            <button
              type="button"
              className="rounded-md p-1.5 text-red-700 hover:bg-red-50 disabled:opacity-40 dark:text-red-400 dark:hover:bg-red-950"
              aria-label={`Remover inscrição de ${who} (${line.nome_evento})`}
              disabled={disabled}
              onClick={() => onRemove(line.key)}
            >
              <TrashIcon />
            </button>
          </li>
        );
      })}
    </ul>
  );
}
