import {
  addDays,
  dateInTimeZone,
  type IsoDate,
  STORE_TIME_ZONE,
  storeDayStart,
} from '@passada/core/calendar';
import type { OrderStatus } from '@passada/core/contracts/orders';
import { skuOf } from '@passada/core/contracts/painel-catalog';
import {
  canMoveOrder,
  isUnpaidOrderStatus,
  nextOrderStatuses,
  type OrderNote,
  type PainelOrderDetail,
  type PainelOrderExportQuery,
  PainelOrderExportQuerySchema,
  type PainelOrderQuery,
  PainelOrderQuerySchema,
  type PainelOrderSummary,
  type PainelUnpaidCharge,
  trackingUrl,
  type UnpaidOrderStatus,
} from '@passada/core/contracts/painel-orders';
import type { StaffOrderChangeRequest } from '@passada/core/contracts/returns';
import { maskCpf } from '@passada/core/documents';
import { centsToReais } from '@passada/core/money';
import { z } from 'zod';
import type { Db, Tx } from '../../db/client.ts';
import type { AppJobCatalog } from '../../jobs/job-catalog.ts';
import type { Jobs } from '../../jobs/jobs.ts';
import { badRequest, conflict, notFound } from '../../plugins/errors.ts';
import type { PaymentsService, RefundRow } from '../payments/payments.service.ts';
import type { RegistrationsCart } from '../registrations/registrations.service.ts';
import { dailySales, orderTotals } from './dashboard.repository.ts';
import type { OrderChangeManager } from './order-change-manager.ts';
import { orderStatusUpdate } from './order-whatsapp.ts';
import * as repo from './orders.repository.ts';
import { paymentMethodOf, shippingServiceOf } from './orders.service.ts';
import * as returnsRepo from './returns.repository.ts';
import { saveDelivery } from './returns.repository.ts';

/**
 * What the list reads of an order charge's draft: its lines, participants and buyer, leniently (a
 * draft cleared under LGPD keeps its lines; an unreadable one shows none rather than failing the page).
 */
const StoredOrderDraftShape = z.object({
  buyer: z.object({ name: z.string(), email: z.string() }).optional(),
  items: z
    .array(
      z.object({
        name: z.string(),
        colorName: z.string(),
        sizeName: z.string(),
        quantity: z.number().int(),
      }),
    )
    .default([]),
  participants: z.array(z.unknown()).default([]),
});

export const ORDERS_PAGE_SIZE = 25;
/** The CSV export's cap: a season's orders fit; a filter narrows a bigger list. */
export const ORDERS_EXPORT_MAX = 20_000;

export interface OrdersAdminDeps {
  db: Db;
  now: () => Date;
  jobs: Pick<Jobs<AppJobCatalog>, 'send'>;
  payments: Pick<PaymentsService, 'chargeById' | 'refundOf' | 'events' | 'unpaidCharges' | 'paidAndRefunded'>;
  registrations: Pick<RegistrationsCart, 'ofOrders'>;
  /** The order's one door: the cancellation goes through it (docs/decisions/0065). */
  manager: Pick<OrderChangeManager, 'apply' | 'cancelWhole' | 'quote' | 'versionOf'>;
}

/** The list's filters as the repository takes them (store-calendar days become instants). */
const filtersOf = (q: PainelOrderExportQuery) => ({
  status: q.status,
  from: q.de ? storeDayStart(q.de) : undefined,
  to: q.ate ? storeDayStart(addDays(q.ate, 1)) : undefined,
  method: q.metodo,
  search: q.busca,
});

const noteWire = (n: repo.NoteRow): OrderNote => ({
  id: n.id,
  texto: n.text,
  por: n.staffName,
  em: n.at.toISOString(),
});

/** What the order looks like in the audit log: the fields a status change moves. */
export const auditShape = (o: repo.OrderRow) => ({ status: o.status, codigo_rastreio: o.trackingCode });

/**
 * The back office's side of orders: listing, the detail with its payment and timeline, and the status
 * flow. Writes take the caller's transaction so the audit line commits with them.
 */
/**
 * The list's "Cliente" is who bought (the account's name), and the recipient beside it when the parcel
 * goes to someone else; an account erased leaves the address's name.
 */
export function buyerAndRecipient(
  order: { address: { full_name: string } | null },
  buyerName: string | null,
  email: string | null,
): { cliente: string; destinatario: string | null } {
  const recipient = order.address?.full_name ?? null;
  const cliente = buyerName || recipient || email || '';
  return { cliente, destinatario: recipient && recipient !== cliente ? recipient : null };
}

export function createOrdersAdmin(deps: OrdersAdminDeps) {
  /**
   * Shop charges not paid (`aguardando pagamento`: open; `expirado`: ended by their deadline), which are
   * no orders yet, filtered like orders (day of creation, method, buyer or txid), newest first.
   */
  async function unpaid(
    q: PainelOrderExportQuery & { status: UnpaidOrderStatus },
    limit: number,
    offset: number,
  ) {
    const f = filtersOf(q);
    const { rows, count } = await deps.payments.unpaidCharges(
      q.status === 'aguardando pagamento' ? 'open' : 'expired',
      { purpose: 'order', from: f.from, to: f.to, method: f.method, search: f.search },
      limit,
      offset,
    );
    const cobrancas: PainelUnpaidCharge[] = rows.map(({ charge, email, name }) => {
      const draft = StoredOrderDraftShape.safeParse(charge.draft);
      const d = draft.success ? draft.data : { items: [], participants: [], buyer: undefined };
      return {
        cobranca_id: charge.id,
        txid: charge.txid,
        status: q.status,
        situacao: charge.status,
        criada_em: charge.createdAt.toISOString(),
        expira_em: charge.expiresAt.toISOString(),
        cliente: d.buyer?.name ?? name ?? '',
        email: email ?? d.buyer?.email ?? null,
        metodo_pagamento: paymentMethodOf({ paymentMethod: charge.method }),
        total: centsToReais(charge.amountCents),
        itens: d.items.map((i) => ({
          nome: i.name,
          cor: i.colorName,
          tamanho: i.sizeName,
          quantidade: i.quantity,
        })),
        inscricoes: d.participants.length,
      };
    });
    return { cobrancas, count };
  }

  async function list(query: PainelOrderQuery) {
    const q = PainelOrderQuerySchema.parse(query);
    if (isUnpaidOrderStatus(q.status)) {
      const { cobrancas, count } = await unpaid(
        { ...q, status: q.status },
        ORDERS_PAGE_SIZE,
        (q.pagina - 1) * ORDERS_PAGE_SIZE,
      );
      return { results: [], cobrancas, count, page_size: ORDERS_PAGE_SIZE };
    }
    const { rows, count } = await repo.listOrdersForStaff(
      deps.db,
      filtersOf(q),
      ORDERS_PAGE_SIZE,
      (q.pagina - 1) * ORDERS_PAGE_SIZE,
    );
    const results: PainelOrderSummary[] = rows.map(({ order, email, buyerName, units }) => ({
      id: order.id,
      status: order.status,
      data: order.orderDate.toISOString(),
      ...buyerAndRecipient(order, buyerName, email),
      email,
      metodo_pagamento: paymentMethodOf(order),
      total: centsToReais(order.totalCents),
      itens: Number(units),
    }));
    return { results, cobrancas: [], count, page_size: ORDERS_PAGE_SIZE };
  }

  async function detail(id: number): Promise<PainelOrderDetail> {
    const order = await repo.findOrder(deps.db, id);
    if (!order) throw notFound('Pedido não encontrado.');
    const [box, buyer, charge, refund, events, changes, registrations, notes, money] = await Promise.all([
      parcel(deps.db, order),
      repo.findBuyer(deps.db, order.userId),
      deps.payments.chargeById(order.chargeId),
      deps.payments.refundOf(order.chargeId),
      deps.payments.events(order.chargeId),
      repo.listStatusChanges(deps.db, id),
      deps.registrations.ofOrders([id]),
      repo.listNotes(deps.db, id),
      deps.payments.paidAndRefunded(deps.db, [order.chargeId]),
    ]);
    const inscricoes = registrations.get(id) ?? [];
    // The parcel's lines are read once: this order's are its items, the rest its additions'.
    const items = box.items.filter((i) => i.orderId === id);
    return {
      id: order.id,
      status: order.status,
      data: order.orderDate.toISOString(),
      cliente: {
        nome: buyer?.name ?? order.address?.full_name ?? '',
        email: buyer?.email ?? null,
        cpf: order.buyerCpf ? maskCpf(order.buyerCpf) : null,
      },
      itens: items.map((i) => ({
        item_id: i.id,
        product_id: i.productId,
        nome: i.productName,
        cor: i.colorName,
        tamanho: i.sizeName,
        quantidade: i.quantity,
        preco: centsToReais(i.productPriceCents),
      })),
      endereco: order.address,
      servico_frete: shippingServiceOf(order),
      inscricoes,
      subtotal: centsToReais(order.subtotalCents),
      frete: centsToReais(order.shippingCents),
      juros: centsToReais(order.interestCents),
      cupom: order.couponCode,
      desconto: centsToReais(order.discountCents),
      total: centsToReais(order.totalCents),
      reembolsado: centsToReais(money[0]?.refundedCents ?? 0),
      parcelas: order.installments,
      metodo_pagamento: paymentMethodOf(order),
      codigo_rastreio: order.trackingCode,
      rastreio_url: order.trackingCode ? trackingUrl(order.trackingCode) : null,
      pagamento: {
        txid: charge?.txid ?? '',
        status: charge?.status ?? 'desconhecido',
        pago_em: charge?.paidAt?.toISOString() ?? null,
        atencao: charge?.attention ?? null,
        devolucao: refund
          ? { status: refund.status, valor: centsToReais(refund.amountCents), motivo: refund.reason }
          : null,
        eventos: events.map((e) => ({ em: e.createdAt.toISOString(), origem: e.source, tipo: e.kind })),
      },
      linha_do_tempo: [
        { status: 'pago', em: order.orderDate.toISOString(), por: null, codigo_rastreio: null },
        ...changes.map((c) => ({
          status: c.status,
          em: c.at.toISOString(),
          por: c.staffName,
          codigo_rastreio: c.trackingCode,
        })),
      ],
      proximos_status: nextOrderStatuses(order.status, { shipsNothing: order.shippingService === null }),
      notas: notes.map(noteWire),
      versao: await deps.manager.versionOf(deps.db, id),
      complemento_de: order.complementOfId,
      complementos: box.additions.map((a) => ({
        id: a.id,
        status: a.status,
        unidades: box.items.filter((i) => i.orderId === a.id).reduce((sum, i) => sum + i.quantity, 0),
      })),
    };
  }

  /**
   * What the packing slip prints of an order: its lines with their product, colour and size numbers,
   * the delivery address the order kept, and how many registrations it carries.
   */
  /**
   * The order's lines with the units still to ship: units the buyer withdrew before shipping are back
   * on the shelf and never packed (docs/decisions/0036, later); a line wholly withdrawn is left out.
   */
  async function linesToShip(db: Db | Tx, ids: number[]) {
    const [items, withdrawn] = await Promise.all([
      repo.findItems(db, ids),
      returnsRepo.unitsWithdrawn(db, ids),
    ]);
    return items
      .map((i) => ({ ...i, quantity: i.quantity - (withdrawn.get(i.id) ?? 0) }))
      .filter((i) => i.quantity > 0);
  }

  /**
   * What one parcel carries (docs/decisions/0087): the order's lines still to ship and those of its
   * additions not cancelled, each line keeping its own order's id.
   */
  async function parcel(db: Db | Tx, order: repo.OrderRow) {
    const additions = (await repo.findComplements(db, [order.id])).filter((c) => c.status !== 'cancelado');
    const items = await linesToShip(db, [order.id, ...additions.map((a) => a.id)]);
    return { additions, items };
  }

  async function packingSlip(id: number) {
    const order = await repo.findOrder(deps.db, id);
    if (!order) throw notFound('Pedido não encontrado.');
    const [{ items }, registrations] = await Promise.all([
      parcel(deps.db, order),
      deps.registrations.ofOrders([id]),
    ]);
    return {
      id: order.id,
      date: order.orderDate,
      shippingService: shippingServiceOf(order),
      address: order.address,
      items: items.map((i) => ({
        sku: skuOf(i.productId, i.colorId, i.sizeId),
        name: i.orderId === id ? i.productName : `${i.productName} (acréscimo, pedido nº ${i.orderId})`,
        color: i.colorName,
        size: i.sizeName,
        quantity: i.quantity,
      })),
      registrations: registrations.get(id)?.length ?? 0,
    };
  }

  /** Adds a staff-only note to an order, in the caller's transaction (the audit line commits with it). */
  async function addNote(tx: Tx, id: number, text: string, by: { name: string }): Promise<OrderNote> {
    if (!(await repo.findOrder(tx, id))) throw notFound('Pedido não encontrado.');
    return noteWire(await repo.insertNote(tx, { orderId: id, staffName: by.name, text, at: deps.now() }));
  }

  /**
   * Every order the list's filters find (no page), oldest last like the list, for the CSV export; at
   * most `ORDERS_EXPORT_MAX` lines.
   */
  async function exportRows(query: PainelOrderExportQuery) {
    const q = PainelOrderExportQuerySchema.parse(query);
    const { rows } = await repo.listOrdersForStaff(deps.db, filtersOf(q), ORDERS_EXPORT_MAX, 0);
    return rows;
  }

  /**
   * The same orders as the export, each with its lines (product, colour, size, units, unit price as
   * bought): the order-lines CSV, one row per line.
   */
  async function exportLines(query: PainelOrderExportQuery) {
    const rows = await exportRows(query);
    const items = await repo.findItems(
      deps.db,
      rows.map((r) => r.order.id),
    );
    return rows.map((r) => ({ ...r, items: items.filter((i) => i.orderId === r.order.id) }));
  }

  /** The unpaid charges the `aguardando pagamento` / `expirado` filter finds, for the CSV export. */
  async function exportUnpaid(query: PainelOrderExportQuery & { status: UnpaidOrderStatus }) {
    const q = PainelOrderExportQuerySchema.parse(query);
    return (await unpaid({ ...q, status: query.status }, ORDERS_EXPORT_MAX, 0)).cobrancas;
  }

  /**
   * Moves an order one step in the caller's transaction: the row is locked, the move checked, the
   * change recorded and the buyer's e-mail enqueued. Cancelling marks the whole payment returned and
   * gives back the units, the coupon's use and the registrations it paid for (cancelled, their places
   * and shirts back); the caller asks the provider for the money after commit (`refund`).
   */
  async function changeStatus(
    tx: Tx,
    id: number,
    change: {
      status: OrderStatus;
      trackingCode?: string;
      note?: string;
      /** A delivery the carrier's tracking reported: its store-calendar day starts the returns window. */
      deliveredOn?: IsoDate;
    },
    by: { name: string },
  ): Promise<{
    before: repo.OrderRow;
    after: repo.OrderRow;
    refund: RefundRow | null;
    /**
     * What the charges of the cancelled registrations' transfers and paid changes of distance give back
     * (docs/decisions/0047), sent after commit like `refund`.
     */
    registrationRefunds: RefundRow[];
    /** The registrations cancelled with the order (their ids), for the audit line. */
    cancelledRegistrations: number[];
  }> {
    const before = await repo.lockOrder(tx, id);
    if (!before) throw notFound('Pedido não encontrado.');
    await travelsAlone(tx, before, change.status);
    const shape = { shipsNothing: before.shippingService === null };
    if (!canMoveOrder(before.status, change.status, shape))
      throw conflict(
        (before.status === 'enviado' || before.status === 'entregue') && change.status === 'cancelado'
          ? 'Um pedido já enviado não pode ser cancelado.'
          : before.status === 'cancelado'
            ? 'Este pedido já foi cancelado.'
            : before.shippingService === null
              ? 'Este pedido não tem nada a enviar.'
              : `Não é possível passar o pedido de "${before.status}" para "${change.status}".`,
        'transicao_invalida',
      );
    if (change.status === 'enviado' && !change.trackingCode)
      throw badRequest('Informe o código de rastreio dos Correios.', 'rastreio_obrigatorio', {
        codigo_rastreio: 'Informe o código de rastreio dos Correios.',
      });
    const now = deps.now();
    let refund: RefundRow | null = null;
    let cancelledRegistrations: number[] = [];
    let registrationRefunds: RefundRow[] = [];
    let after: repo.OrderRow;
    if (change.status === 'cancelado') {
      // The order's one door (docs/decisions/0065): the whole payment back, the units, the coupon's use
      // and the registrations it paid for (places and shirts freed, what their transfers and changes of
      // distance paid back from those charges), its NF-e and label cancelled; a kit handed out refuses it.
      const why = change.note ? `Pedido cancelado pela loja: ${change.note}` : 'Pedido cancelado pela loja.';
      const whole = await deps.manager.cancelWhole(tx, before, {
        why,
        note: change.note ?? null,
        historyNote: change.note ?? null,
        staffName: by.name,
        kitRefusal: 'o pedido não pode ser cancelado',
      });
      ({ refund, registrationRefunds, cancelledRegistrations } = whole);
      after = (await repo.lockOrder(tx, id)) ?? before;
    } else {
      after = await step(tx, id, change, { by, at: now, note: change.note ?? null });
      // The order's additions not cancelled take the same step, naming the order they travel with.
      for (const addition of await repo.findComplements(tx, [id])) {
        const locked = await repo.lockOrder(tx, addition.id);
        if (locked && canMoveOrder(locked.status, change.status, { shipsNothing: false }))
          await step(tx, locked.id, change, { by, at: now, note: `Junto com o pedido nº ${id}.` });
      }
    }
    await deps.jobs.send('mail.order-status', { orderId: id, status: change.status }, { tx });
    // WhatsApp too, for a buyer who opted in at checkout (docs/decisions/0045).
    const update = orderStatusUpdate(change.status, change.status === 'enviado' ? change.trackingCode : null);
    if (update && after?.whatsappConsentAt && after.address?.phone)
      await deps.jobs.send('whatsapp.order-update', { orderId: id, what: update }, { tx });
    return { before, after, refund, registrationRefunds, cancelledRegistrations };
  }

  /**
   * An addition travels in its order's parcel (docs/decisions/0087): it moves with that order, not on
   * its own, unless that order was cancelled (then it ships alone); cancelling it stays open.
   */
  async function travelsAlone(tx: Tx, order: repo.OrderRow, status: OrderStatus) {
    if (order.complementOfId === null || status === 'cancelado') return;
    const first = await repo.findOrder(tx, order.complementOfId);
    if (first && first.status !== 'cancelado')
      throw conflict(
        `Este pedido é um acréscimo ao pedido nº ${first.id} e vai na mesma caixa: mude o status do pedido nº ${first.id}.`,
        'acrescimo_segue_pedido',
      );
  }

  /**
   * One move of an order that is not a cancellation: its status (and tracking code when shipped), its
   * history row, and the delivery day the carrier's tracking reported.
   */
  async function step(
    tx: Tx,
    id: number,
    change: { status: OrderStatus; trackingCode?: string; deliveredOn?: IsoDate },
    row: { by: { name: string }; at: Date; note: string | null },
  ) {
    const moved = await repo.updateOrder(tx, id, {
      status: change.status,
      ...(change.status === 'enviado' ? { trackingCode: change.trackingCode } : {}),
    });
    await repo.insertStatusChange(tx, {
      orderId: id,
      status: change.status,
      staffName: row.by.name,
      trackingCode: change.status === 'enviado' ? (change.trackingCode ?? null) : null,
      note: row.note,
      at: row.at,
    });
    if (change.status === 'entregue' && change.deliveredOn)
      await saveDelivery(tx, {
        orderId: id,
        deliveredOn: change.deliveredOn,
        source: 'rastreio',
        at: row.at,
      });
    return moved;
  }

  /**
   * Staff's list of changes to an order before it ships (units taken off, registrations withdrawn), in
   * the caller's transaction through the order's one door (docs/decisions/0065): the buyer is told the
   * reason; the refunds are sent by the caller after the commit.
   */
  async function changeList(tx: Tx, id: number, list: StaffOrderChangeRequest, by: { name: string }) {
    const before = await repo.lockOrder(tx, id);
    if (!before) throw notFound('Pedido não encontrado.');
    const { row, refunds, nothingLeft } = await deps.manager.apply(tx, before, list, {
      kind: 'loja',
      name: by.name,
    });
    const after = (await repo.lockOrder(tx, id)) ?? before;
    return { before, after, requestId: row.id, registrationIds: row.registrationIds, refunds, nothingLeft };
  }

  /** What staff's list would give back, tried under every rule and undone (docs/decisions/0065). */
  function quoteList(id: number, list: StaffOrderChangeRequest, by: { name: string }) {
    return deps.manager.quote(
      async (tx) => {
        const order = await repo.lockOrder(tx, id);
        if (!order) throw notFound('Pedido não encontrado.');
        return order;
      },
      list,
      { kind: 'loja', name: by.name },
    );
  }

  /**
   * What a shipping label needs of an order (docs/decisions/0044): the row locked in `tx`, its lines
   * and its buyer; null when there is no such order.
   */
  async function forLabel(tx: Tx, id: number) {
    const order = await repo.lockOrder(tx, id);
    if (!order) return null;
    // The parcel's lines: the order's units still to ship and its additions' (docs/decisions/0087).
    const { additions, items } = await parcel(tx, order);
    const buyer = await repo.findBuyer(tx, order.userId);
    const first = order.complementOfId === null ? null : await repo.findOrder(tx, order.complementOfId);
    return {
      order,
      items,
      buyer,
      additionsCents: additions.reduce((sum, a) => sum + a.subtotalCents, 0),
      /** An addition's order, while it ships: the addition has no label of its own. */
      travelsWith: first && first.status !== 'cancelado' ? first.id : null,
    };
  }

  /**
   * Writes the bought label's object code on an order not yet shipped: the provider fills it in,
   * staff then mark the order `enviado` with it (or the tracking does, once posted).
   */
  async function fillTrackingCode(tx: Tx, id: number, code: string) {
    await repo.updateOrder(tx, id, { trackingCode: code });
  }

  /** Orders paid or being packed: what the shop still has to ship. */
  const awaitingShipment = () => repo.countShippingByStatus(deps.db, ['pago', 'em separação']);

  const ordersOfCharges = (chargeIds: number[]) => repo.findOrderIdsByCharges(deps.db, chargeIds);

  /** Shop and registration sales per store day since `since`, for the dashboard (dashboard.repository.ts). */
  const salesPerDay = (since: Date) => dailySales(deps.db, since);

  /**
   * The money paid since `since` under every heading (orders, exchanges' differences, registrations and
   * their transfers and changes): gross, refunded (every refund row that did not fail), net (equal to
   * the days' sales summed), and the orders paid with their average ticket (their own charges / orders),
   * all in centavos, so they add up to the cent.
   */
  async function orderFigures(since: Date) {
    const t = await orderTotals(deps.db, since);
    return {
      count: t.count,
      grossCents: t.grossCents,
      refundedCents: t.refundedCents,
      netCents: t.grossCents - t.refundedCents,
      averageCents: t.count ? Math.round(t.ordersCents / t.count) : 0,
    };
  }

  return {
    list,
    detail,
    packingSlip,
    changeStatus,
    changeList,
    quoteList,
    forLabel,
    fillTrackingCode,
    addNote,
    exportRows,
    exportLines,
    exportUnpaid,
    awaitingShipment,
    ordersOfCharges,
    salesPerDay,
    orderFigures,
  };
}

export type OrdersAdmin = ReturnType<typeof createOrdersAdmin>;

/** Today in the store's calendar, for date filters and the dashboard. */
export const storeToday = (now: Date) => dateInTimeZone(now, STORE_TIME_ZONE);
