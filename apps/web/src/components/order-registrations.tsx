import type { OrderRegistration } from '@passada/core/contracts/orders';
import { formatReais } from './price.tsx';

/**
 * The event registrations paid with an order (a cart with products and registrations), as the order
 * confirmation, the order history and the back office show them: number, participant, event,
 * categories, kit size, price, and "Cancelada" once the shop cancelled them with the order.
 */
export function OrderRegistrations({
  registrations,
  headingLevel = 3,
  orderId,
}: {
  registrations: readonly OrderRegistration[];
  headingLevel?: 2 | 3;
  /** On a page listing several orders: names the section after its order, one landmark per name. */
  orderId?: number;
}) {
  if (registrations.length === 0) return null;
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <section aria-label={orderId ? `Inscrições do pedido nº ${orderId}` : 'Inscrições'} className="mt-3">
      <Heading className="mb-2 font-semibold">Inscrições</Heading>
      <ul className="flex flex-col gap-2 text-sm">
        {registrations.map((r) => (
          <li key={r.id} className="flex flex-wrap items-baseline justify-between gap-2">
            <span>
              <span className="font-semibold">Inscrição nº {r.id}</span>: {r.nome_completo} — {r.nome_evento}{' '}
              ({r.categorias.join(', ')}){r.tamanho_camisa ? ` · Camisa ${r.tamanho_camisa}` : ''}
              {r.cancelada ? (
                <span className="ml-2 rounded bg-red-100 px-1.5 text-xs font-semibold text-red-900 dark:bg-red-900 dark:text-red-100">
                  Cancelada
                </span>
              ) : null}
            </span>
            <span className="font-semibold">{formatReais(r.total)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
