import { addDays, dateInTimeZone, formatIsoDateBR, STORE_TIME_ZONE } from '@passada/core/calendar';
import type { ExchangeRequest, OrderReturn } from '@passada/core/contracts/returns';
import { reaisToCents } from '@passada/core/money';
import { unitPrice } from '@passada/core/sale-price';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Db, Tx } from '../../db/client.ts';
import type { AppJobCatalog } from '../../jobs/job-catalog.ts';
import type { Jobs } from '../../jobs/jobs.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { badRequest, conflict, notFound } from '../../plugins/errors.ts';
import type { CatalogService } from '../catalog/catalog.service.ts';
import {
  CannotFulfil,
  type ChargePurposeHandler,
  type PaymentsService,
} from '../payments/payments.service.ts';
import type { OrderChange } from './order-change.ts';
import type { OrderReturns } from './order-returns.ts';
import * as orderRepo from './orders.repository.ts';
import { billingAddress } from './orders.service.ts';
import * as repo from './returns.repository.ts';

export interface OrderExchangesDeps {
  db: Db;
  now: () => Date;
  log: FastifyBaseLogger;
  jobs: Pick<Jobs<AppJobCatalog>, 'send'>;
  catalog: Pick<CatalogService, 'getProduct' | 'holdForExchange'>;
  payments: Pick<PaymentsService, 'sendRefund'>;
  change: Pick<OrderChange, 'closeExchange' | 'announce'>;
  returns: Pick<
    OrderReturns,
    'toWire' | 'remaining' | 'deadlines' | 'deliveryDay' | 'unitsValue' | 'issuePostingCode'
  >;
}

/** Days a buyer has to post an exchange when the carrier gave the code no validity of its own. */
export const EXCHANGE_POSTING_DAYS = 30;

const storeDay = (at: Date) => dateInTimeZone(at, STORE_TIME_ZONE);

/** What an exchange's difference charge carries: only the request, priced again on the server. */
const ExchangeDraftSchema = z.object({ solicitacao: z.number().int().positive() });
type ExchangeDraft = z.infer<typeof ExchangeDraftSchema>;

/**
 * Exchanges (docs/decisions/0040): the buyer swaps units of a delivered line for another colour or size of
 * the same product, within the same window as a return. The new units leave the shelf at once (a
 * `troca_reserva` movement, never below zero: the last unit goes to one buyer), the returned ones follow the
 * return's path (posting code, posted, received), and staff ship the new ones when the setting allows. A
 * price difference (today's price against the price paid, per unit) is paid through a charge of purpose
 * `exchange` or refunded when the exchange ships; a refusal or a lapsed window puts the units back.
 */
export function createOrderExchanges(deps: OrderExchangesDeps) {
  /** POST /api/orders/:id/trocas/ */
  async function requestExchange(
    user: AuthUser,
    orderId: number,
    request: ExchangeRequest,
  ): Promise<OrderReturn> {
    const row = await deps.db.transaction(async (tx) => {
      const order = await orderRepo.lockOrder(tx, orderId);
      if (!order || order.userId !== user.id) throw notFound('Pedido não encontrado.');
      if (order.status !== 'entregue')
        throw conflict(
          order.status === 'enviado'
            ? 'A troca pode ser pedida depois que o pedido for entregue.'
            : 'Este pedido não pode ser trocado.',
          'troca_indisponivel',
        );
      const { regret, defect } = deps.returns.deadlines(await deps.returns.deliveryDay(tx, orderId));
      const last = request.motivo === 'defeito' ? defect : regret;
      if (!last || storeDay(deps.now()) > last)
        throw conflict(
          request.motivo === 'defeito'
            ? `O prazo de 90 dias para reclamar de defeito terminou em ${formatIsoDateBR(last ?? '')}.`
            : `O prazo de 7 dias para trocar terminou em ${formatIsoDateBR(last ?? '')}. Se o produto tem defeito, escolha "defeito".`,
          'prazo_encerrado',
        );
      const left = new Map(
        (await deps.returns.remaining(tx, orderId)).map((l) => [l.item.id, { item: l.item, left: l.left }]),
      );
      const chosen = [];
      for (const line of request.itens) {
        const found = left.get(line.item_id);
        if (!found) throw badRequest('Item não encontrado neste pedido.', 'item_invalido');
        if (line.quantidade > found.left)
          throw conflict(
            `Restam ${found.left} unidade(s) de ${found.item.productName} para trocar.`,
            'quantidade_indisponivel',
          );
        found.left -= line.quantidade;
        const { item } = found;
        if (item.colorId === line.cor_id && item.sizeId === line.tamanho_id)
          throw badRequest('Escolha outra cor ou outro tamanho para trocar.', 'troca_igual');
        const product = await deps.catalog
          .getProduct(item.productId, { color: line.cor_id, size: line.tamanho_id }, tx)
          .catch(() => null);
        const combo = product?.stock[0];
        if (!product || !combo)
          throw badRequest(
            `${item.productName} não existe nessa cor e nesse tamanho.`,
            'combinacao_invalida',
          );
        chosen.push({ item, units: line.quantidade, product, combo });
      }
      const differenceCents = chosen.reduce(
        (sum, c) => sum + (reaisToCents(unitPrice(c.product, c.combo)) - c.item.productPriceCents) * c.units,
        0,
      );
      const now = deps.now();
      const created = await repo.insertReturn(tx, {
        orderId,
        kind: 'troca',
        status: 'solicitada',
        reason: request.motivo,
        note: request.descricao ?? null,
        differenceCents,
        createdAt: now,
      });
      await repo.insertReturnItems(
        tx,
        chosen.map((c) => ({
          returnId: created.id,
          orderItemId: c.item.id,
          quantity: c.units,
          valueCents: deps.returns.unitsValue(order, c.item, c.units),
        })),
      );
      await deps.catalog.holdForExchange(
        tx,
        orderId,
        chosen.map((c) => ({
          productId: c.item.productId,
          colorId: c.combo.color.id,
          sizeId: c.combo.size.id,
          quantity: c.units,
          label: `${c.item.productName} ${c.combo.color.name} ${c.combo.size.name}`,
        })),
        `Troca nº ${created.id} do pedido nº ${orderId}`,
      );
      await repo.insertExchangeItems(
        tx,
        chosen.map((c) => ({
          returnId: created.id,
          orderItemId: c.item.id,
          productId: c.item.productId,
          colorId: c.combo.color.id,
          sizeId: c.combo.size.id,
          colorName: c.combo.color.name,
          sizeName: c.combo.size.name,
          quantity: c.units,
          unitPriceCents: reaisToCents(unitPrice(c.product, c.combo)),
        })),
      );
      return created;
    });
    await deps.returns.issuePostingCode(row.id);
    const [answer] = await deps.returns.toWire([(await repo.findReturn(deps.db, row.id))!]);
    return answer!;
  }

  /**
   * Exchanges whose buyer never posted the parcel: past the code's validity (or EXCHANGE_POSTING_DAYS
   * from the request when there is no code) the request is refused with the reason and the units go back.
   * Run daily by the job `returns.lapse-exchanges`; answers how many lapsed.
   */
  async function lapseExchanges(): Promise<number> {
    const today = storeDay(deps.now());
    let lapsed = 0;
    for (const candidate of await repo.listWaitingExchanges(deps.db)) {
      const lastDay =
        candidate.postingValidUntil ?? addDays(storeDay(candidate.createdAt), EXCHANGE_POSTING_DAYS);
      if (today <= lastDay) continue;
      const refund = await deps.db.transaction(async (tx) => {
        const row = await repo.lockReturn(tx, candidate.id);
        if (!row || (row.status !== 'solicitada' && row.status !== 'codigo_enviado')) return null;
        const back = await deps.change.closeExchange(tx, row, 'prazo de postagem encerrado');
        await repo.updateReturn(tx, row.id, {
          status: 'recusada',
          refusal: `O prazo para postar a troca terminou em ${formatIsoDateBR(lastDay)}; a unidade reservada voltou ao estoque.`,
          version: row.version + 1,
          updatedAt: deps.now(),
        });
        await deps.change.announce(tx, row.id);
        lapsed += 1;
        return back;
      });
      if (refund) await deps.payments.sendRefund(refund);
    }
    if (lapsed) deps.log.info({ lapsed }, 'exchanges lapsed; held units released');
    return lapsed;
  }

  /** The request a difference charge pays for, checked again under its row lock. */
  async function payable(tx: Tx, user: AuthUser | null, id: number, lock: boolean) {
    const row = lock ? await repo.lockReturn(tx, id) : await repo.findReturn(tx, id);
    const order = row ? await orderRepo.findOrder(tx, row.orderId) : null;
    if (!row || !order || row.kind !== 'troca' || (user && order.userId !== user.id))
      throw notFound('Troca não encontrada.');
    return { row, order };
  }

  /**
   * The `exchange` purpose of a charge: pays a positive difference. Nothing to hold (the units were held
   * when the exchange was asked); a second paid charge for the same request, or one paid after the request
   * was refused, cannot fulfil and is returned by the payments module.
   */
  const purpose: ChargePurposeHandler<ExchangeDraft> = {
    async prepare(tx, { user, draft }) {
      const parsed = ExchangeDraftSchema.safeParse(draft);
      if (!parsed.success) throw badRequest('Informe a troca a pagar.', 'troca_invalida');
      const { row, order } = await payable(tx, user, parsed.data.solicitacao, false);
      if (row.status === 'recusada' || row.status === 'trocada')
        throw conflict('Esta troca já foi encerrada.', 'troca_encerrada');
      if (row.differenceCents <= 0) throw conflict('Esta troca não tem diferença a pagar.', 'nada_a_pagar');
      if (row.differenceChargeId !== null)
        throw conflict('A diferença desta troca já foi paga.', 'diferenca_ja_paga');
      return {
        amountCents: row.differenceCents,
        description: `Diferença da troca nº ${row.id} do pedido nº ${order.id}`,
        draft: parsed.data,
        ...(order.address ? { billingAddress: billingAddress(order.address) } : {}),
      };
    },
    async reserve() {},
    async release() {},
    async fulfil(tx, charge) {
      const { solicitacao } = ExchangeDraftSchema.parse(charge.draft);
      const { row } = await payable(tx, null, solicitacao, true);
      if (row.differenceChargeId !== null || row.status === 'recusada' || row.status === 'trocada')
        throw new CannotFulfil('exchange already paid or closed');
      await repo.updateReturn(tx, row.id, { differenceChargeId: charge.id, updatedAt: deps.now() });
      await deps.jobs.send('mail.return-update', { returnId: row.id }, { tx });
      return { id: row.id };
    },
    async fulfilledBy(db, chargeId) {
      const row = await repo.findReturnByDifferenceCharge(db, chargeId);
      return row ? { id: row.id } : null;
    },
    withoutPersonalData: (draft) => draft,
  };

  return { requestExchange, lapseExchanges, purpose };
}

export type OrderExchanges = ReturnType<typeof createOrderExchanges>;
