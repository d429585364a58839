/**
 * A product's price at a moment (docs/decisions/0082): its sale price while the sale runs
 * (`startsAt` ≤ now < `endsAt`) and is below the list price, else the list price. `listCents` is set only
 * while on sale: the price shown struck through ("de R$ 129,90 por R$ 99,90"). A sale may be limited to
 * some colours × sizes (`only`, later note): then it is the price of those combinations alone, and the
 * product's own price (asked without a combination) stays the list price.
 */
export interface Sale {
  priceCents: number;
  startsAt: Date;
  endsAt: Date;
  /** The colours × sizes that take the sale; null or absent: every one. */
  only?: ReadonlyArray<{ colorId: number; sizeId: number }> | null;
}

/** A colour × size of a product. */
export interface Variant {
  colorId: number;
  sizeId: number;
}

/** Whether the sale is limited to some colours × sizes. */
export const isPartialSale = (sale: Sale | null): boolean => Boolean(sale?.only?.length);

export function priceAt(
  listPriceCents: number,
  sale: Sale | null,
  now: Date,
  variant?: Variant,
): { priceCents: number; listCents: number | null; endsAt: Date | null } {
  const applies =
    sale !== null &&
    (!isPartialSale(sale) ||
      (variant !== undefined &&
        sale.only!.some((c) => c.colorId === variant.colorId && c.sizeId === variant.sizeId)));
  const on =
    applies &&
    sale.priceCents < listPriceCents &&
    sale.startsAt.getTime() <= now.getTime() &&
    now.getTime() < sale.endsAt.getTime();
  return on
    ? { priceCents: sale.priceCents, listCents: listPriceCents, endsAt: sale.endsAt }
    : { priceCents: listPriceCents, listCents: null, endsAt: null };
}

/**
 * What one unit of a colour × size costs, in reais, as the catalogue answers it: the combination's own
 * price while a sale limited to it runs (`preco`), else the product's. The server charges it and the
 * storefront's cart shows it, so both read it the same way.
 */
export function unitPrice(
  product: { price: number },
  entry: { preco?: number | undefined } | undefined,
): number {
  return entry?.preco ?? product.price;
}
