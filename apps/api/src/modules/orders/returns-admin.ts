import type {
  ExchangeShip,
  PainelReturn,
  ReturnCode,
  ReturnPosted,
  ReturnReceive,
  ReturnRefund,
  ReturnRefuse,
} from '@passada/core/contracts/returns';
import { centsToReais, reaisToCents } from '@passada/core/money';
import { isS10Code } from '@passada/core/s10';
import type { Env } from '../../config/env.ts';
import type { Db, Tx } from '../../db/client.ts';
import type { AppJobCatalog } from '../../jobs/job-catalog.ts';
import type { Jobs } from '../../jobs/jobs.ts';
import { badRequest, conflict, notFound } from '../../plugins/errors.ts';
import type { CatalogService } from '../catalog/catalog.service.ts';
import type { PaymentsService, RefundRow } from '../payments/payments.service.ts';
import type { RegistrationsCart } from '../registrations/registrations.service.ts';
import { keptAfter, type OrderChange, refundDue } from './order-change.ts';
import type { OrderReturns } from './order-returns.ts';
import { returnRefundId } from './order-returns.ts';
import * as orderRepo from './orders.repository.ts';
import * as repo from './returns.repository.ts';

export interface ReturnsAdminDeps {
  db: Db;
  now: () => Date;
  jobs: Pick<Jobs<AppJobCatalog>, 'send'>;
  payments: Pick<PaymentsService, 'refundPart' | 'refundable'>;
  catalog: Pick<CatalogService, 'restock'>;
  returns: Pick<OrderReturns, 'toWire'>;
  change: Pick<OrderChange, 'announce' | 'closeExchange' | 'refundableExchange' | 'fiscalJobs'>;
  registrations: Pick<RegistrationsCart, 'ofOrders'>;
  env: Pick<Env, 'EXCHANGE_SHIPS_ON'>;
}

/** Requests staff still have to act on. */
const OPEN: repo.ReturnRow['status'][] = ['solicitada', 'codigo_enviado', 'postada', 'recebida'];

/** Closed requests the queue still shows, newest first. */
const CLOSED_SHOWN = 50;

/** What the audit log keeps of a request. */
export const returnAuditShape = (r: repo.ReturnRow) => ({
  status: r.status,
  codigo_postagem: r.postingCode,
  reembolsado: centsToReais(r.refundedCents),
  motivo_recusa: r.refusal,
  codigo_rastreio_troca: r.exchangeTrackingCode,
});

/**
 * The back office's returns queue (docs/decisions/0036): received items checked (back to stock or
 * not, per line), refunds of any amount up to what is left of the payment, refusals with a reason,
 * posting codes sent by hand. Each write locks the request, checks the version staff read (a stale
 * screen is 409, docs/decisions/0025), runs in the caller's transaction with its audit line, and
 * e-mails the buyer; money is asked of the provider after the commit.
 */
export function createReturnsAdmin(deps: ReturnsAdminDeps) {
  async function toPainel(rows: repo.ReturnRow[]): Promise<PainelReturn[]> {
    const wire = await deps.returns.toWire(rows);
    const out: PainelReturn[] = [];
    for (const [i, r] of wire.entries()) {
      const row = rows[i]!;
      const order = (await orderRepo.findOrder(deps.db, row.orderId))!;
      const buyer = await orderRepo.findBuyer(deps.db, order.userId);
      const money = await deps.payments.refundable(order.chargeId);
      const left = money.paidCents - money.refundedCents;
      out.push({
        ...r,
        cliente: buyer?.name ?? order.address?.full_name ?? '',
        email: buyer?.email ?? null,
        pago: centsToReais(money.paidCents),
        reembolsado: centsToReais(money.refundedCents),
        restante: centsToReais(left),
        sugestao: centsToReais(
          await suggestion(
            row,
            order,
            left,
            r.itens.reduce((sum, it) => sum + reaisToCents(it.valor), 0),
          ),
        ),
      });
    }
    return out;
  }

  /**
   * What the queue suggests refunding, by the same rule as the withdrawal (`refundDue`): the units'
   * value less what this request already returned, the shipping once no unit is left to ship or keep,
   * and the whole rest of the payment (card interest included, CDC art. 49) when this is the last open
   * request and the buyer keeps nothing. An exchange suggests nothing until its units are back (it is
   * closed by shipping the replacement; its negative difference goes back then).
   */
  async function suggestion(
    row: repo.ReturnRow,
    order: orderRepo.OrderRow,
    left: number,
    valueCents: number,
  ): Promise<number> {
    if (row.status === 'recusada') return 0;
    if (row.kind === 'troca' && row.status !== 'recebida') return 0;
    const items = await orderRepo.findItems(deps.db, [order.id]);
    const live = ((await deps.registrations.ofOrders([order.id])).get(order.id) ?? []).filter(
      (reg) => !reg.cancelada,
    ).length;
    const kept = await keptAfter(deps.db, items, live, order.id);
    const others = (await repo.listReturnsOfOrder(deps.db, order.id)).filter(
      (other) => other.id !== row.id && OPEN.includes(other.status),
    );
    const open = OPEN.includes(row.status);
    const due = refundDue({
      valueCents,
      shippingCents: order.shippingCents,
      leftCents: left + row.refundedCents,
      nothingToShip: kept.nothingToShip,
      keepsNothing: open && kept.keepsNothing && others.length === 0,
    });
    return Math.max(0, Math.min(left, due - row.refundedCents));
  }

  /** Open requests first (oldest first), then the latest closed ones, which may still get a refund. */
  async function queue(): Promise<PainelReturn[]> {
    const open = await repo.listReturnsByStatus(deps.db, OPEN);
    const closed = (await repo.listReturnsByStatus(deps.db, [])).filter((r) => !OPEN.includes(r.status));
    return toPainel([...open, ...closed.slice(0, CLOSED_SHOWN)]);
  }

  async function one(id: number): Promise<PainelReturn> {
    const row = await repo.findReturn(deps.db, id);
    if (!row) throw notFound('Solicitação não encontrada.');
    return (await toPainel([row]))[0]!;
  }

  /** Locks the request and checks the version the screen read. */
  async function locked(tx: Tx, id: number, version: number) {
    const row = await repo.lockReturn(tx, id);
    if (!row) throw notFound('Solicitação não encontrada.');
    if (row.version !== version)
      throw conflict(
        'Esta solicitação mudou desde que você abriu a tela. Recarregue e confira.',
        'versao_desatualizada',
      );
    return row;
  }

  async function moved(tx: Tx, before: repo.ReturnRow, values: Partial<repo.ReturnRow>) {
    const after = await repo.updateReturn(tx, before.id, {
      ...values,
      version: before.version + 1,
      updatedAt: deps.now(),
    });
    await deps.change.announce(tx, before.id);
    return after;
  }

  /** The parcel arrived: each line goes back to stock or not (damaged), through the catalog. */
  async function receive(tx: Tx, id: number, body: ReturnReceive) {
    const before = await locked(tx, id, body.versao);
    if (!['solicitada', 'codigo_enviado', 'postada'].includes(before.status))
      throw conflict('Esta solicitação já foi recebida ou encerrada.', 'transicao_invalida');
    const order = (await orderRepo.findOrder(tx, before.orderId))!;
    const lines = await repo.listReturnItems(tx, [id]);
    const items = await orderRepo.findItems(tx, [order.id]);
    for (const line of lines) {
      const check = body.itens.find((c) => c.item_id === line.orderItemId);
      if (!check) throw badRequest('Confira todos os itens da devolução.', 'itens_incompletos');
      const item = items.find((i) => i.id === line.orderItemId)!;
      await repo.setItemRestocked(tx, line.id, check.estoque);
      await deps.catalog.restock(
        tx,
        order.chargeId,
        [{ productId: item.productId, colorId: item.colorId, sizeId: item.sizeId, quantity: line.quantity }],
        deps.now(),
        { reason: 'devolucao', orderId: order.id, note: `Devolução nº ${id}` },
        check.estoque,
      );
    }
    return { before, after: await moved(tx, before, { status: 'recebida' }) };
  }

  /**
   * Money back: any amount up to what is left of the payment (the payments module enforces it under the
   * charge's row lock). The refund id carries the version, so the same screen submitted twice refunds once.
   */
  async function refund(
    tx: Tx,
    id: number,
    body: ReturnRefund,
  ): Promise<{
    before: repo.ReturnRow;
    after: repo.ReturnRow;
    refund: RefundRow | null;
    /** A closed exchange's paid difference, from its own charge. */
    more: RefundRow[];
  }> {
    const before = await locked(tx, id, body.versao);
    if (before.status === 'recusada')
      throw conflict('Uma solicitação recusada não é reembolsada.', 'transicao_invalida');
    if (before.status === 'trocada')
      throw conflict('Uma troca já enviada não é reembolsada por aqui.', 'transicao_invalida');
    // An exchange becomes a refund only once its units are back; it then never ships: the held
    // replacement goes back on the shelf and a difference paid goes back (docs/decisions/0040, later).
    deps.change.refundableExchange(before);
    const order = (await orderRepo.findOrder(tx, before.orderId))!;
    const amountCents = reaisToCents(body.valor);
    const refund = await deps.payments.refundPart(tx, order.chargeId, {
      refundId: returnRefundId(id, `v${before.version}`),
      amountCents,
      reason: `Devolução nº ${id} do pedido nº ${order.id}.`,
    });
    const difference = await deps.change.closeExchange(tx, before, 'reembolsada em vez de enviada');
    const after = await moved(tx, before, {
      status: 'reembolsada',
      refundedCents: before.refundedCents + (refund?.amountCents ?? 0) + (difference?.amountCents ?? 0),
    });
    // The devolução NF-e of what came back (docs/decisions/0043).
    await deps.change.fiscalJobs(tx, { kind: 'back', returnId: id });
    return { before, after, refund, more: difference ? [difference] : [] };
  }

  async function refuse(tx: Tx, id: number, body: ReturnRefuse) {
    const before = await locked(tx, id, body.versao);
    if (before.status === 'reembolsada' || before.status === 'recusada' || before.status === 'trocada')
      throw conflict('Esta solicitação já foi encerrada.', 'transicao_invalida');
    // A refused exchange's held units go back on the shelf, and a difference it paid goes back
    // (docs/decisions/0040); the route sends the refund after the commit.
    const refund = await deps.change.closeExchange(tx, before, 'recusada');
    return {
      before,
      after: await moved(tx, before, { status: 'recusada', refusal: body.motivo }),
      refund,
    };
  }

  /** The buyer handed the parcel to the carrier (staff saw it, or the carrier's tracking said so). */
  async function markPosted(tx: Tx, id: number, body: ReturnPosted) {
    const before = await locked(tx, id, body.versao);
    if (before.status !== 'solicitada' && before.status !== 'codigo_enviado')
      throw conflict(
        'Só uma solicitação à espera da postagem pode ser marcada como postada.',
        'transicao_invalida',
      );
    return { before, after: await moved(tx, before, { status: 'postada' }) };
  }

  /**
   * Staff ship an exchange's new units (docs/decisions/0040), with the carrier's S10 tracking code: once
   * the returned units were received (or posted, when EXCHANGE_SHIPS_ON is `postada`) and a positive
   * difference was paid. A negative difference goes back through a partial refund (our id `ret<id>t`, so it
   * never runs twice); the provider is asked after the commit.
   */
  async function shipExchange(
    tx: Tx,
    id: number,
    body: ExchangeShip,
  ): Promise<{ before: repo.ReturnRow; after: repo.ReturnRow; refund: RefundRow | null }> {
    const before = await locked(tx, id, body.versao);
    if (before.kind !== 'troca') throw conflict('Esta solicitação não é uma troca.', 'transicao_invalida');
    const ready =
      before.status === 'recebida' ||
      (deps.env.EXCHANGE_SHIPS_ON === 'postada' && before.status === 'postada');
    if (!ready)
      throw conflict(
        deps.env.EXCHANGE_SHIPS_ON === 'postada'
          ? 'A troca é enviada depois que o cliente postar os itens devolvidos.'
          : 'A troca é enviada depois que os itens devolvidos chegarem à loja.',
        'transicao_invalida',
      );
    if (!isS10Code(body.codigo_rastreio))
      throw badRequest(
        'Código de rastreio inválido: confira as letras e os números (ex.: AA123456785BR).',
        'codigo_invalido',
      );
    if (before.differenceCents > 0 && before.differenceChargeId === null)
      throw conflict('O cliente ainda não pagou a diferença desta troca.', 'diferenca_nao_paga');
    const order = (await orderRepo.findOrder(tx, before.orderId))!;
    const refund =
      before.differenceCents < 0
        ? await deps.payments.refundPart(tx, order.chargeId, {
            refundId: returnRefundId(id, 't'),
            amountCents: -before.differenceCents,
            reason: `Diferença da troca nº ${id} do pedido nº ${order.id}.`,
          })
        : null;
    await repo.clearExchangeHold(tx, id);
    const after = await moved(tx, before, {
      status: 'trocada',
      exchangeTrackingCode: body.codigo_rastreio,
      refundedCents: before.refundedCents + (refund?.amountCents ?? 0),
    });
    // The replacement never leaves without its NF-e, and the units that came back get their devolução
    // (docs/decisions/0043, later).
    await deps.change.fiscalJobs(tx, { kind: 'exchange-shipped', returnId: id });
    return { before, after, refund };
  }

  async function sendCode(tx: Tx, id: number, body: ReturnCode) {
    const before = await locked(tx, id, body.versao);
    if (before.status !== 'solicitada' && before.status !== 'codigo_enviado')
      throw conflict('O código só pode ser enviado antes da postagem.', 'transicao_invalida');
    return {
      before,
      after: await moved(tx, before, { status: 'codigo_enviado', postingCode: body.codigo }),
    };
  }

  return { queue, one, receive, refund, refuse, sendCode, markPosted, shipExchange };
}

export type ReturnsAdmin = ReturnType<typeof createReturnsAdmin>;
