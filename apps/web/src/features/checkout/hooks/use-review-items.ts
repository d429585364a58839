import { useMemo, useState } from 'react';
import { cart, lineKey, useCart } from '../../../lib/cart.ts';
import { cartRegistrations } from '../../../lib/cart-registrations.ts';
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
 * The items under review: a "buy now" draft when one is stored, else the cart. Removing an item or
 * changing its quantity edits whichever of the two it came from.
 */
export function useReviewItems() {
  const cartLines = useCart();
  const [orderData, setOrderData] = useState<StoredOrderData | null>(() => readOrderData());
  const items: ReviewItem[] = useMemo(
    () => (orderData ? orderData.items : cartLines.map(cartLineToItem)),
    [orderData, cartLines],
  );

  /** Edits whichever list the items came from: the "buy now" draft or the cart. */
  const update = (key: string, change: (items: ReviewItem[]) => ReviewItem[]) => {
    if (orderData) {
      const next = { ...orderData, items: change(orderData.items) };
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
    if (!line) return;
    const [changed] = change([cartLineToItem(line)]);
    if (changed) cart.setQuantity(key, changed.quantity);
    else cart.remove(key);
  };

  const remove = (key: string) => update(key, (list) => list.filter((i) => itemKey(i) !== key));
  const setQuantity = (key: string, quantity: number) =>
    update(key, (list) => list.map((i) => (itemKey(i) === key ? { ...i, quantity } : i)));

  /** A "buy now" draft is bought alone; the cart's registrations wait for the cart. */
  return { items, remove, setQuantity, buyingNow: orderData !== null };
}

/**
 * After the order: the draft, the chosen address, its shipping, the cart and the registrations in it
 * (participants' personal data) have all been used up.
 */
export function clearCheckout(): void {
  removeKey(StorageKeys.orderData);
  removeKey(StorageKeys.chosenAddress);
  removeKey(StorageKeys.shipping);
  cart.clear();
  cartRegistrations.clear();
}
