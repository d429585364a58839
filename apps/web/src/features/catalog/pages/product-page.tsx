import { formatStoreDateTime } from '@passada/core/calendar';
import type { Product } from '@passada/core/contracts/catalog';
import { interestFreeOffer } from '@passada/core/installments';
import { formatBRL, reaisToCents } from '@passada/core/money';
import { plural } from '@passada/core/plural';
import { photosForColor } from '@passada/core/product-photos';
import { unitPrice } from '@passada/core/sale-price';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { useAlert } from '../../../components/dialog.tsx';
import { Price } from '../../../components/price.tsx';
import { QuantityStepper } from '../../../components/quantity-stepper.tsx';
import { loginPathFor } from '../../../components/require-auth.tsx';
import { ApiRequestError } from '../../../lib/api.ts';
import { type CartLine, cart, lineKey } from '../../../lib/cart.ts';
import { useHydrated } from '../../../lib/hydration.ts';
import { useServerCartSync } from '../../../lib/server-cart-sync.tsx';
import { useSession } from '../../../lib/session.tsx';
import { stockQuery } from '../../../lib/stock-api.ts';
import { StorageKeys, writeJson } from '../../../lib/storage.ts';
import { productQuery } from '../api/products.ts';
import { OptionButtons } from '../components/option-buttons.tsx';
import { ProductGallery } from '../components/product-gallery.tsx';
import { ProductReviews } from '../components/product-reviews.tsx';
import { ProductSizing } from '../components/product-sizing.tsx';
import { ShippingCalculator } from '../components/shipping-calculator.tsx';
import { StockAlert } from '../components/stock-alert.tsx';
import { type Option, productOptions } from '../utils/options.ts';
import { isSoldOut, stockState, stockText } from '../utils/stock.ts';

const CHOOSE_FIRST = 'VOCÊ PRECISA SELECIONAR A COR E O TAMANHO ANTES!';
const SOLD_OUT = 'COMBINAÇÃO NÃO DISPONÍVEL NO MOMENDO!';
const LOGIN_TO_BUY = 'Você precisa estar logado para fazer uma compra.';

export default function ProductPage() {
  useServerCartSync();
  const { id = '' } = useParams();
  const { data: product, isPending, error } = useQuery(productQuery(id));

  if (isPending) {
    return (
      <main className="mx-auto max-w-6xl px-4 py-10">
        <p role="status">Carregando produto...</p>
      </main>
    );
  }
  if (!product) {
    const notFound = error instanceof ApiRequestError && (error.status === 404 || error.status === 400);
    return (
      <main className="mx-auto max-w-6xl px-4 py-10">
        <h1 className="text-2xl font-bold">
          {notFound ? 'Produto não encontrado.' : 'Não foi possível carregar o produto.'}
        </h1>
      </main>
    );
  }
  return <ProductDetail key={product.id} product={product} />;
}

function ProductDetail({ product }: { product: Product }) {
  const navigate = useNavigate();
  const location = useLocation();
  const { token } = useSession();
  // The server's page shows the choices; they answer once the app has taken the page over (a tap
  // before that would be lost, so they stay disabled until then).
  const ready = useHydrated();
  const [alertElement, showAlert] = useAlert();
  const [color, setColor] = useState<Option | null>(null);
  const [size, setSize] = useState<Option | null>(null);
  const [wanted, setWanted] = useState(1);
  const [added, setAdded] = useState('');
  const { colors, sizes } = productOptions(product.stock);
  const chosen = color !== null && size !== null;

  const stock = useQuery({ ...stockQuery(product.id, color?.id ?? 0, size?.id ?? 0), enabled: chosen });
  const state = stockState({
    chosen,
    pending: stock.isFetching,
    failed: stock.isError,
    quantity: stock.data,
  });
  const soldOut = isSoldOut(state);
  const known = state.kind === 'known' ? state.quantity : null;
  // A shopper who asked for 6 and then picks a combination with 2 left gets 2, not an error at payment.
  const quantity = known !== null && known > 0 ? Math.min(wanted, known) : wanted;
  // The chosen colour's photos first (docs/decisions/0034).
  const photos = photosForColor(product.photos, color, colors);

  // Spec §4: a sold-out or missing combination opens the dialog once, when the check answers.
  const warnedFor = useRef('');
  useEffect(() => {
    const combo = `${color?.id}-${size?.id}`;
    if (soldOut && warnedFor.current !== combo) {
      warnedFor.current = combo;
      showAlert(SOLD_OUT);
    }
  }, [soldOut, color, size, showAlert]);

  // A sale limited to some colours × sizes (decision 0082, later): the chosen one's own price.
  const entry =
    color && size ? product.stock.find((e) => e.color.id === color.id && e.size.id === size.id) : undefined;
  const price = unitPrice(product, entry);
  const wasPrice = entry?.preco_de ?? product.preco_de;

  const cartLine = (): CartLine | null => {
    if (!color || !size) {
      showAlert(CHOOSE_FIRST);
      return null;
    }
    if (soldOut) {
      showAlert(SOLD_OUT);
      return null;
    }
    return {
      id: product.id,
      name: product.name,
      price,
      image: photos[0]?.url ?? product.images[0] ?? '',
      quantity,
      size: size.id,
      color: color.id,
      product_size: size.name,
      product_color: color.name,
    };
  };

  const addToCart = () => {
    const line = cartLine();
    if (!line) return;
    const inCart = cart.getSnapshot().find((l) => lineKey(l) === lineKey(line))?.quantity ?? 0;
    if (known !== null && inCart + line.quantity > known) {
      showAlert(
        `Só há ${plural(known, 'unidade', 'unidades')} desta cor e tamanho, e ${inCart} já ${inCart === 1 ? 'está' : 'estão'} no seu carrinho.`,
      );
      return;
    }
    cart.add(line);
    // Worded to agree with any product name, feminine (a camiseta) or masculine (o boné).
    setAdded(`Pronto: ${line.name} (${line.product_color}, ${line.product_size}) está no seu carrinho!`);
  };

  const buyNow = () => {
    const line = cartLine();
    if (!line) return;
    if (!token) {
      showAlert(LOGIN_TO_BUY, () => navigate(loginPathFor(location)));
      return;
    }
    // The order draft of spec §3, for this one product.
    writeJson(StorageKeys.orderData, {
      user: token,
      items: [
        {
          product: line.id,
          quantity: line.quantity,
          product_name: line.name,
          product_price: line.price,
          product_image: line.image,
          size: line.size,
          color: line.color,
          product_size: line.product_size,
          product_color: line.product_color,
        },
      ],
      order_date: new Date().toISOString(),
    });
    navigate('/fechar-pedido');
  };

  const text = stockText(state);
  const offer = interestFreeOffer(reaisToCents(price));
  return (
    <main className="mx-auto grid max-w-6xl gap-8 px-4 py-10 md:grid-cols-2">
      <ProductGallery key={color?.id ?? 'todas'} photos={photos} name={product.name} />
      <div className="flex flex-col gap-5">
        <div>
          <h1 className="text-3xl font-black tracking-tight">{product.name}</h1>
          <Price
            reais={price}
            wasReais={wasPrice}
            className="mt-2 block text-2xl font-bold text-brand-800 dark:text-brand-100"
          />
          {product.promocao_ate ? (
            <p className="font-medium text-brand-800 dark:text-brand-100">
              {product.promocao_parcial ? 'Promoção em algumas cores e tamanhos até' : 'Promoção até'}{' '}
              {formatStoreDateTime(new Date(product.promocao_ate))}
            </p>
          ) : null}
          {offer ? (
            <p className="text-stone-700 dark:text-stone-300">
              ou {offer.installment}× de {formatBRL(offer.value)} sem juros no cartão
            </p>
          ) : null}
        </div>
        <p className="leading-relaxed text-stone-700 dark:text-stone-300">{product.description}</p>
        <OptionButtons
          label="Cor"
          options={colors}
          selected={color?.id ?? null}
          onSelect={(o) => setColor(o)}
          swatches
          disabled={!ready}
        />
        <OptionButtons
          label="Tamanho"
          options={sizes}
          selected={size?.id ?? null}
          onSelect={(o) => setSize(o)}
          disabled={!ready}
        />
        {ready ? <ProductSizing productId={product.id} /> : null}
        <p
          role="status"
          className={`min-h-6 font-bold ${soldOut ? 'text-red-700 dark:text-red-400' : 'text-green-800 dark:text-green-400'}`}
        >
          {text}
        </p>
        {soldOut && color && size ? (
          <StockAlert key={`${color.id}-${size.id}`} productId={product.id} color={color} size={size} />
        ) : null}
        <fieldset className="flex items-start gap-3" disabled={!ready}>
          <legend className="float-left mr-3 mt-2 font-semibold">Quantidade</legend>
          <QuantityStepper value={quantity} stock={known} onChange={setWanted} subject="quantidade" />
        </fieldset>
        <div className="flex flex-wrap gap-3">
          <button
            type="button"
            disabled={!ready}
            onClick={addToCart}
            className="rounded-lg border-2 border-brand-700 px-5 py-3 font-semibold text-brand-800 hover:bg-brand-50 dark:text-brand-100 dark:hover:bg-stone-800"
          >
            Adicionar ao carrinho
          </button>
          <button
            type="button"
            disabled={!ready}
            onClick={buyNow}
            className="rounded-lg bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800"
          >
            Comprar agora
          </button>
        </div>
        <p aria-live="polite" className="min-h-6 text-sm font-medium text-green-800 dark:text-green-400">
          {added}
        </p>
        <ShippingCalculator productId={product.id} quantity={quantity} />
      </div>
      {ready ? <ProductReviews productId={product.id} /> : null}
      {alertElement}
    </main>
  );
}
