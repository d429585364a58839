import { formatReais } from '../../../components/price.tsx';
import { ProductLineSummary } from '../../../components/product-line.tsx';
import { itemKey, type ReviewItem } from '../utils/order-draft.ts';

/** The items under review, each removable before paying (Decreto 7.962: the buyer may correct the order). */
export function OrderItems({
  items,
  onRemove,
  disabled,
}: {
  items: readonly ReviewItem[];
  onRemove(key: string): void;
  disabled: boolean;
}) {
  return (
    <ul aria-label="Itens do pedido" className="flex flex-col gap-3">
      {items.map((item) => {
        const key = itemKey(item);
        return (
          <li
            key={key}
            className="flex items-center gap-3 border-b border-stone-200 pb-3 dark:border-stone-800"
          >
            <ProductLineSummary
              image={item.product_image}
              name={item.product_name}
              color={item.product_color}
              size={item.product_size}
              quantity={item.quantity}
              imageSize={64}
            >
              <p className="font-bold">{formatReais(item.product_price)}</p>
            </ProductLineSummary>
            <button
              type="button"
              disabled={disabled}
              onClick={() => onRemove(key)}
              aria-label={`Remover ${item.product_name}`}
              className="rounded-md border border-stone-300 px-3 py-1 text-sm font-medium hover:bg-stone-100 disabled:opacity-50 dark:border-stone-700 dark:hover:bg-stone-800"
            >
              Remover
            </button>
          </li>
        );
      })}
    </ul>
  );
}
