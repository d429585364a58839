/**
 * A product's price at a moment (docs/decisions/0082): its sale price while the sale runs
 * (`startsAt` ≤ now < `endsAt`) and is below the list price, else the list price. `listCents` is set only
 * while on sale: the price shown struck through ("de R$ 129,90 por R$ 99,90").
 */
export interface Sale {
  priceCents: number;
  startsAt: Date;
  endsAt: Date;
}

export function priceAt(
  listPriceCents: number,
  sale: Sale | null,
  now: Date,
): { priceCents: number; listCents: number | null; endsAt: Date | null } {
  const on =
    sale !== null &&
    sale.priceCents < listPriceCents &&
    sale.startsAt.getTime() <= now.getTime() &&
    now.getTime() < sale.endsAt.getTime();
  return on
    ? { priceCents: sale.priceCents, listCents: listPriceCents, endsAt: sale.endsAt }
    : { priceCents: listPriceCents, listCents: null, endsAt: null };
}
