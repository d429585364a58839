import type { Product } from '@passada/core/contracts/catalog';
import { WHATSAPP_CONSENT } from '@passada/core/contracts/consents';
import {
  type OrderAddress,
  type OrderDraft,
  OrderDraftSchema,
  takesAddition,
} from '@passada/core/contracts/orders';
import { commaStringToCents, reaisToCents } from '@passada/core/money';
import { plural } from '@passada/core/plural';
import { unitPrice } from '@passada/core/sale-price';
import type { FastifyBaseLogger } from 'fastify';
import type { Env } from '../../config/env.ts';
import type { Db, Tx } from '../../db/client.ts';
import type { AppJobCatalog } from '../../jobs/job-catalog.ts';
import type { Jobs } from '../../jobs/jobs.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { badRequest, conflict, notFound, validationError, zodIssues } from '../../plugins/errors.ts';
import type { MailProvider } from '../../providers/mail/mail.provider.ts';
import type { AddressesService } from '../accounts/addresses.service.ts';
import { type CatalogService, PRODUCT_NOT_FOUND, type ProductPackage } from '../catalog/catalog.service.ts';
import type { CouponsService, DraftPricer } from '../coupons/coupons.service.ts';
import {
  CannotFulfil,
  type ChargePurposeHandler,
  type PaymentsService,
} from '../payments/payments.service.ts';
import type { RegistrationsCart } from '../registrations/registrations.service.ts';
import type { ShippingService } from '../shipping/shipping.service.ts';
import { removeBought } from './cart-recovery.repository.ts';
import {
  billingAddress,
  boughtColourImage,
  itemsLabel,
  mergeLines,
  parseStoredDraft,
  type StoredOrderDraft,
  type StoredOrderItem,
} from './order-draft.ts';
import { createOrderReads } from './order-reads.ts';
import { PAYMENT_CONFIRMED } from './order-whatsapp.ts';
import * as repo from './orders.repository.ts';

export {
  billingAddress,
  parseStoredDraft,
  paymentMethodOf,
  type StoredOrderDraft,
  type StoredOrderItem,
  shippingServiceOf,
} from './order-draft.ts';

export interface OrdersServiceDeps {
  db: Db;
  env: Pick<Env, 'STORE_NAME' | 'publicUrl' | 'PAYMENTS_MAX_UNITS_PER_ITEM' | 'CART_MAX_PARTICIPANTS'>;
  now: () => Date;
  log: FastifyBaseLogger;
  mail: MailProvider;
  jobs: Pick<Jobs<AppJobCatalog>, 'send' | 'sendAll'>;
  payments: Pick<PaymentsService, 'status' | 'chargeById' | 'paidAndRefunded'>;
  catalog: Pick<CatalogService, 'getCartProducts' | 'reserveStock' | 'releaseStock' | 'confirmSale'>;
  addresses: Pick<AddressesService, 'get'>;
  shipping: Pick<ShippingService, 'quote'>;
  coupons: Pick<CouponsService, 'quote' | 'hold' | 'release' | 'confirm'>;
  registrations: RegistrationsCart;
}

/** Orders: the `order` purpose of a charge, and the orders it created (docs/architecture.md §5). */
export function createOrdersService(deps: OrdersServiceDeps) {
  type PreparedCart = Awaited<ReturnType<ChargePurposeHandler<StoredOrderDraft>['prepare']>>;
  type Products = Map<number, Product>;

  /** The cart's product lines priced from the catalogue (merged per combination, capped per charge). */
  async function priceItems(tx: Tx, draftItems: OrderDraft['items']) {
    const lines = mergeLines(draftItems);
    const cap = deps.env.PAYMENTS_MAX_UNITS_PER_ITEM;
    // One charge must not hold a whole colour × size of the shop.
    if (lines.some((l) => l.quantity > cap)) {
      const message = `Limite de ${cap} unidades por cor e tamanho em um pedido.`;
      throw badRequest(message, 'limite_de_unidades', { items: message });
    }

    const ids = [...new Set(lines.map((l) => l.product))];
    const found = await deps.catalog.getCartProducts(ids, tx);
    const products: Products = new Map(found.map((f) => [f.product.id, f.product]));
    const missing = ids.find((id) => !products.has(id));
    if (missing !== undefined)
      throw badRequest(`Produto não encontrado: ${missing}.`, 'unknown_product', {
        items: PRODUCT_NOT_FOUND,
      });
    // A product the back office hid is off sale: its page answers 404, and a cart kept from before
    // (or a hand-made request) cannot buy it.
    const hidden = found.find((f) => f.hidden);
    if (hidden)
      throw conflict(
        `${hidden.product.name} não está mais à venda. Remova-o do carrinho.`,
        'produto_indisponivel',
      );
    const items: StoredOrderItem[] = lines.map((line) => {
      const product = products.get(line.product)!;
      const combo = product.stock.find((s) => s.color.id === line.color && s.size.id === line.size);
      if (!combo) {
        const message = `${product.name} não está disponível nessa cor e tamanho.`;
        throw badRequest(message, 'unknown_combination', { items: message });
      }
      return {
        productId: product.id,
        colorId: combo.color.id,
        sizeId: combo.size.id,
        quantity: line.quantity,
        name: product.name,
        // The combination's own price while a sale limited to it runs (decision 0082, later).
        priceCents: reaisToCents(unitPrice(product, combo)),
        image: boughtColourImage(product, combo.color),
        colorName: combo.color.name,
        sizeName: combo.size.name,
      };
    });
    return { items, products, packages: found.map((f) => f.package) };
  }

  /** The delivery address (a copy) and the chosen service's quote for the products. */
  async function delivery(
    tx: Tx,
    user: AuthUser,
    addressId: number,
    frete: 'PAC' | 'SEDEX',
    items: StoredOrderItem[],
    packages: ProductPackage[],
  ) {
    // By id AND owner: another user's address id answers 404 'Endereço não encontrado.'
    const address = await deps.addresses.get(user.id, addressId, tx);
    const snapshot: OrderAddress = {
      street: address.street,
      number: address.number,
      complement: address.complement,
      neighborhood: address.neighborhood,
      city: address.city,
      state: address.state,
      zip_code: address.zip_code,
      full_name: address.full_name,
      phone: address.phone,
    };
    const quote = await deps.shipping.quote(
      {
        cepDestino: address.zip_code,
        items: items.map((i) => ({ product: i.productId, quantity: i.quantity })),
      },
      { conn: tx, packages },
    );
    const shipping =
      frete === 'PAC'
        ? {
            service: 'PAC' as const,
            priceCents: commaStringToCents(quote.precoFinalPAC),
            businessDays: quote.prazoEntregaPAC,
            latestDate: quote.dataMaximaPAC,
          }
        : {
            service: 'SEDEX' as const,
            priceCents: commaStringToCents(quote.precoFinalSEDEX),
            businessDays: quote.prazoEntregaSEDEX,
            latestDate: quote.dataMaximaSEDEX,
          };
    return { addressId: address.id, address: snapshot, shipping };
  }

  /**
   * The order an addition joins (docs/decisions/0087): the buyer's own, with something to ship, paid and
   * not shipped yet (an addition itself points to the order it travels with). Read when the charge is
   * made and again under the order's row lock when it is paid.
   */
  async function additionTarget(tx: Tx, userId: number | null, orderId: number, lock: boolean) {
    const order = lock ? await repo.lockOrder(tx, orderId) : await repo.findOrder(tx, orderId);
    if (!order || order.userId === null || (userId !== null && order.userId !== userId))
      throw notFound('Pedido não encontrado.');
    if (order.complementOfId !== null)
      throw conflict(
        `Este pedido vai junto com o pedido nº ${order.complementOfId}: acrescente os itens àquele.`,
        'acrescimo_indisponivel',
      );
    if (
      !order.address ||
      !takesAddition({ status: order.status, ships: order.shippingService !== null, isAddition: false })
    )
      throw conflict(
        order.status === 'cancelado'
          ? 'Este pedido foi cancelado: faça um pedido novo.'
          : order.shippingService === null
            ? 'Este pedido não tem nada a enviar: faça um pedido novo.'
            : 'Este pedido já foi enviado: faça um pedido novo.',
        'acrescimo_indisponivel',
      );
    return order as repo.OrderRow & { address: OrderAddress; shippingService: string };
  }

  /**
   * An addition priced from the server's data: its products at today's price, no shipping (they travel
   * in the order's parcel, to its address), no coupon and no registration (the contract refuses both).
   */
  async function priceAddition(
    tx: Tx,
    user: AuthUser,
    input: OrderDraft & { complemento_de: number },
    payerCpf: string | undefined,
  ): Promise<PreparedCart> {
    const order = await additionTarget(tx, user.id, input.complemento_de, false);
    const { items } = await priceItems(tx, input.items);
    const subtotalCents = items.reduce((sum, i) => sum + i.priceCents * i.quantity, 0);
    const units = items.reduce((sum, i) => sum + i.quantity, 0);
    const buyerCpf = input.cpf ?? order.buyerCpf ?? payerCpf;
    return {
      amountCents: subtotalCents,
      description: `Acréscimo ao pedido nº ${order.id} (${itemsLabel(units)})`,
      billingAddress: billingAddress(order.address),
      draft: {
        buyer: { name: user.fullName, email: user.email, ...(buyerCpf ? { cpf: buyerCpf } : {}) },
        items,
        address: order.address,
        subtotalCents,
        participants: [],
        complementOf: order.id,
      },
    };
  }

  /** "Pedido Passada (2 itens, 1 inscrição)". */
  function describeCart(units: number, participants: number): string {
    const parts = [
      ...(units > 0 ? [itemsLabel(units)] : []),
      ...(participants > 0 ? [plural(participants, 'inscrição', 'inscrições')] : []),
    ];
    return `Pedido ${deps.env.STORE_NAME} (${parts.join(', ')})`;
  }

  /**
   * Prices a cart from the server's data (products, shipping, the participants' registrations, the
   * coupon). `preview`: for the coupon preview, which creates nothing (see `prepareParticipant`).
   */
  async function priceCart(
    tx: Tx,
    { user, draft, payerCpf }: { user: AuthUser; draft: unknown; payerCpf?: string },
    preview: boolean,
  ): Promise<PreparedCart> {
    const parsed = OrderDraftSchema.safeParse(draft);
    if (!parsed.success) {
      throw validationError(zodIssues(parsed.error, 'pedido'), {
        title: 'Pedido inválido',
        fieldPrefix: 'pedido.',
      });
    }
    const input = parsed.data;
    if (input.complemento_de !== undefined)
      return priceAddition(tx, user, { ...input, complemento_de: input.complemento_de }, payerCpf);
    const maxParticipants = deps.env.CART_MAX_PARTICIPANTS;
    if (input.inscricoes.length > maxParticipants) {
      const message = `Limite de ${maxParticipants} inscrições em um pedido.`;
      throw badRequest(message, 'limite_de_inscricoes', { inscricoes: message });
    }
    const { items, products, packages } = await priceItems(tx, input.items);
    // Only what ships needs an address and a shipping quote (the contract asks for both then).
    const shipped =
      items.length > 0
        ? await delivery(tx, user, input.address_id!, input.frete!, items, packages)
        : undefined;
    const participants = await deps.registrations.prepare(tx, user, input.inscricoes, { preview });
    const subtotalCents = items.reduce((sum, i) => sum + i.priceCents * i.quantity, 0);
    const shippingCents = shipped?.shipping.priceCents ?? 0;
    const registrationsCents = participants.reduce((sum, p) => sum + p.draft.totalCents, 0);
    const units = items.reduce((sum, i) => sum + i.quantity, 0);
    // One shop coupon per cart; it covers products (of its categories), never shipping nor races.
    const coupon = input.cupom
      ? await deps.coupons.quote(tx, {
          code: input.cupom,
          scope: 'loja',
          userId: user.id,
          lines: items.map((i) => ({
            amountCents: i.priceCents * i.quantity,
            productCategory: products.get(i.productId)!.category,
          })),
          totalCents: subtotalCents + shippingCents,
        })
      : undefined;
    const first = participants[0]?.draft;
    const buyerCpf = input.cpf ?? payerCpf;
    return {
      amountCents: subtotalCents + shippingCents + registrationsCents - (coupon?.discountCents ?? 0),
      description: describeCart(units, participants.length),
      ...(shipped
        ? { billingAddress: billingAddress(shipped.address) }
        : first
          ? {
              billingAddress: billingAddress({
                street: first.street,
                neighborhood: first.neighborhood,
                city: first.city,
                state: first.state,
                zip_code: first.zip_code,
                full_name: first.nome_completo,
                phone: first.numero_contato,
              }),
            }
          : {}),
      draft: {
        // The CPF the buyer asked on the nota (checked by the schema), else the card holder's.
        buyer: { name: user.fullName, email: user.email, ...(buyerCpf ? { cpf: buyerCpf } : {}) },
        items,
        ...(shipped ?? {}),
        subtotalCents,
        participants: participants.map((p) => p.draft),
        ...(input.whatsapp
          ? { whatsappConsent: { version: WHATSAPP_CONSENT.version, at: deps.now().toISOString() } }
          : {}),
        ...(coupon
          ? {
              coupon: {
                couponId: coupon.couponId,
                code: coupon.code,
                discountCents: coupon.discountCents,
                label: coupon.label,
                userId: coupon.userId,
              },
            }
          : {}),
      },
    };
  }

  /**
   * The `order` purpose of a charge: prices a cart (products and event registrations), holds its
   * units, places and shirts, and turns a paid charge into one order (docs/decisions/0020).
   */
  const purpose: ChargePurposeHandler<StoredOrderDraft> = {
    prepare: (tx, input) => priceCart(tx, input, false),

    // Paid late: its participants' opening limits asked again before their places are held again.
    async recheck(tx, charge) {
      const draft = parseStoredDraft(charge.draft);
      if (draft.participants.length > 0) await deps.registrations.recheck(tx, charge, draft.participants);
    },

    async reserve(tx, chargeId, draft) {
      await deps.catalog.reserveStock(
        tx,
        chargeId,
        draft.items.map((i) => ({
          productId: i.productId,
          colorId: i.colorId,
          sizeId: i.sizeId,
          quantity: i.quantity,
          label: `${i.name} (${i.colorName}, ${i.sizeName})`,
        })),
      );
      // Places and shirts with the units: all of them held in this transaction, or none.
      await deps.registrations.hold(tx, chargeId, draft.participants ?? []);
      // The coupon's use is held with the units: of two buyers of its last use, one gets 409.
      if (draft.coupon) await deps.coupons.hold(tx, chargeId, draft.coupon);
    },

    async release(tx, chargeId) {
      // Units of a charge that became an order were sold and are never given back.
      if (await repo.findOrderIdByCharge(tx, chargeId)) return;
      await deps.catalog.releaseStock(tx, chargeId, deps.now());
      await deps.registrations.release(tx, chargeId);
      await deps.coupons.release(tx, chargeId);
    },

    async fulfil(tx, charge) {
      const draft = parseStoredDraft(charge.draft);
      // Payments refunds a charge whose personal data was cleared before it gets here; never ship blind.
      if (!draft.buyer || (draft.items.length > 0 && !draft.address))
        throw new CannotFulfil('Os dados de entrega deste pagamento foram apagados.');
      if (draft.participants.some((p) => !p.cpf))
        throw new CannotFulfil('Os dados dos participantes deste pagamento foram apagados.');
      const discountCents = draft.coupon?.discountCents ?? 0;
      const shippingCents = draft.shipping?.priceCents ?? 0;
      const registrationsCents = draft.participants.reduce((sum, p) => sum + p.totalCents, 0);
      const baseCents = draft.subtotalCents + shippingCents + registrationsCents - discountCents;
      // An addition paid once its order shipped or was cancelled has no parcel to join: the payments
      // module returns the whole payment (docs/decisions/0087).
      const joins =
        draft.complementOf === undefined
          ? null
          : await additionTarget(tx, charge.userId, draft.complementOf, true).catch((err: Error) => {
              throw new CannotFulfil(err.message);
            });
      // What was bought leaves the buyer's kept cart (docs/decisions/0072).
      if (charge.userId !== null) await removeBought(tx, charge.userId, draft.items, deps.now());
      const order = await repo.insertOrder(
        tx,
        {
          userId: charge.userId,
          chargeId: charge.id,
          status: 'pago',
          paymentMethod: charge.method,
          shippingService: joins?.shippingService ?? draft.shipping?.service ?? null,
          subtotalCents: draft.subtotalCents,
          shippingCents,
          // The card total includes the instalment interest the provider computed; Pix is the base.
          interestCents: Math.max(0, charge.amountCents - baseCents),
          totalCents: charge.amountCents,
          discountCents,
          couponCode: draft.coupon?.code ?? null,
          installments: charge.installments,
          address: draft.address ?? null,
          buyerCpf: draft.buyer.cpf ?? null,
          whatsappConsentVersion: draft.whatsappConsent?.version ?? null,
          whatsappConsentAt: draft.whatsappConsent ? new Date(draft.whatsappConsent.at) : null,
          orderDate: charge.paidAt ?? deps.now(),
          // Its e-mail is the first the buyer gets of it: later ones send it first while pending.
          confirmationPending: true,
          complementOfId: joins?.id ?? null,
        },
        draft.items.map((i) => ({
          productId: i.productId,
          productName: i.name,
          productPriceCents: i.priceCents,
          productImage: i.image,
          colorId: i.colorId,
          colorName: i.colorName,
          sizeId: i.sizeId,
          sizeName: i.sizeName,
          quantity: i.quantity,
        })),
      );
      // The hold becomes the sale (docs/decisions/0033-stock-ledger-and-daily-orders.md).
      await deps.catalog.confirmSale(tx, charge.id, order.id);
      // Whoever packs the first order reads that its parcel now carries the addition too.
      if (joins)
        await repo.insertNote(tx, {
          orderId: joins.id,
          staffName: deps.env.STORE_NAME,
          text: `Acréscimo pago (pedido nº ${order.id}): ${draft.items
            .map((i) => `${i.quantity}× ${i.name} (${i.colorName}, ${i.sizeName})`)
            .join('; ')}. Vai na mesma caixa deste pedido.`,
          at: deps.now(),
        });
      // Every participant or none: a CPF registered meanwhile throws CannotFulfil and the whole
      // payment is returned (the confirming savepoint rolls the order back with it).
      await deps.registrations.fulfil(tx, charge, draft.participants, order.id);
      if (draft.coupon) await deps.coupons.confirm(tx, charge.id);
      // The reservations stay as the record of what this charge took; the order makes them sold.
      // The e-mail is a job committed with the order: never for a rolled-back one, never lost. The
      // NF-e of the products is issued after the commit too (docs/decisions/0043), and a buyer who opted
      // in hears on WhatsApp (the Pix code went there too, docs/decisions/0050). One statement.
      await deps.jobs.sendAll(
        [
          { name: 'mail.order-confirmation', data: { orderId: order.id } },
          { name: 'fiscal.issue-order', data: { orderId: order.id } },
          ...(draft.whatsappConsent && draft.address?.phone
            ? [
                {
                  name: 'whatsapp.order-update' as const,
                  data: { orderId: order.id, what: PAYMENT_CONFIRMED },
                },
              ]
            : []),
        ],
        { tx },
      );
      return { id: order.id };
    },

    // Participants (a CPF registered meanwhile) and a coupon can refuse after the order is written; a
    // cart of products alone refuses only before (its personal data cleared), so it needs no savepoint.
    refusesAfterWriting: (draft) => (draft.participants?.length ?? 0) > 0 || Boolean(draft.coupon),

    fulfilledBy: (db, chargeId) => repo.findOrderIdByCharge(db, chargeId),

    payer: (draft) => (draft.buyer ? { ...draft.buyer, page: '/user/pedidos' } : undefined),
    whatsappContact: (draft) => {
      const phone = draft.address?.phone ?? draft.participants[0]?.numero_contato;
      if (!draft.whatsappConsent || !draft.buyer || !phone) return undefined;
      return {
        name: draft.buyer.name.split(' ')[0] ?? draft.buyer.name,
        phone,
        what: 'o seu pedido',
        consentAt: new Date(draft.whatsappConsent.at),
      };
    },

    // LGPD: what accounting keeps of a cart once the buyer's name, e-mail, address and the
    // participants' personal data go.
    withoutPersonalData: ({ items, addressId, shipping, subtotalCents, coupon, participants }) => ({
      items,
      ...(addressId !== undefined ? { addressId } : {}),
      ...(shipping ? { shipping } : {}),
      subtotalCents,
      ...(participants?.length
        ? { participants: participants.map((p) => deps.registrations.withoutPersonalData(p)) }
        : {}),
      ...(coupon ? { coupon } : {}),
    }),
  };

  // What the buyer reads of the orders, and the e-mails about them (order-reads.ts).
  const reads = createOrderReads(deps);

  /** The coupon preview: the same pricing as the charge, answered without creating anything. */
  const pricePreview: DraftPricer = async (tx, input) => {
    const { amountCents, draft } = await priceCart(tx, input, true);
    return {
      beforeCents: amountCents + (draft.coupon?.discountCents ?? 0),
      totalCents: amountCents,
      coupon: draft.coupon ?? null,
    };
  };

  return {
    purpose,
    pricePreview,
    additionTarget,
    priceItems,
    orderForPaidCharge: reads.orderForPaidCharge,
    listOrders: reads.listOrders,
    sendConfirmation: reads.sendConfirmation,
    confirmFirst: reads.confirmFirst,
    sendStatusNotice: reads.sendStatusNotice,
  };
}

export type OrdersService = ReturnType<typeof createOrdersService>;
