import type { Order } from '@passada/core/contracts/orders';
import { trackingUrl } from '@passada/core/contracts/painel-orders';
import { centsToReais } from '@passada/core/money';
import type { FastifyBaseLogger } from 'fastify';
import type { Env } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import { runInJob } from '../../jobs/job-context.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { conflict, HttpError, notFound } from '../../plugins/errors.ts';
import type { MailProvider } from '../../providers/mail/mail.provider.ts';
import type { PaymentsService } from '../payments/payments.service.ts';
import type { RegistrationsCart } from '../registrations/registrations.service.ts';
import { parseStoredDraft, paymentMethodOf, shippingServiceOf } from './order-draft.ts';
import { orderConfirmationMail, orderStatusMail } from './order-mail.ts';
import * as repo from './orders.repository.ts';
import * as returnsRepo from './returns.repository.ts';

/**
 * What the buyer reads of the orders (`GET /api/orders/`, the answer after paying) and the e-mails about
 * them (the confirmation, once, and the status notices), apart from the order purpose's pricing and
 * fulfilment in orders.service.ts.
 */
export interface OrderReadsDeps {
  db: Db;
  env: Pick<Env, 'STORE_NAME' | 'publicUrl'>;
  log: FastifyBaseLogger;
  mail: MailProvider;
  payments: Pick<PaymentsService, 'status' | 'chargeById' | 'paidAndRefunded'>;
  registrations: Pick<RegistrationsCart, 'ofOrders'>;
}

export function createOrderReads(deps: OrderReadsDeps) {
  /**
   * The confirmation e-mail: the order's summary to its buyer, once. Its send is recorded in the message
   * log under one key per order (`pedido-<id>-confirmacao`), whoever sends it: the job
   * `mail.order-confirmation`, or a later e-mail sending it first (`confirmFirst`); the second finds it
   * sent. Once sent (or with nobody to write to) the order's `confirmationPending` is cleared.
   */
  async function sendConfirmation(orderId: number): Promise<void> {
    const row = await repo.findOrder(deps.db, orderId);
    // The job was committed with the order, so the confirming transaction has ended: a plain read.
    const charge = row ? await deps.payments.chargeById(row.chargeId) : null;
    if (!row || !charge) return;
    const draft = parseStoredDraft(charge.draft);
    // The account was deleted (its personal data cleared): nobody to write to.
    if (draft.buyer) {
      // The e-mail says what was bought and paid, as it was bought (nothing withdrawn taken off).
      const [order] = await toOrders([row], { asBought: true });
      const message = orderConfirmationMail({
        env: deps.env,
        order: order!,
        buyer: draft.buyer,
        ...(draft.shipping ? { shipping: draft.shipping } : {}),
      });
      await runInJob(
        { name: 'mail.order-confirmation', id: `pedido-${orderId}-confirmacao`, attempt: 1 },
        () => deps.mail.send(message),
      );
      deps.log.info({ orderId }, 'order confirmation mail sent');
    }
    if (row.confirmationPending) await repo.confirmationSent(deps.db, orderId);
  }

  /**
   * Before any later e-mail about an order (a withdrawal, a return, a cancellation): its confirmation,
   * while still pending, is sent first, so the buyer never reads of a change before the purchase.
   */
  async function confirmFirst(orderId: number): Promise<void> {
    const row = await repo.findOrder(deps.db, orderId);
    if (row?.confirmationPending) await sendConfirmation(orderId);
  }

  /**
   * The status e-mail job. It says where the order stands when sent, so a retry after a later move
   * tells the newer news instead of the old one; `status` only names the move that asked for it.
   */
  async function sendStatusNotice(orderId: number, status: string): Promise<void> {
    const row = await repo.findOrder(deps.db, orderId);
    const charge = row ? await deps.payments.chargeById(row.chargeId) : null;
    if (!row || !charge || row.status !== status) return;
    const draft = parseStoredDraft(charge.draft);
    if (!draft.buyer) return;
    await confirmFirst(orderId);
    const [order] = await toOrders([row]);
    const message = orderStatusMail({ env: deps.env, order: order!, buyer: draft.buyer });
    if (!message) return;
    await deps.mail.send(message);
    deps.log.info({ orderId, status }, 'order status mail sent');
  }

  /**
   * The orders as the buyer reads them: each line with the units still in the order (units withdrawn
   * before shipping never ship, docs/decisions/0036, later), a line wholly withdrawn left out, and what
   * went back (`reembolsado`) and each move after payment (`andamento`). `asBought` answers the lines as bought (the confirmation e-mail).
   */
  async function toOrders(rows: repo.OrderRow[], opts: { asBought?: boolean } = {}): Promise<Order[]> {
    const ids = rows.map((r) => r.id);
    const [items, withdrawn, refunded, moves, additions] = await Promise.all([
      repo.findItems(deps.db, ids),
      opts.asBought ? new Map<number, number>() : returnsRepo.unitsWithdrawn(deps.db, ids),
      deps.payments.paidAndRefunded(
        deps.db,
        rows.map((r) => r.chargeId),
      ),
      repo.listMovesOf(deps.db, ids),
      repo.findComplements(deps.db, ids),
    ]);
    const refundedOf = new Map(refunded.map((c) => [c.chargeId, c.refundedCents]));
    const movesOf = new Map<number, typeof moves>();
    for (const m of moves) movesOf.set(m.orderId, [...(movesOf.get(m.orderId) ?? []), m]);
    const registrations = await deps.registrations.ofOrders(ids);
    return rows.map((row) => ({
      id: row.id,
      reembolsado: centsToReais(refundedOf.get(row.chargeId) ?? 0),
      items: items
        .filter((i) => i.orderId === row.id)
        .map((i) => ({ ...i, quantity: i.quantity - (withdrawn.get(i.id) ?? 0) }))
        .filter((i) => i.quantity > 0)
        .map((i) => ({
          item_id: i.id,
          product: i.productId,
          product_image: i.productImage,
          product_name: i.productName,
          product_price: centsToReais(i.productPriceCents),
          quantity: i.quantity,
          product_size: i.sizeName,
          product_color: i.colorName,
        })),
      frete: centsToReais(row.shippingCents),
      servico_frete: shippingServiceOf(row),
      preco_juros: centsToReais(row.totalCents),
      juros: centsToReais(row.interestCents),
      subtotal: centsToReais(row.subtotalCents),
      total: centsToReais(row.totalCents),
      parcelas: row.installments,
      metodo_pagamento: paymentMethodOf(row),
      status: row.status,
      order_date: row.orderDate.toISOString(),
      // Each move after payment and when (never who moved it): the dates of the buyer's timeline. Only
      // once the order moved: the spec's order shape stays as it was until then.
      ...(movesOf.has(row.id)
        ? { andamento: movesOf.get(row.id)!.map((m) => ({ status: m.status, em: m.at.toISOString() })) }
        : {}),
      address: row.address,
      ...(registrations.has(row.id) ? { inscricoes: registrations.get(row.id) } : {}),
      // Only once shipped: the spec's order shape stays as it was until there is something to track.
      ...(row.trackingCode
        ? { codigo_rastreio: row.trackingCode, rastreio_url: trackingUrl(row.trackingCode) }
        : {}),
      ...(row.couponCode ? { cupom: row.couponCode, desconto: centsToReais(row.discountCents) } : {}),
      // docs/decisions/0087: an addition names the order it travels with; an order, its paid additions.
      ...(row.complementOfId !== null ? { complemento_de: row.complementOfId } : {}),
      ...(additions.some((a) => a.complementOfId === row.id)
        ? {
            complementos: additions
              .filter((a) => a.complementOfId === row.id && a.status !== 'cancelado')
              .map((a) => a.id),
          }
        : {}),
    }));
  }

  /**
   * The browser's `POST /api/orders/` after paying: the order already exists (the payment's
   * confirmation created it, once); this answers it when the user's charge is paid. An ATIVA Pix is
   * first checked with the provider, covering a webhook that has not arrived yet.
   */
  async function orderForPaidCharge(user: AuthUser, txid: string): Promise<Order> {
    // What the charge paid for is read below with the order itself (one query, by charge and owner).
    const state = await deps.payments.status(user, txid, { withFulfilled: false });
    if (state.purpose !== 'order') throw notFound('Cobrança não encontrada.');
    if (state.status === 'ATIVA' || state.status === 'EM_ANALISE')
      throw new HttpError(
        402,
        'O pagamento ainda não foi confirmado. Aguarde a confirmação e tente novamente.',
        'pagamento_pendente',
      );
    if (state.status === 'DEVOLVIDA')
      throw conflict(
        `Este pagamento foi devolvido: ${state.reason ?? 'não foi possível concluir o pedido.'}`,
        'pagamento_devolvido',
      );
    if (state.status !== 'CONCLUIDA')
      throw conflict(
        'Esta cobrança não foi paga (expirada, recusada ou cancelada). Faça o pedido novamente.',
        'cobranca_nao_paga',
      );
    const row = await repo.findOwnedOrderByCharge(deps.db, user.id, state.chargeId);
    if (!row) throw notFound('Pedido não encontrado.');
    const [order] = await toOrders([row]);
    return order!;
  }

  async function listOrders(userId: number): Promise<Order[]> {
    return toOrders(await repo.listOrdersByUser(deps.db, userId));
  }

  return { sendConfirmation, confirmFirst, sendStatusNotice, toOrders, orderForPaidCharge, listOrders };
}
