import type { Tx } from '../../db/client.ts';
import { badRequest } from '../../plugins/errors.ts';
import type { CatalogService } from '../catalog/catalog.service.ts';
import * as orderRepo from './orders.repository.ts';

/**
 * A list's `trocar_variante` operations (docs/decisions/0065): units of a line, not shipped yet, swapped to
 * another colour or size of the same product at the price paid. The new units are held under the order's
 * charge exactly as a new sale holds them (`reserveStock`: one conditional statement per combination, 409
 * `estoque_insuficiente` when the shelf is short, so stock that is not there is never sold), the old ones
 * go back to the shelf off the charge's hold, and the order's lines say what will ship.
 */

export interface VariantSwap {
  item: orderRepo.OrderItemRow;
  units: number;
  colorId: number;
  colorName: string;
  sizeId: number;
  sizeName: string;
}

type SwapCatalog = Pick<CatalogService, 'getProduct' | 'restock' | 'reserveStock'>;

/** Checks one swap against the catalogue: another combination of the same product that exists. */
export async function checkSwap(
  tx: Tx,
  catalog: SwapCatalog,
  item: orderRepo.OrderItemRow,
  line: { quantidade: number; cor_id: number; tamanho_id: number },
): Promise<VariantSwap> {
  if (item.colorId === line.cor_id && item.sizeId === line.tamanho_id)
    throw badRequest('Escolha outra cor ou outro tamanho para trocar.', 'troca_igual');
  const product = await catalog
    .getProduct(item.productId, { color: line.cor_id, size: line.tamanho_id }, tx)
    .catch(() => null);
  const combo = product?.stock[0];
  if (!combo)
    throw badRequest(`${item.productName} não existe nessa cor e nesse tamanho.`, 'combinacao_invalida');
  return {
    item,
    units: line.quantidade,
    colorId: combo.color.id,
    colorName: combo.color.name,
    sizeId: combo.size.id,
    sizeName: combo.size.name,
  };
}

/** How a swap reads in the order's history and e-mail. */
export const swapText = (s: VariantSwap) =>
  `${s.units}× ${s.item.productName} de ${s.item.colorName}/${s.item.sizeName} para ${s.colorName}/${s.sizeName}`;

/**
 * Writes the swaps in the caller's transaction: the old units off the charge's hold and back on the shelf,
 * the new units held (a short shelf throws and the caller's whole change rolls back), the line changed in
 * place when all its units move, else split in two at the price paid.
 */
export async function applySwaps(
  tx: Tx,
  catalog: SwapCatalog,
  order: orderRepo.OrderRow,
  swaps: VariantSwap[],
  now: Date,
): Promise<void> {
  if (!swaps.length) return;
  const note = 'Troca de cor ou tamanho antes do envio';
  await catalog.restock(
    tx,
    order.chargeId,
    swaps.map((s) => ({
      productId: s.item.productId,
      colorId: s.item.colorId,
      sizeId: s.item.sizeId,
      quantity: s.units,
    })),
    now,
    { reason: 'cancelamento', orderId: order.id, note },
  );
  await catalog.reserveStock(
    tx,
    order.chargeId,
    swaps.map((s) => ({
      productId: s.item.productId,
      colorId: s.colorId,
      sizeId: s.sizeId,
      quantity: s.units,
      label: `${s.item.productName} ${s.colorName}/${s.sizeName}`,
    })),
  );
  for (const s of swaps) await orderRepo.swapItemUnits(tx, s.item, s.units, s);
}
