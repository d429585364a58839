import { plural } from '@passada/core/plural';
import { useQuery } from '@tanstack/react-query';
import { formatReais } from '../../../components/price.tsx';
import { ProductLineSummary } from '../../../components/product-line.tsx';
import { QuantityStepper } from '../../../components/quantity-stepper.tsx';
import { stockQuery } from '../../../lib/stock-api.ts';
import { itemKey, type ReviewItem } from '../utils/order-draft.ts';

interface OrderItemsProps {
  items: readonly ReviewItem[];
  onRemove(key: string): void;
  onQuantityChange(key: string, quantity: number): void;
  disabled: boolean;
}

function OrderItem({
  item,
  onRemove,
  onQuantityChange,
  disabled,
}: Omit<OrderItemsProps, 'items'> & { item: ReviewItem }) {
  const key = itemKey(item);
  // The stepper stops at the units in stock, so the shortage shows here and not at payment.
  const stock = useQuery(stockQuery(item.product, item.color, item.size));
  const name = item.product_name;
  return (
    <li className="flex flex-wrap items-center gap-3 border-b border-stone-200 pb-3 dark:border-stone-800">
      <ProductLineSummary
        image={item.product_image}
        name={name}
        color={item.product_color}
        size={item.product_size}
        quantity={item.quantity}
        imageSize={64}
      >
        <p className="font-bold">{formatReais(item.product_price)}</p>
      </ProductLineSummary>
      <div className="flex items-start gap-3">
        <QuantityStepper
          value={item.quantity}
          stock={stock.data ?? null}
          onChange={(next) => onQuantityChange(key, next)}
          subject={`quantidade de ${name}`}
          disabled={disabled}
        />
        <button
          type="button"
          disabled={disabled}
          onClick={() => onRemove(key)}
          aria-label={`Remover ${name}`}
          className="h-10 rounded-md border border-stone-300 px-3 text-sm font-medium hover:bg-stone-100 disabled:opacity-50 dark:border-stone-700 dark:hover:bg-stone-800"
        >
          Remover
        </button>
      </div>
      {/* While a charge is open its own hold lowers the stock: only warn when the shopper can still edit. */}
      {!disabled && stock.data !== undefined && stock.data < item.quantity ? (
        <p role="alert" className="w-full text-sm font-medium text-red-700 dark:text-red-400">
          {stock.data === 0
            ? 'Esta cor e tamanho esgotou: remova o item para continuar.'
            : `Só há ${plural(stock.data, 'unidade', 'unidades')} desta cor e tamanho: diminua a quantidade.`}
        </p>
      ) : null}
    </li>
  );
}

/** The items under review, each changeable before paying (Decreto 7.962: the buyer may correct the order). */
export function OrderItems({ items, ...actions }: OrderItemsProps) {
  return (
    <ul aria-label="Itens do pedido" className="flex flex-col gap-3">
      {items.map((item) => (
        <OrderItem key={itemKey(item)} item={item} {...actions} />
      ))}
    </ul>
  );
}
