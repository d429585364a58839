import type { OrderReturn } from '@passada/core/contracts/returns';
import type { Db, Tx } from '../../db/client.ts';
import * as orderRepo from './orders.repository.ts';
import { billingAddress } from './orders.service.ts';
import * as repo from './returns.repository.ts';

/** The order's address as a carrier's sender: street and number apart (as the card billing address). */
export function senderAddress(a: NonNullable<orderRepo.OrderRow['address']>) {
  const b = billingAddress(a);
  return { street: b.street, number: b.number, neighborhood: a.neighborhood, city: a.city, state: a.state };
}

/**
 * What the wire adds to each request (docs/decisions/0040): an exchange's side (what it sends out, the
 * difference, whether it was paid, the outbound tracking) and every state it went through.
 */
export async function exchangeAndHistory(
  db: Db | Tx,
  rows: repo.ReturnRow[],
): Promise<Map<number, Pick<OrderReturn, 'troca' | 'historico'>>> {
  const ids = rows.map((r) => r.id);
  const [items, events] = await Promise.all([
    repo.listExchangeItems(db, ids),
    repo.listReturnEvents(db, ids),
  ]);
  const orderItems = await orderRepo.findItems(db, [...new Set(rows.map((r) => r.orderId))]);
  const names = new Map(orderItems.map((i) => [i.id, i.productName]));
  return new Map(
    rows.map((r) => [
      r.id,
      {
        troca:
          r.kind === 'troca'
            ? {
                itens: items
                  .filter((i) => i.returnId === r.id)
                  .map((i) => ({
                    item_id: i.orderItemId,
                    produto: names.get(i.orderItemId) ?? '',
                    cor: i.colorName,
                    tamanho: i.sizeName,
                    quantidade: i.quantity,
                  })),
                diferenca: r.differenceCents / 100,
                diferenca_paga: r.differenceCents <= 0 || r.differenceChargeId !== null,
                codigo_rastreio: r.exchangeTrackingCode,
              }
            : null,
        historico: events
          .filter((e) => e.returnId === r.id)
          .map((e) => ({ status: e.status, em: e.at.toISOString(), nota: e.note })),
      },
    ]),
  );
}
