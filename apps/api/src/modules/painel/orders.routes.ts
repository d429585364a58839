import { addDays, formatStoreDateTime } from '@passada/core/calendar';
import { formatCep } from '@passada/core/cep';
import { COMPANY } from '@passada/core/company';
import { IdParamSchema } from '@passada/core/contracts/common';
import { ORDER_STATUS_LABEL, PAYMENT_METHOD_LABEL } from '@passada/core/contracts/orders';
import { skuOf } from '@passada/core/contracts/painel-catalog';
import {
  AdditionOfferAnswerSchema,
  AdditionOfferSchema,
  type Dashboard,
  DashboardSchema,
  isUnpaidOrderStatus,
  NewOrderNoteSchema,
  OrderNoteSchema,
  type OrderStatusChange,
  OrderStatusChangeSchema,
  type PackingSlip,
  PackingSlipSchema,
  PainelOrderDetailSchema,
  PainelOrderExportQuerySchema,
  PainelOrderPageSchema,
  PainelOrderQuerySchema,
} from '@passada/core/contracts/painel-orders';
import {
  OrderChangeQuoteSchema,
  type StaffOrderChangeRequest,
  StaffOrderChangeRequestSchema,
} from '@passada/core/contracts/returns';
import { LabelPrintQuerySchema } from '@passada/core/contracts/shipping-labels';
import { centsToCommaString, centsToReais, formatBRL, reaisToCents } from '@passada/core/money';
import { formatPhone } from '@passada/core/phone';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest } from '../../plugins/errors.ts';
import { paymentMethodOf } from '../orders/orders.service.ts';
import { auditShape, buyerAndRecipient, storeToday } from '../orders/orders-admin.ts';
import { actor, audited, PAINEL_ERRORS } from '../staff/index.ts';
import { code128Svg } from './barcode.ts';
import { csvLine, sendCsv } from './csv.ts';
import { renderPackingSlipsPdf } from './packing-slips-pdf.ts';

const OrderIdSchema = IdParamSchema;
const LOW_STOCK_THRESHOLD = 3;

/** The orders CSV's columns, in order (the test reads the file back against it). */
export const ORDERS_CSV_HEADER = [
  'Pedido',
  'Data',
  'Status',
  'Cliente',
  'E-mail',
  'Pagamento',
  'Itens',
  'Subtotal (R$)',
  'Frete (R$)',
  'Desconto (R$)',
  'Total (R$)',
  'Rastreio',
  // Who receives the parcel when not the buyer; last, so importers reading by position keep working.
  'Destinatário',
];

/** The first columns of both orders CSVs: the order, its date, its status, the buyer and their e-mail. */
const orderCsvHead = (
  order: { id: number; orderDate: Date; status: keyof typeof ORDER_STATUS_LABEL },
  buyer: string,
  email: string | null,
) => [order.id, formatStoreDateTime(order.orderDate), ORDER_STATUS_LABEL[order.status], buyer, email ?? ''];

/** The order-lines CSV's columns: one row per line of each order the list's filters find. */
export const ORDER_LINES_CSV_HEADER = [
  'Pedido',
  'Data',
  'Status',
  'Cliente',
  'E-mail',
  'SKU',
  'Produto',
  'Cor',
  'Tamanho',
  'Quantidade',
  'Preço unitário (R$)',
  'Total da linha (R$)',
];

/** The CSV's columns when the filter finds unpaid charges (`aguardando pagamento`, `expirado`). */
export const UNPAID_CHARGES_CSV_HEADER = [
  'Cobrança',
  'Criada em',
  'Expira em',
  'Status',
  'Situação no provedor',
  'Cliente',
  'E-mail',
  'Pagamento',
  'Itens',
  'Inscrições',
  'Total (R$)',
];

/** Orders (list, detail, status flow with refunds) and the dashboard; cancelling with a refund is for roles that may move money. */
export const ordersRoutes: FastifyPluginAsyncZod = async (app) => {
  const admin = app.orders.admin;
  const tags = ['painel: pedidos'];

  app.get(
    '/orders/',
    {
      config: { painel: { permission: 'pedidos' } },
      schema: {
        tags,
        summary: 'Pedidos com filtros (status, período, pagamento, busca) e paginação',
        querystring: PainelOrderQuerySchema,
        response: { 200: PainelOrderPageSchema, ...PAINEL_ERRORS },
      },
    },
    async (req) => admin.list(req.query),
  );

  app.get(
    '/orders.csv',
    {
      config: { painel: { permission: 'pedidos' } },
      schema: {
        tags,
        summary: 'Pedidos em CSV com os filtros da lista (UTF-8 com BOM, separador ;)',
        querystring: PainelOrderExportQuerySchema,
      },
    },
    async (req, reply) => {
      const filename = `pedidos-${storeToday(app.now())}.csv`;
      const { status } = req.query;
      if (isUnpaidOrderStatus(status)) {
        const lines = [UNPAID_CHARGES_CSV_HEADER.join(';')];
        for (const c of await admin.exportUnpaid({ ...req.query, status })) {
          lines.push(
            csvLine([
              c.cobranca_id,
              formatStoreDateTime(new Date(c.criada_em)),
              formatStoreDateTime(new Date(c.expira_em)),
              ORDER_STATUS_LABEL[c.status],
              c.situacao,
              c.cliente,
              c.email ?? '',
              PAYMENT_METHOD_LABEL[c.metodo_pagamento],
              c.itens.map((i) => `${i.quantidade}x ${i.nome} (${i.cor}, ${i.tamanho})`).join(' | '),
              c.inscricoes,
              centsToCommaString(reaisToCents(c.total)),
            ]),
          );
        }
        return sendCsv(reply, filename, lines);
      }
      const lines = [ORDERS_CSV_HEADER.join(';')];
      for (const { order, email, buyerName, units } of await admin.exportRows(req.query)) {
        const who = buyerAndRecipient(order, buyerName, email);
        lines.push(
          csvLine([
            ...orderCsvHead(order, who.cliente, email),
            PAYMENT_METHOD_LABEL[paymentMethodOf(order)],
            Number(units),
            centsToCommaString(order.subtotalCents),
            centsToCommaString(order.shippingCents),
            centsToCommaString(order.discountCents),
            centsToCommaString(order.totalCents),
            order.trackingCode ?? '',
            who.destinatario ?? '',
          ]),
        );
      }
      return sendCsv(reply, filename, lines);
    },
  );

  app.get(
    '/orders/itens.csv',
    {
      config: { painel: { permission: 'pedidos' } },
      schema: {
        tags,
        summary:
          'Itens dos pedidos em CSV com os filtros da lista, uma linha por item com SKU, cor e tamanho (UTF-8 com BOM, separador ;)',
        querystring: PainelOrderExportQuerySchema,
      },
    },
    async (req, reply) => {
      if (isUnpaidOrderStatus(req.query.status))
        throw badRequest(
          'O CSV de itens é dos pedidos pagos: para cobranças não pagas, use "Exportar CSV".',
          'filtro_invalido',
        );
      const lines = [ORDER_LINES_CSV_HEADER.join(';')];
      for (const { order, email, buyerName, items } of await admin.exportLines(req.query)) {
        const head = orderCsvHead(order, buyerAndRecipient(order, buyerName, email).cliente, email);
        for (const item of items)
          lines.push(
            csvLine([
              ...head,
              skuOf(item.productId, item.colorId, item.sizeId),
              item.productName,
              item.colorName,
              item.sizeName,
              item.quantity,
              centsToCommaString(item.productPriceCents),
              centsToCommaString(item.productPriceCents * item.quantity),
            ]),
          );
      }
      return sendCsv(reply, `itens-pedidos-${storeToday(app.now())}.csv`, lines);
    },
  );

  app.get(
    '/orders/:id/',
    {
      config: { painel: { permission: 'pedidos' } },
      schema: {
        tags,
        summary: 'Um pedido: itens, endereço, pagamento com seus eventos e linha do tempo',
        params: OrderIdSchema,
        response: { 200: PainelOrderDetailSchema, ...PAINEL_ERRORS },
      },
    },
    async (req) => admin.detail(req.params.id),
  );

  /** The packing slip's wire: the one order's page and the selection's PDF print the same. */
  const slipWire = async (id: number): Promise<PackingSlip> => {
    const slip = await admin.packingSlip(id);
    const a = slip.address;
    return {
      pedido: slip.id,
      data: slip.date.toISOString(),
      servico_frete: slip.shippingService,
      remetente: {
        nome: app.env.STORE_NAME,
        razao_social: COMPANY.legalName,
        cnpj: COMPANY.cnpj,
        endereco: COMPANY.address,
        telefone: COMPANY.phone,
      },
      destinatario: a
        ? {
            nome: a.full_name,
            endereco: a.street,
            bairro: a.neighborhood,
            cidade: a.city,
            uf: a.state,
            cep: formatCep(a.zip_code),
            telefone: formatPhone(a.phone),
          }
        : null,
      itens: slip.items.map((i) => ({
        sku: i.sku,
        nome: i.name,
        cor: i.color,
        tamanho: i.size,
        quantidade: i.quantity,
      })),
      inscricoes: slip.registrations,
      codigo_barras: { formato: 'code128', texto: String(slip.id), svg: code128Svg(String(slip.id)) },
    };
  };

  app.get(
    '/orders/:id/romaneio/',
    {
      config: { painel: { permission: 'pedidos' } },
      schema: {
        tags,
        summary:
          'Romaneio (guia de separação) do pedido: remetente, destinatário, itens com SKU e código de barras Code 128 do número',
        params: OrderIdSchema,
        response: { 200: PackingSlipSchema, ...PAINEL_ERRORS },
      },
    },
    async (req) => slipWire(req.params.id),
  );

  app.get(
    '/orders/romaneios.pdf',
    {
      config: { painel: { permission: 'pedidos' } },
      schema: {
        tags,
        summary:
          'Os romaneios dos pedidos escolhidos num só PDF, uma página por pedido (no máximo LABELS_MAX_PER_REQUEST)',
        querystring: LabelPrintQuerySchema,
      },
    },
    async (req, reply) => {
      const ids = req.query.pedidos;
      const max = app.env.LABELS_MAX_PER_REQUEST;
      if (ids.length > max)
        throw badRequest(`No máximo ${max} pedidos por vez.`, 'muitos_pedidos', {
          pedidos: `No máximo ${max} pedidos por vez.`,
        });
      const slips = [];
      for (const id of ids) slips.push(await slipWire(id));
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="romaneios-${storeToday(app.now())}.pdf"`)
        .header('cache-control', 'no-store')
        .send(await renderPackingSlipsPdf(slips));
    },
  );

  app.post(
    '/orders/:id/status/',
    {
      // Cancelling returns the payment: only roles that may move money. Every other move: orders.
      config: {
        painel: {
          permission: 'pedidos',
          alsoNeeds: (req) =>
            (req.body as OrderStatusChange).status === 'cancelado' ? 'devolver_pagamento' : undefined,
        },
      },
      schema: {
        tags,
        summary:
          'Mover o pedido (em separação, enviado com rastreio, entregue: qualquer perfil; cancelado com devolução: só quem pode devolver pagamentos)',
        params: OrderIdSchema,
        body: OrderStatusChangeSchema,
        response: { 200: PainelOrderDetailSchema, ...PAINEL_ERRORS },
      },
    },
    async (req) => {
      const moved = await audited(
        req, // A picked-up kit refuses the cancellation inside (orders-admin.ts, with the registrations' rule).
        (tx) =>
          admin.changeStatus(
            tx,
            req.params.id,
            { status: req.body.status, trackingCode: req.body.codigo_rastreio, note: req.body.motivo },
            { name: actor(req).name },
          ),
        (result) => ({
          action: req.body.status === 'cancelado' ? 'cancelado' : 'status',
          entity: 'pedido',
          entityId: req.params.id,
          before: auditShape(result.before),
          after: {
            ...auditShape(result.after),
            ...(result.cancelledRegistrations.length
              ? { inscricoes_canceladas: result.cancelledRegistrations }
              : {}),
          },
        }),
      );
      // The money goes back only once the cancellation committed; a failure is retried by reconciliation.
      if (moved.refund) await app.payments.sendRefund(moved.refund);
      for (const part of moved.registrationRefunds) await app.payments.sendRefund(part);
      return admin.detail(req.params.id);
    },
  );

  app.post(
    '/orders/:id/alteracoes/cotacao/',
    {
      config: {
        painel: {
          permission: 'pedidos',
          alsoNeeds: (req) =>
            movesMoney(req.body as StaffOrderChangeRequest) ? 'devolver_pagamento' : undefined,
        },
      },
      schema: {
        tags,
        summary: 'O que uma lista de alterações antes do envio devolveria, sem mudar nada',
        params: OrderIdSchema,
        body: StaffOrderChangeRequestSchema,
        response: { 200: OrderChangeQuoteSchema, ...PAINEL_ERRORS },
      },
    },
    async (req) => admin.quoteList(req.params.id, req.body, { name: actor(req).name }),
  );

  app.post(
    '/orders/:id/alteracoes/',
    {
      // Units or registrations taken off give money back: only roles that may move money. A list of
      // swaps alone (another colour or size at the same price) moves none: orders, as the status route.
      config: {
        painel: {
          permission: 'pedidos',
          alsoNeeds: (req) =>
            movesMoney(req.body as StaffOrderChangeRequest) ? 'devolver_pagamento' : undefined,
        },
      },
      schema: {
        tags,
        summary:
          'Alterar o pedido antes do envio (tirar unidades, cancelar inscrições), com a versão lida e o motivo que o cliente recebe: o valor volta na hora',
        params: OrderIdSchema,
        body: StaffOrderChangeRequestSchema,
        response: { 200: PainelOrderDetailSchema, ...PAINEL_ERRORS },
      },
    },
    async (req) => {
      const changed = await audited(
        req,
        (tx) => admin.changeList(tx, req.params.id, req.body, { name: actor(req).name }),
        (result) => ({
          action: result.nothingLeft ? 'cancelado' : 'alterado',
          entity: 'pedido',
          entityId: req.params.id,
          before: auditShape(result.before),
          after: {
            ...auditShape(result.after),
            solicitacao: result.requestId,
            itens: req.body.itens ?? [],
            ...(req.body.trocas?.length ? { trocas: req.body.trocas } : {}),
            ...(result.registrationIds.length ? { inscricoes_canceladas: result.registrationIds } : {}),
            motivo: req.body.motivo,
          },
        }),
      );
      // The money goes back only once the change committed; a failure is retried by reconciliation.
      for (const refund of changed.refunds) await app.payments.sendRefund(refund);
      return admin.detail(req.params.id);
    },
  );

  app.post(
    '/orders/:id/acrescimo/',
    {
      config: { painel: { permission: 'pedidos' } },
      schema: {
        tags,
        summary:
          'Propõe ao cliente um acréscimo ao pedido ainda não enviado (mais unidades de um produto dele): e-mail com o link que abre o acréscimo preenchido em "Meus pedidos"; nada é reservado nem cobrado',
        params: OrderIdSchema,
        body: AdditionOfferSchema,
        response: { 201: AdditionOfferAnswerSchema, ...PAINEL_ERRORS },
      },
    },
    async (req, reply) => {
      const answer = await audited(
        req,
        (tx) => app.orders.additions.offer(tx, req.params.id, req.body, { name: actor(req).name }),
        (a) => ({
          action: 'acrescimo_proposto',
          entity: 'pedido',
          entityId: req.params.id,
          before: null,
          after: {
            observacao: `Acréscimo proposto ao cliente (${a.email}): R$ ${a.total.toFixed(2).replace('.', ',')}`,
          },
        }),
      );
      return reply.status(201).send(answer);
    },
  );

  app.post(
    '/orders/:id/notes/',
    {
      config: { painel: { permission: 'pedidos' } },
      schema: {
        tags,
        summary: 'Nota interna no pedido (só a equipe vê; autor e hora registrados)',
        params: OrderIdSchema,
        body: NewOrderNoteSchema,
        response: { 201: OrderNoteSchema, ...PAINEL_ERRORS },
      },
    },
    async (req, reply) => {
      const note = await audited(
        req,
        (tx) => admin.addNote(tx, req.params.id, req.body.texto, { name: actor(req).name }),
        (n) => ({
          action: 'nota',
          entity: 'pedido',
          entityId: req.params.id,
          before: null,
          after: { nota: n.texto },
        }),
      );
      return reply.status(201).send(note);
    },
  );

  app.get(
    '/orders/aguardando-envio/',
    {
      config: { painel: { permission: 'pedidos' } },
      schema: {
        tags,
        summary:
          'Quantos pedidos pagos esperam envio (pagos e em separação): o primeiro número de quem despacha',
        response: { 200: z.object({ aguardando_envio: z.number().int() }), ...PAINEL_ERRORS },
      },
    },
    async () => ({ aguardando_envio: await admin.awaitingShipment() }),
  );

  app.get(
    '/dashboard/',
    {
      config: { painel: { permission: 'relatorios' } },
      schema: {
        tags: ['painel: resumo'],
        summary: 'Vendas, pedidos a enviar, estoque baixo, inscrições e pagamentos que pedem atenção',
        response: { 200: DashboardSchema, ...PAINEL_ERRORS },
      },
    },
    async (): Promise<Dashboard> => {
      const today = storeToday(app.now());
      const first = addDays(today, -29);
      const { shop, regs } = await admin.salesPerDay(new Date(`${first}T00:00:00-03:00`));
      const days = Array.from({ length: 30 }, (_, i) => addDays(first, i));
      const perDay = days.map((dia) => ({
        dia,
        loja: centsToReais(shop.find((s) => s.day === dia)?.cents ?? 0),
        inscricoes: centsToReais(regs.find((r) => r.day === dia)?.cents ?? 0),
      }));
      const sum = (n: number) => {
        const slice = perDay.slice(-n);
        const total = (k: 'loja' | 'inscricoes') =>
          Math.round(slice.reduce((acc, d) => acc + d[k] * 100, 0)) / 100;
        return { loja: total('loja'), inscricoes: total('inscricoes') };
      };
      const figures = await admin.orderFigures(new Date(`${first}T00:00:00-03:00`));
      const attention = await app.payments.needingAttention();
      const orderOf = new Map(
        (await admin.ordersOfCharges(attention.map((c) => c.id))).map((o) => [o.chargeId, o.id]),
      );
      return {
        vendas: { hoje: sum(1), dias_7: sum(7), dias_30: sum(30) },
        vendas_por_dia: perDay,
        pedidos_30_dias: {
          pedidos: figures.count,
          bruto: centsToReais(figures.grossCents),
          devolvido: centsToReais(figures.refundedCents),
          liquido: centsToReais(figures.netCents),
          ticket_medio: centsToReais(figures.averageCents),
        },
        aguardando_envio: await admin.awaitingShipment(),
        estoque_baixo: (await app.catalog.admin.lowStock(LOW_STOCK_THRESHOLD)).slice(0, 20).map((r) => ({
          product_id: r.productId,
          produto: r.productName,
          cor: r.color,
          tamanho: r.size,
          quantidade: r.quantity,
        })),
        inscricoes_por_evento: (await app.registrationsAdmin.perEvent()).map((e) => ({
          evento_id: e.id,
          evento: e.name,
          inscritos: Number(e.n),
          gratuitas: Number(e.free),
        })),
        atencao: attention.map((c) => ({
          txid: c.txid,
          metodo: c.method,
          status: c.status,
          motivo: c.attention ?? '',
          valor: centsToReais(c.amountCents),
          pedido_id: orderOf.get(c.id) ?? null,
        })),
        webhook_pix: app.payments.webhookState(),
      };
    },
  );
};

/**
 * Whether a staff list may give money back: anything but swaps (an empty list is the whole order). The
 * body is read before validation, so a malformed one counts as moving money.
 */
function movesMoney(body: Partial<StaffOrderChangeRequest> | undefined): boolean {
  if (!body || typeof body !== 'object') return true;
  const swapsOnly =
    (body.trocas?.length ?? 0) > 0 &&
    !body.itens?.length &&
    !body.inscricoes?.length &&
    body.operacoes === undefined;
  return !swapsOnly;
}
