import { AddressInputSchema } from '@passada/core/contracts/accounts';
import type { OrderDraftInput, OrderDraftItem, ShippingService } from '@passada/core/contracts/orders';
import { commaStringToCents } from '@passada/core/money';
import type { FastifyInstance } from 'fastify';
import { createUserAndToken, makeAddress, type TestUser } from './accounts.ts';
import { type MadeProduct, makeProduct } from './catalog.ts';
import { makeUser, simulatePixPaid } from './payments.ts';

/** An order draft with product lines (what most tests send). */
export type ProductsDraft = OrderDraftInput & { items: OrderDraftItem[] };

export interface Buyer extends TestUser {
  addressId: number;
  zipCode: string;
}

/** A user with a token and one delivery address (Fortaleza by default). */
export async function makeBuyer(
  app: FastifyInstance,
  address: Parameters<typeof makeAddress>[0] = {},
): Promise<Buyer> {
  const user = await createUserAndToken(app);
  const made = await app.accounts.addresses.create(user.id, AddressInputSchema.parse(makeAddress(address)));
  return { ...user, addressId: made.id, zipCode: made.zip_code };
}

/**
 * A buyer without password hashing (no argon2), for tests that need dozens of them; no e-mail is
 * read back from these.
 */
export async function makeQuickBuyer(
  app: FastifyInstance,
): Promise<Pick<Buyer, 'id' | 'headers' | 'addressId' | 'zipCode'>> {
  const user = await makeUser(app);
  const made = await app.accounts.addresses.create(user.id, AddressInputSchema.parse(makeAddress()));
  return { id: user.id, headers: user.headers, addressId: made.id, zipCode: made.zip_code };
}

/** An order draft as the browser sends it under `pedido`, for the first stock entry of each product. */
export function orderDraft(
  buyer: Pick<Buyer, 'addressId'>,
  lines: Array<{ product: MadeProduct; quantity?: number; stockIndex?: number }>,
  opts: { frete?: ShippingService; metodo?: 'pix' | 'cartao' } = {},
): ProductsDraft {
  return {
    items: lines.map(({ product, quantity = 1, stockIndex = 0 }) => {
      const s = product.stock[stockIndex]!;
      return {
        product: product.id,
        quantity,
        color: s.colorId,
        size: s.sizeId,
        product_name: product.name,
        product_price: product.priceCents / 100,
        product_size: s.size,
        product_color: s.color,
      };
    }),
    address_id: buyer.addressId,
    frete: opts.frete ?? 'PAC',
    metodo_pagamento: opts.metodo ?? 'pix',
  };
}

/** Shipping for a draft, from the public quote endpoint (what the review page shows), in centavos. */
export async function quoteCents(
  app: FastifyInstance,
  zipCode: string,
  draft: ProductsDraft,
): Promise<number> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/calcular-frete/',
    payload: {
      cepDestino: zipCode,
      items: draft.items.map((i) => ({ product: i.product, quantity: i.quantity })),
    },
  });
  if (res.statusCode !== 200) throw new Error(`quote failed: ${res.statusCode} ${res.body}`);
  const q = res.json<Record<string, string>>();
  return commaStringToCents(draft.frete === 'PAC' ? q.precoFinalPAC! : q.precoFinalSEDEX!);
}

/** Products + shipping, as the review page adds them up, in centavos. */
export async function draftTotalCents(
  app: FastifyInstance,
  zipCode: string,
  draft: ProductsDraft,
  products: MadeProduct[],
): Promise<number> {
  const subtotal = draft.items.reduce(
    (sum, i) => sum + products.find((p) => p.id === i.product)!.priceCents * i.quantity,
    0,
  );
  return subtotal + (await quoteCents(app, zipCode, draft));
}

export function createOrderPix(
  app: FastifyInstance,
  headers: Record<string, string>,
  draft: OrderDraftInput,
  totalCents: number,
) {
  return app.inject({
    method: 'POST',
    url: '/api/pagar-pix/',
    headers,
    payload: { total: totalCents / 100, finalidade: 'pedido', pedido: draft },
  });
}

/** The browser's call after paying (spec section 7): the order payload plus the charge's txid. */
export function postOrder(app: FastifyInstance, headers: Record<string, string>, txid: string) {
  return app.inject({
    method: 'POST',
    url: '/api/orders/',
    headers,
    payload: { txid, order_date: new Date().toISOString(), metodo_pagamento: 'pix', items: [], frete: 0 },
  });
}

/**
 * An order paid by Pix at the simulated bank: the buyer's draft of these lines, its server total, the
 * charge's txid and the order as `GET /api/orders/` answers it.
 */
export async function paidPixOrder(
  app: FastifyInstance,
  buyer: Buyer,
  lines: Parameters<typeof orderDraft>[1],
  products: MadeProduct[],
) {
  const draft = orderDraft(buyer, lines);
  const total = await draftTotalCents(app, buyer.zipCode, draft, products);
  const created = await createOrderPix(app, buyer.headers, draft, total);
  const { txid } = created.json() as { txid: string };
  const paid = await simulatePixPaid(app, txid);
  if (paid.statusCode !== 200) throw new Error(`Pix não pago: ${paid.body}`);
  const orders = (
    await app.inject({ method: 'GET', url: '/api/orders/', headers: buyer.headers })
  ).json() as Array<{
    id: number;
    items: Array<{ item_id: number }>;
  }>;
  const order = orders.find((o) => o.id === (paid.json() as { pedido_id: number }).pedido_id);
  if (!order) throw new Error('pedido pago não encontrado');
  return { txid, total, order };
}

/**
 * The after-sale tests' world: a buyer, and a R$ 50,00 shirt in blue M and black G (10 each) and any
 * further stock lines given.
 */
export async function makeShirtAndBuyer(
  app: FastifyInstance,
  name: string,
  extraStock: Array<{ color: string; size: string; quantity: number }> = [],
) {
  const buyer = await makeBuyer(app);
  const product = await makeProduct(app.db, {
    name,
    priceCents: 5000,
    stock: [
      { color: 'Azul', size: 'M', quantity: 10 },
      { color: 'Preto', size: 'G', quantity: 10 },
      ...extraStock,
    ],
  });
  return { buyer, product };
}

/** Two of the shirt's first stock line and one of its second, paid by Pix. */
export const paidTwoLineOrder = (app: FastifyInstance, buyer: Buyer, product: MadeProduct) =>
  paidPixOrder(
    app,
    buyer,
    [
      { product, quantity: 2 },
      { product, quantity: 1, stockIndex: 1 },
    ],
    [product],
  );

/** Units on the shelf of a product's stock line `i`. */
export async function shelfUnits(app: FastifyInstance, product: MadeProduct, i: number): Promise<number> {
  const s = product.stock[i]!;
  return (await app.catalog.getProduct(product.id, { color: s.colorId, size: s.sizeId })).stock[0]!.quantity;
}

/** Staff take an order through separation and shipping to delivered (today, the app's clock). */
export async function markDelivered(
  app: FastifyInstance,
  staffHeaders: Record<string, string>,
  orderId: number,
) {
  for (const step of [
    { status: 'em separação' },
    { status: 'enviado', codigo_rastreio: 'AA123456785BR' },
    { status: 'entregue' },
  ]) {
    const res = await app.inject({
      method: 'POST',
      url: `/api/painel/orders/${orderId}/status/`,
      headers: staffHeaders,
      payload: step,
    });
    if (res.statusCode !== 200) throw new Error(`status ${step.status}: ${res.body}`);
  }
}
