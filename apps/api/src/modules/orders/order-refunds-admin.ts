import type { OrderRefundPart, OrderRefunds } from '@passada/core/contracts/returns';
import { centsToReais, reaisToCents } from '@passada/core/money';
import type { Db, Tx } from '../../db/client.ts';
import { conflict, notFound } from '../../plugins/errors.ts';
import type { PaymentsService, RefundRow } from '../payments/payments.service.ts';
import * as orderRepo from './orders.repository.ts';
import { paymentMethodOf } from './orders.service.ts';

export interface OrderRefundsAdminDeps {
  db: Db;
  payments: Pick<PaymentsService, 'refundPart' | 'refundable' | 'refundsOf' | 'chargeById'>;
}

/** Our id of the n-th refund of an order asked from its page (1–35 alphanumerics, Efí's rule). */
export const orderRefundId = (orderId: number, n: number) => `ord${orderId}n${n}`;

/**
 * The back office's order page, partial refunds (docs/decisions/0040): what the payment was, what went
 * back and what is left, every refund row (who, when, status, the provider's id), and a refund of any amount
 * up to what is left, through `refundPart` (the charge's row lock keeps paid − refunded ≥ 0).
 */
export function createOrderRefundsAdmin(deps: OrderRefundsAdminDeps) {
  async function summary(orderId: number): Promise<OrderRefunds> {
    const order = await orderRepo.findOrder(deps.db, orderId);
    if (!order) throw notFound('Pedido não encontrado.');
    const [charge, money, rows] = await Promise.all([
      deps.payments.chargeById(order.chargeId),
      deps.payments.refundable(order.chargeId),
      deps.payments.refundsOf(order.chargeId),
    ]);
    const method = paymentMethodOf(order);
    return {
      metodo: method,
      pago: centsToReais(money.paidCents),
      reembolsado: centsToReais(money.refundedCents),
      restante: centsToReais(Math.max(0, money.paidCents - money.refundedCents)),
      reembolsos: rows.map((r) => ({
        id: r.id,
        valor: centsToReais(r.amountCents),
        status: r.status,
        motivo: r.reason,
        por: r.requestedBy,
        em: r.createdAt.toISOString(),
        id_provedor: method === 'cartao' ? (charge?.providerChargeId ?? null) : r.refundId,
      })),
    };
  }

  /**
   * Before the write (no transaction open): a screen that listed fewer refunds than there are is told to
   * reload, unless the newer one is its own (the same screen submitted twice answers the same refund).
   */
  async function checkFresh(orderId: number, seen: number): Promise<void> {
    const order = await orderRepo.findOrder(deps.db, orderId);
    if (!order) throw notFound('Pedido não encontrado.');
    const rows = await deps.payments.refundsOf(order.chargeId);
    if (rows.length !== seen && !rows.some((r) => r.refundId === orderRefundId(orderId, seen + 1)))
      throw conflict(
        'Os reembolsos deste pedido mudaram desde que você abriu a tela. Recarregue e confira.',
        'versao_desatualizada',
      );
  }

  /**
   * The refund itself, in the caller's audited transaction. Its id comes from the count the screen saw:
   * two screens that saw the same list make the same id, so only one refund is ever written for it.
   */
  async function refund(
    tx: Tx,
    orderId: number,
    body: OrderRefundPart,
    staffName: string,
  ): Promise<{ refund: RefundRow | null; refundId: string }> {
    const order = await orderRepo.lockOrder(tx, orderId);
    if (!order) throw notFound('Pedido não encontrado.');
    // A parcel the carrier brought back or lost was shipped first: its nota references what left.
    if (
      body.retorno_transportadora &&
      !(await orderRepo.listStatusChanges(tx, orderId)).some((c) => c.status === 'enviado')
    )
      throw conflict(
        'Este pedido não foi enviado: um reembolso por retorno da transportadora só vale para pedidos que saíram.',
        'pedido_nao_enviado',
      );
    const refundId = orderRefundId(orderId, body.reembolsos_vistos + 1);
    const refund = await deps.payments.refundPart(tx, order.chargeId, {
      refundId,
      amountCents: reaisToCents(body.valor),
      reason: `Reembolso parcial do pedido nº ${orderId}: ${body.motivo}`,
      requestedBy: staffName,
    });
    return { refund, refundId };
  }

  return { summary, checkFresh, refund };
}

export type OrderRefundsAdmin = ReturnType<typeof createOrderRefundsAdmin>;
