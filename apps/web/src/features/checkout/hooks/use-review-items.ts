import { useMemo, useState } from 'react';
import { cart, lineKey, useCart } from '../../../lib/cart.ts';
import { removeKey, StorageKeys } from '../../../lib/storage.ts';
import {
  cartLineToItem,
  itemKey,
  type ReviewItem,
  readOrderData,
  type StoredOrderData,
  writeOrderData,
} from '../utils/order-draft.ts';

/**
 * The items under review: a "buy now" draft when one is stored, else the cart. Removing an item
 * edits whichever of the two it came from.
 */
export function useReviewItems() {
  const cartLines = useCart();
  const [orderData, setOrderData] = useState<StoredOrderData | null>(() => readOrderData());
  const items: ReviewItem[] = useMemo(
    () => (orderData ? orderData.items : cartLines.map(cartLineToItem)),
    [orderData, cartLines],
  );

  const remove = (key: string) => {
    if (orderData) {
      const next = { ...orderData, items: orderData.items.filter((i) => itemKey(i) !== key) };
      if (next.items.length === 0) {
        removeKey(StorageKeys.orderData);
        setOrderData(null);
      } else {
        writeOrderData(next);
        setOrderData(next);
      }
      return;
    }
    const line = cartLines.find((l) => lineKey(l) === key);
    if (line) cart.remove(lineKey(line));
  };

  return { items, remove };
}

/** After the order: the draft, the chosen address and the cart have all been used up. */
export function clearCheckout(): void {
  removeKey(StorageKeys.orderData);
  removeKey(StorageKeys.chosenAddress);
  cart.clear();
}
