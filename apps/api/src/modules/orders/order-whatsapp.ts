import type { Env } from '../../config/env.ts';
import type { Db, Tx } from '../../db/client.ts';
import type { AppJobCatalog } from '../../jobs/job-catalog.ts';
import type { Jobs } from '../../jobs/jobs.ts';
import { templateParameter, type WhatsAppProvider, whatsappNumber } from '../../providers/whatsapp/index.ts';
import * as repo from './orders.repository.ts';

/** What the WhatsApp message says of an order just paid ("Pedido nº 1042: pagamento confirmado."). */
export const PAYMENT_CONFIRMED = 'pagamento confirmado';

/** What the WhatsApp message says an order's new status is (after "Pedido nº 1042: "). */
export function orderStatusUpdate(status: string, trackingCode?: string | null): string | null {
  if (status === 'em separação') return 'está sendo separado e embalado';
  if (status === 'enviado')
    return trackingCode ? `foi enviado pelos Correios, código de rastreio ${trackingCode}` : 'foi enviado';
  if (status === 'entregue') return 'foi entregue';
  return null;
}

/**
 * The orders' WhatsApp updates (docs/decisions/0045), only to buyers who ticked the opt-in at checkout,
 * at the delivery phone, through a durable job and the message log like e-mail.
 */
export function createOrderWhatsApp(deps: {
  db: Db;
  env: Pick<Env, 'publicUrl'>;
  jobs: Pick<Jobs<AppJobCatalog>, 'send'>;
  whatsapp: WhatsAppProvider;
}) {
  /**
   * Tells the buyer, if they opted in, that their order or its delivery moved: `what` completes
   * "Pedido nº 1042: …" (e.g. "saiu para entrega"). Pass the caller's transaction as `tx` so the message
   * goes only if the change commits. Answers whether a message was queued.
   */
  async function notifyUpdate(orderId: number, what: string, tx?: Tx): Promise<boolean> {
    const order = await repo.findOrder(tx ?? deps.db, orderId);
    if (!order?.whatsappConsentAt || !order.address?.phone || what.trim() === '') return false;
    await deps.jobs.send(
      'whatsapp.order-update',
      { orderId, what: what.trim().slice(0, 300) },
      tx ? { tx } : {},
    );
    return true;
  }

  /** The job: the message itself, read from the order when it runs. */
  async function sendUpdate(orderId: number, what: string): Promise<void> {
    const order = await repo.findOrder(deps.db, orderId);
    if (!order?.whatsappConsentAt || !order.address?.phone) return;
    const name = order.address.full_name.split(' ')[0] ?? order.address.full_name;
    await deps.whatsapp.send({
      to: whatsappNumber(order.address.phone),
      template: 'pedido_atualizado',
      consentAt: order.whatsappConsentAt,
      parameters: [name, String(order.id), what, `${deps.env.publicUrl}/user/pedidos/${order.id}`].map(
        templateParameter,
      ),
    });
  }

  return { notifyUpdate, sendUpdate };
}

export type OrderWhatsApp = ReturnType<typeof createOrderWhatsApp>;
