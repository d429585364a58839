import type { AdditionOffer, AdditionOfferAnswer } from '@passada/core/contracts/painel-orders';
import { centsToReais, formatBRL } from '@passada/core/money';
import type { Env } from '../../config/env.ts';
import type { Db, Tx } from '../../db/client.ts';
import type { AppJobCatalog } from '../../jobs/job-catalog.ts';
import type { Jobs } from '../../jobs/jobs.ts';
import { badRequest, conflict } from '../../plugins/errors.ts';
import type { MailProvider } from '../../providers/mail/mail.provider.ts';
import { NOT_SHIPPED } from './order-change-manager.ts';
import { orderAdditionOfferMail } from './order-mail.ts';
import * as repo from './orders.repository.ts';
import type { OrdersService } from './orders.service.ts';

export interface OrderAdditionsDeps {
  db: Db;
  env: Pick<Env, 'STORE_NAME' | 'publicUrl'>;
  now: () => Date;
  jobs: Pick<Jobs<AppJobCatalog>, 'send'>;
  mail: MailProvider;
  orders: Pick<OrdersService, 'additionTarget' | 'priceItems'>;
}

/** The job's data (`mail.order-addition-offer`): what the e-mail says, fixed when staff proposed it. */
interface OfferMail {
  orderId: number;
  lines: string;
  totalCents: number;
  link: string;
}

/**
 * Staff's side of additions (docs/decisions/0087, later): the shop cannot charge the buyer, so staff
 * propose; the buyer pays the addition in "Meus pedidos" as one they made themselves.
 */
export function createOrderAdditions(deps: OrderAdditionsDeps) {
  /**
   * Proposes more units of one of the order's products, in the caller's transaction (its audit line and
   * the order's note commit with it): priced as the buyer would pay them today, nothing held.
   */
  async function offer(
    tx: Tx,
    orderId: number,
    line: AdditionOffer,
    by: { name: string },
  ): Promise<AdditionOfferAnswer> {
    const order = await deps.orders.additionTarget(tx, null, orderId, true);
    const items = await repo.findItems(tx, [orderId]);
    if (!items.some((i) => i.productId === line.produto))
      throw badRequest('Proponha mais unidades de um produto deste pedido.', 'produto_fora_do_pedido');
    const { items: priced } = await deps.orders.priceItems(tx, [
      { product: line.produto, color: line.cor_id, size: line.tamanho_id, quantity: line.quantidade },
    ]);
    const unit = priced[0]!;
    const buyer = await repo.findBuyer(tx, order.userId);
    if (!buyer?.email) throw conflict('Este pedido não tem mais o e-mail do cliente.', 'sem_email');
    const totalCents = unit.priceCents * unit.quantity;
    const lines = `${unit.quantity}× ${unit.name} (${unit.colorName}, ${unit.sizeName})`;
    const query = new URLSearchParams({
      acrescentar: String(order.id),
      produto: String(unit.productId),
      cor: String(unit.colorId),
      tamanho: String(unit.sizeId),
      unidades: String(unit.quantity),
    });
    const link = `${deps.env.publicUrl}/user/pedidos?${query}#pedido-${order.id}`;
    await repo.insertNote(tx, {
      orderId,
      staffName: by.name,
      text: `Acréscimo proposto ao cliente por e-mail: ${lines}, ${formatBRL(totalCents)} pelo preço de hoje.`,
      at: deps.now(),
    });
    await deps.jobs.send('mail.order-addition-offer', { orderId, lines, totalCents, link }, { tx });
    return { email: buyer.email, total: centsToReais(totalCents), link };
  }

  /** The proposal's e-mail; none once the order shipped or was cancelled meanwhile. */
  async function sendOffer(data: OfferMail): Promise<void> {
    const order = await repo.findOrder(deps.db, data.orderId);
    if (!order || !NOT_SHIPPED.has(order.status)) return;
    const buyer = await repo.findBuyer(deps.db, order.userId);
    if (!buyer?.email) return;
    await deps.mail.send(orderAdditionOfferMail({ env: deps.env, buyer, ...data }));
  }

  return { offer, sendOffer };
}

export type OrderAdditions = ReturnType<typeof createOrderAdditions>;
