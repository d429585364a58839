import { addDays, dateInTimeZone, formatIsoDateBR, STORE_TIME_ZONE } from '@passada/core/calendar';
import {
  DEFECT_DAYS_DURABLE,
  type OrderAfterSale,
  type OrderChangeQuote,
  type OrderChangeRequest,
  type OrderReturn,
  type ReturnRequest,
  WITHDRAWAL_DAYS,
  type WithdrawalRequest,
} from '@passada/core/contracts/returns';
import { centsToReais } from '@passada/core/money';
import type { FastifyBaseLogger } from 'fastify';
import type { Env } from '../../config/env.ts';
import type { Db, Tx } from '../../db/client.ts';
import type { AppJobCatalog } from '../../jobs/job-catalog.ts';
import type { Jobs } from '../../jobs/jobs.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { badRequest, conflict, notFound } from '../../plugins/errors.ts';
import type { MailProvider } from '../../providers/mail/index.ts';
import type { ShippingProvider } from '../../providers/shipping/shipping.provider.ts';
import type { PaymentsService } from '../payments/payments.service.ts';
import type { RegistrationsCart } from '../registrations/registrations.service.ts';
import { type OrderChange, unitsValue } from './order-change.ts';
import { NOT_SHIPPED, type OrderChangeManager } from './order-change-manager.ts';
import * as orderRepo from './orders.repository.ts';
import { returnUpdateMail } from './return-mail.ts';
import { exchangeAndHistory, senderAddress } from './return-wire.ts';
import * as repo from './returns.repository.ts';

export interface OrderReturnsDeps {
  db: Db;
  env: Pick<Env, 'STORE_NAME' | 'publicUrl'>;
  now: () => Date;
  log: FastifyBaseLogger;
  mail: MailProvider;
  jobs: Pick<Jobs<AppJobCatalog>, 'send'>;
  payments: Pick<PaymentsService, 'refundable'>;
  registrations: Pick<RegistrationsCart, 'ofOrders'>;
  shipping: Pick<ShippingProvider, 'authorizeReturn'>;
  change: Pick<OrderChange, 'announce'>;
  /** The order's one door for a change before shipping (docs/decisions/0065). */
  manager: OrderChangeManager;
  /** Sends the order's confirmation first while it is still pending (orders.service `confirmFirst`). */
  confirmFirst: (orderId: number) => Promise<void>;
}

const storeDay = (at: Date) => dateInTimeZone(at, STORE_TIME_ZONE);

export { returnRefundId } from './order-change-manager.ts';

/**
 * After the sale, the buyer's side (docs/decisions/0036): what an order still allows, and the withdrawal
 * before shipping, which is immediate: units back to stock, money back, e-mail, in one transaction with
 * the provider asked after the commit.
 */
export function createOrderReturns(deps: OrderReturnsDeps) {
  async function ownedOrder(db: Db | Tx, user: AuthUser, orderId: number, lock = false) {
    const order = lock
      ? await orderRepo.lockOrder(db as Tx, orderId)
      : await orderRepo.findOrder(db, orderId);
    if (!order || order.userId !== user.id) throw notFound('Pedido não encontrado.');
    return order;
  }

  async function toWire(rows: repo.ReturnRow[], db: Db | Tx = deps.db): Promise<OrderReturn[]> {
    const lines = await repo.listReturnItems(
      db,
      rows.map((r) => r.id),
    );
    const items = await orderRepo.findItems(db, [...new Set(rows.map((r) => r.orderId))]);
    const byId = new Map(items.map((i) => [i.id, i]));
    const extra = await exchangeAndHistory(db, rows);
    return rows.map((r) => ({
      id: r.id,
      pedido: r.orderId,
      tipo: r.kind,
      status: r.status,
      motivo: r.reason as OrderReturn['motivo'],
      descricao: r.note,
      motivo_recusa: r.refusal,
      codigo_postagem: r.postingCode,
      instrucoes: r.postingCode
        ? `${r.postingInstructions ?? ''}${r.postingValidUntil ? ` Válido até ${formatIsoDateBR(r.postingValidUntil)}.` : ''}`.trim()
        : null,
      itens: lines
        .filter((l) => l.returnId === r.id)
        .map((l) => {
          const item = byId.get(l.orderItemId);
          return {
            item_id: l.orderItemId,
            produto: item?.productName ?? '',
            cor: item?.colorName ?? '',
            tamanho: item?.sizeName ?? '',
            quantidade: l.quantity,
            valor: centsToReais(l.valueCents),
            voltou_ao_estoque: l.restocked,
          };
        }),
      inscricoes: r.registrationIds ?? [],
      valor_reembolsado: centsToReais(r.refundedCents),
      criado_em: r.createdAt.toISOString(),
      versao: r.version,
      ...extra.get(r.id),
    }));
  }

  /** What is left of each line once the requests staff did not refuse are taken off. */
  const remaining = (db: Db | Tx, orderId: number) => deps.manager.remaining(db, orderId);

  /** The deadlines, counted in calendar days from the delivery day (CDC art. 49 and art. 26 II). */
  function deadlines(delivered: string | null) {
    return {
      regret: delivered ? addDays(delivered, WITHDRAWAL_DAYS) : null,
      defect: delivered ? addDays(delivered, DEFECT_DAYS_DURABLE) : null,
    };
  }

  async function deliveryDay(db: Db | Tx, orderId: number): Promise<string | null> {
    const d = await repo.deliveredOn(db, orderId);
    return d.day ?? (d.at ? storeDay(d.at) : null);
  }

  /** GET /api/orders/:id/pos-venda/: what the order page offers, computed here, never in the browser. */
  async function afterSale(user: AuthUser, orderId: number): Promise<OrderAfterSale> {
    const order = await ownedOrder(deps.db, user, orderId);
    const [left, rows, delivered, money] = await Promise.all([
      remaining(deps.db, orderId),
      repo.listReturnsOfOrder(deps.db, orderId),
      deliveryDay(deps.db, orderId),
      deps.payments.refundable(order.chargeId),
    ]);
    const today = storeDay(deps.now());
    const { regret, defect } = deadlines(order.status === 'entregue' ? delivered : null);
    const anyLeft = left.some((l) => l.left > 0);
    const registrations = (await deps.registrations.ofOrders([orderId])).get(orderId) ?? [];
    return {
      versao: await deps.manager.versionOf(deps.db, orderId),
      pode_desistir: NOT_SHIPPED.has(order.status) && (anyLeft || registrations.some((r) => !r.cancelada)),
      pode_devolver: order.status === 'entregue' && anyLeft && defect !== null && today <= defect,
      // An exchange has the same window as a return (docs/decisions/0040).
      pode_trocar: order.status === 'entregue' && anyLeft && defect !== null && today <= defect,
      prazo_arrependimento: regret,
      prazo_defeito: defect,
      entregue_em: order.status === 'entregue' ? delivered : null,
      restantes: left.map((l) => ({ item_id: l.item.id, quantidade: l.left })),
      pago: centsToReais(money.paidCents),
      reembolsado: centsToReais(money.refundedCents),
      solicitacoes: await toWire(rows),
    };
  }

  /**
   * POST /api/orders/:id/desistencia/ and …/alteracoes/: the buyer withdraws before shipping (CDC art. 49,
   * Decreto 7.962/2013 art. 5), the whole order or chosen units and registrations, through the order's
   * one door (`order-change-manager.ts`) under the order's row lock; the provider is asked after the
   * commit.
   */
  async function withdraw(
    user: AuthUser,
    orderId: number,
    request: WithdrawalRequest & { versao?: number },
  ): Promise<OrderReturn> {
    const { created, refunds } = await deps.db.transaction(async (tx) => {
      const order = await ownedOrder(tx, user, orderId, true);
      const { row, refunds } = await deps.manager.apply(tx, order, request, { kind: 'comprador' });
      const [created] = await toWire([row], tx);
      return { created: created!, refunds };
    });
    await deps.manager.send(refunds);
    return created;
  }

  /** POST /api/orders/:id/alteracoes/cotacao/: what the buyer's list would give back; nothing changes. */
  async function quoteWithdrawal(
    user: AuthUser,
    orderId: number,
    request: OrderChangeRequest,
  ): Promise<OrderChangeQuote> {
    return deps.manager.quote((tx) => ownedOrder(tx, user, orderId, true), request, { kind: 'comprador' });
  }

  /**
   * POST /api/orders/:id/devolucoes/: send items back after delivery, within 7 calendar days of it for
   * regret (CDC art. 49) or 90 for a defect (art. 26 II, apparel is durable). Written `solicitada` under
   * the order's row lock (units asked back count at once, so two requests never cover the same unit);
   * then, with no transaction open, the carrier issues the posting code and the request becomes
   * `codigo_enviado`. When the carrier cannot (down, not integrated), it stays `solicitada` and staff
   * send the code. Either way the e-mail confirms the request at once.
   */
  async function requestReturn(
    user: AuthUser,
    orderId: number,
    request: ReturnRequest,
  ): Promise<OrderReturn> {
    const row = await deps.db.transaction(async (tx) => {
      const order = await ownedOrder(tx, user, orderId, true);
      if (order.status !== 'entregue')
        throw conflict(
          NOT_SHIPPED.has(order.status)
            ? 'O pedido ainda não foi enviado: desista da compra nesta página, sem devolver nada.'
            : order.status === 'enviado'
              ? 'A devolução pode ser pedida depois que o pedido for entregue.'
              : 'Este pedido não pode ser devolvido.',
          'devolucao_indisponivel',
        );
      const { regret, defect } = deadlines(await deliveryDay(tx, orderId));
      const last = request.motivo === 'defeito' ? defect : regret;
      if (!last || storeDay(deps.now()) > last)
        throw conflict(
          request.motivo === 'defeito'
            ? `O prazo de 90 dias para reclamar de defeito terminou em ${formatIsoDateBR(last ?? '')}.`
            : `O prazo de 7 dias para desistir da compra terminou em ${formatIsoDateBR(last ?? '')}. Se o produto tem defeito, escolha "defeito".`,
          'prazo_encerrado',
        );
      const left = await remaining(tx, orderId);
      const chosen = request.itens.map((line) => {
        const found = left.find((l) => l.item.id === line.item_id);
        if (!found) throw badRequest('Item não encontrado neste pedido.', 'item_invalido');
        if (line.quantidade > found.left)
          throw conflict(
            `Restam ${found.left} unidade(s) de ${found.item.productName} para devolver.`,
            'quantidade_indisponivel',
          );
        return { item: found.item, units: line.quantidade };
      });
      const created = await repo.insertReturn(tx, {
        orderId,
        kind: 'devolucao',
        status: 'solicitada',
        reason: request.motivo,
        note: request.descricao ?? null,
        createdAt: deps.now(),
      });
      await repo.insertReturnItems(
        tx,
        chosen.map((c) => ({
          returnId: created.id,
          orderItemId: c.item.id,
          quantity: c.units,
          valueCents: unitsValue(order, c.item, c.units),
        })),
      );
      return created;
    });
    await issuePostingCode(row.id);
    const [answer] = await toWire([(await repo.findReturn(deps.db, row.id))!]);
    return answer!;
  }

  /** Asks the carrier for the posting code (no transaction open) and records it; failure leaves it to staff. */
  async function issuePostingCode(returnId: number): Promise<void> {
    const row = (await repo.findReturn(deps.db, returnId))!;
    const order = (await orderRepo.findOrder(deps.db, row.orderId))!;
    const buyer = await orderRepo.findBuyer(deps.db, order.userId);
    try {
      const auth = await deps.shipping.authorizeReturn({
        returnId,
        orderId: order.id,
        sender: {
          name: buyer?.name ?? '',
          cep: order.address?.zip_code ?? '',
          email: buyer?.email ?? '',
          ...(order.address ? { address: senderAddress(order.address), phone: order.address.phone } : {}),
        },
        today: storeDay(deps.now()),
      });
      await deps.db.transaction(async (tx) => {
        const locked = await repo.lockReturn(tx, returnId);
        if (locked?.status !== 'solicitada') return;
        await repo.updateReturn(tx, returnId, {
          status: 'codigo_enviado',
          postingCode: auth.code,
          postingInstructions: auth.instructions,
          postingValidUntil: auth.validUntil,
          updatedAt: deps.now(),
        });
        await deps.change.announce(tx, returnId);
      });
    } catch (err) {
      deps.log.warn(
        { returnId, err: (err as Error).message },
        'return posting code not issued; staff send it',
      );
      await deps.change.announce(null, returnId);
    }
  }

  /**
   * The job `mail.return-update`: the buyer hears of the request and of each of its steps. With
   * `eventId` it tells that history row's state, once: the row is taken first (`mailed_at`), so a job run
   * again or a copy of it sends nothing, and given back when the send fails (the retry sends it). The
   * order's confirmation goes first while it is still pending.
   */
  async function sendUpdate(returnId: number, eventId?: number): Promise<void> {
    const row = await repo.findReturn(deps.db, returnId);
    const order = row ? await orderRepo.findOrder(deps.db, row.orderId) : null;
    const buyer = order ? await orderRepo.findBuyer(deps.db, order.userId) : null;
    if (!row || !order || !buyer) return;
    await deps.confirmFirst(order.id);
    const event = eventId ? await repo.claimEventMail(deps.db, eventId, deps.now()) : null;
    if (eventId && !event) return;
    const [current] = await toWire([row]);
    const request: OrderReturn = event
      ? {
          ...current!,
          status: event.status,
          motivo_recusa: event.status === 'recusada' ? (event.note ?? current!.motivo_recusa) : null,
        }
      : current!;
    try {
      await deps.mail.send(returnUpdateMail({ env: deps.env, request, buyer }));
    } catch (err) {
      if (event) await repo.releaseEventMail(deps.db, event.id);
      throw err;
    }
    deps.log.info({ returnId, status: request.status }, 'return update mail sent');
  }

  return {
    afterSale,
    withdraw,
    quoteWithdrawal,
    requestReturn,
    sendUpdate,
    issuePostingCode,
    toWire,
    remaining,
    deliveryDay,
    deadlines,
    unitsValue,
  };
}

export type OrderReturns = ReturnType<typeof createOrderReturns>;
