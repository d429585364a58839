import { dateInTimeZone, STORE_TIME_ZONE } from '@passada/core/calendar';
import { COMPANY } from '@passada/core/company';
import type { LabelResult } from '@passada/core/contracts/shipping-labels';
import { and, eq, inArray, ne } from 'drizzle-orm';
import type { Env } from '../../config/env.ts';
import type { Db, Tx } from '../../db/client.ts';
import { shippingLabels } from '../../db/schema/shipping.ts';
import type { AppJobCatalog } from '../../jobs/job-catalog.ts';
import type { Jobs } from '../../jobs/jobs.ts';
import { conflict, HttpError } from '../../plugins/errors.ts';
import type { MailProvider } from '../../providers/mail/index.ts';
import {
  type LabelProvider,
  LabelProviderError,
  type LabelRequest,
  type PrintedLabels,
  type StoredLabel,
  type TrackingState,
} from '../../providers/shipping/label.provider.ts';
import type { CatalogService } from '../catalog/catalog.service.ts';
import type { OrdersAdmin } from '../orders/orders-admin.ts';
import { trackingMail } from './labels-mail.ts';
import { combinePackages } from './shipping-package.ts';

type Logger = { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };

/** How long one purchase holds an order's label before another attempt may take over (a crash). */
export const LABEL_CLAIM_MS = 2 * 60_000;

/** Who moves an order when the carrier's tracking does, in the timeline. */
export const TRACKING_ACTOR = 'Rastreio dos Correios';

const STATE_ORDER: TrackingState[] = ['aguardando_postagem', 'postado', 'saiu_para_entrega', 'entregue'];
const rank = (s: TrackingState) => STATE_ORDER.indexOf(s);

export interface LabelsServiceDeps {
  db: Db;
  env: Pick<Env, 'SHIPPING_ORIGIN_CEP' | 'STORE_NAME' | 'publicUrl'>;
  now: () => Date;
  log: Logger;
  provider: LabelProvider;
  mail: MailProvider;
  jobs: Pick<Jobs<AppJobCatalog>, 'send'>;
  catalog: Pick<CatalogService, 'findProductPackages'>;
  orders: Pick<OrdersAdmin, 'forLabel' | 'fillTrackingCode' | 'changeStatus'>;
  /** WhatsApp to buyers who opted in (`app.orders.whatsapp`): "saiu para entrega" like its e-mail. */
  whatsapp?: { notifyUpdate(orderId: number, what: string, tx?: Tx): Promise<boolean> };
}

type LabelRow = typeof shippingLabels.$inferSelect;

const stored = (row: LabelRow): StoredLabel => ({
  orderId: row.orderId,
  providerRef: row.providerRef ?? '',
  trackingCode: row.trackingCode ?? '',
  purchasedAt: row.purchasedAt ?? row.createdAt,
  request: row.request,
});

/** The shop's address on the label: the company's, with the origin CEP the quotes use. */
function senderOf(env: LabelsServiceDeps['env']): LabelRequest['sender'] {
  // "Av. Beira Mar, 3000, loja 12, Meireles, Fortaleza-CE, CEP 60165-121"
  const parts = COMPANY.address.split(', ');
  const [city, state] = (parts[parts.length - 2] ?? 'Fortaleza-CE').split('-');
  return {
    name: COMPANY.legalName,
    phone: COMPANY.phone,
    email: COMPANY.email,
    document: COMPANY.cnpj.replace(/[^0-9A-Z]/g, ''),
    street: parts.slice(0, parts.length - 3).join(', '),
    neighborhood: parts[parts.length - 3] ?? '',
    city: city ?? 'Fortaleza',
    state: state ?? 'CE',
    cep: env.SHIPPING_ORIGIN_CEP,
  };
}

/**
 * Shipping labels (docs/decisions/0044): bought once per order from the label provider with the
 * NF-e key, declared value and package; printed several at once; tracked on a schedule, which
 * e-mails the buyer and moves the order (posted → `enviado`, delivered → `entregue`).
 */
export function createLabelsService(deps: LabelsServiceDeps) {
  const { db } = deps;

  type Claim = { kind: 'done'; row: LabelRow } | { kind: 'busy' } | { kind: 'claimed'; row: LabelRow };

  /** Locks the order, checks it ships, and claims its label row for this attempt. */
  async function claim(orderId: number, nfeKey: string | null, staffName: string): Promise<Claim> {
    return db.transaction(async (tx) => {
      const info = await deps.orders.forLabel(tx, orderId);
      if (!info) throw conflict(`Pedido nº ${orderId} não encontrado.`, 'pedido_inexistente');
      const { order, items, buyer } = info;
      const [existing] = await tx
        .select()
        .from(shippingLabels)
        .where(eq(shippingLabels.orderId, orderId))
        .for('update');
      if (existing?.status === 'comprada') return { kind: 'done', row: existing };
      const now = deps.now();
      if (existing?.claimedUntil && existing.claimedUntil > now) return { kind: 'busy' };
      if (order.shippingService === null || !order.address || !items.length)
        throw conflict(`Pedido nº ${orderId} não tem produtos a enviar.`, 'nada_a_enviar');
      if (info.travelsWith !== null)
        throw conflict(
          `Pedido nº ${orderId} é um acréscimo e vai na caixa do pedido nº ${info.travelsWith}: compre a etiqueta daquele.`,
          'acrescimo_segue_pedido',
        );
      if (order.status !== 'pago' && order.status !== 'em separação')
        throw conflict(
          `Pedido nº ${orderId} está "${order.status}": só pedidos pagos ou em separação ganham etiqueta.`,
          'transicao_invalida',
        );
      const packages = await deps.catalog.findProductPackages(
        [...new Set(items.map((i) => i.productId))],
        tx,
      );
      const pkg = combinePackages(
        items.flatMap((i) => {
          const p = packages.find((k) => k.id === i.productId);
          return p ? [{ pkg: p, quantity: i.quantity }] : [];
        }),
      );
      const a = order.address;
      const request: LabelRequest = {
        orderId,
        service: order.shippingService === 'SEDEX' ? 'SEDEX' : 'PAC',
        sender: senderOf(deps.env),
        recipient: {
          name: a.full_name,
          phone: a.phone,
          ...(buyer?.email ? { email: buyer.email } : {}),
          street: a.street,
          ...(a.number ? { number: a.number } : {}),
          ...(a.complement ? { complement: a.complement } : {}),
          neighborhood: a.neighborhood,
          city: a.city,
          state: a.state,
          cep: a.zip_code.replace(/\D/g, ''),
        },
        pkg,
        // The parcel's products: the order's and its additions' (docs/decisions/0087).
        declaredValueCents: Math.max(0, order.subtotalCents - order.discountCents) + info.additionsCents,
        nfeKey,
        products: items.map((i) => ({
          name: `${i.productName} (${i.colorName}, ${i.sizeName})`,
          quantity: i.quantity,
          unitCents: i.productPriceCents,
        })),
      };
      const claimedUntil = new Date(now.getTime() + LABEL_CLAIM_MS);
      // A label already put in the provider's cart keeps what was sent with it.
      const values = existing?.providerRef
        ? { claimedUntil, staffName }
        : { claimedUntil, staffName, request, provider: deps.provider.name };
      const [row] = existing
        ? await tx.update(shippingLabels).set(values).where(eq(shippingLabels.orderId, orderId)).returning()
        : await tx
            .insert(shippingLabels)
            .values({
              orderId,
              provider: deps.provider.name,
              status: 'comprando',
              claimedUntil,
              request,
              staffName,
              createdAt: now,
            })
            .returning();
      return { kind: 'claimed', row: row! };
    });
  }

  async function release(orderId: number) {
    await db
      .update(shippingLabels)
      .set({ claimedUntil: null })
      .where(and(eq(shippingLabels.orderId, orderId), eq(shippingLabels.status, 'comprando')));
  }

  /** Buys one order's label, or answers the one already bought. */
  async function buyOne(orderId: number, nfeKey: string | null, staffName: string): Promise<LabelResult> {
    const result = (r: Partial<LabelResult>): LabelResult => ({
      pedido: orderId,
      situacao: 'erro',
      codigo_rastreio: null,
      erro: null,
      ...r,
    });
    let c: Claim;
    try {
      c = await claim(orderId, nfeKey, staffName);
    } catch (error) {
      if (error instanceof HttpError) return result({ erro: error.detail });
      throw error;
    }
    if (c.kind === 'done') return result({ situacao: 'comprada', codigo_rastreio: c.row.trackingCode });
    if (c.kind === 'busy')
      return result({ situacao: 'em_andamento', erro: 'A etiqueta deste pedido está sendo comprada agora.' });
    const row = c.row;
    try {
      let ref = row.providerRef;
      if (!ref) {
        ref = (await deps.provider.create(row.request)).ref;
        // Stored before anything is paid: a retry pays this reference, never a new one.
        await db.update(shippingLabels).set({ providerRef: ref }).where(eq(shippingLabels.orderId, orderId));
      }
      const bought = await deps.provider.purchase(ref, row.request);
      // The order row first, then the label's: the order every transaction here locks them in.
      await db.transaction(async (tx) => {
        await deps.orders.fillTrackingCode(tx, orderId, bought.trackingCode);
        await tx
          .update(shippingLabels)
          .set({
            status: 'comprada',
            claimedUntil: null,
            trackingCode: bought.trackingCode,
            priceCents: bought.priceCents,
            purchasedAt: deps.now(),
          })
          .where(eq(shippingLabels.orderId, orderId));
      });
      deps.log.info({ orderId, provider: deps.provider.name }, 'shipping label bought');
      return result({ situacao: 'comprada', codigo_rastreio: bought.trackingCode });
    } catch (error) {
      await release(orderId);
      if (!(error instanceof LabelProviderError)) throw error;
      deps.log.warn({ orderId, provider: deps.provider.name, code: error.code }, 'shipping label refused');
      return result({ erro: error.reason });
    }
  }

  /**
   * "Gerar etiquetas": each order's label, one after the other. The NF-e key comes from the caller
   * (staff, or the nota fiscal module once it is wired, see the module's README).
   */
  async function buy(
    orders: Array<{ id: number; nfeKey: string | null }>,
    by: { name: string },
  ): Promise<LabelResult[]> {
    const results: LabelResult[] = [];
    for (const o of orders) results.push(await buyOne(o.id, o.nfeKey, by.name));
    return results;
  }

  /** "Imprimir etiquetas": the bought labels of these orders, in the order asked, into one PDF (or the provider's page). */
  async function print(orderIds: number[]): Promise<PrintedLabels> {
    const rows = await db
      .select()
      .from(shippingLabels)
      .where(and(inArray(shippingLabels.orderId, orderIds), eq(shippingLabels.status, 'comprada')));
    const missing = orderIds.filter((id) => !rows.some((r) => r.orderId === id));
    if (missing.length)
      throw conflict(
        `Sem etiqueta comprada: pedido${missing.length > 1 ? 's' : ''} nº ${missing.join(', ')}. Gere a etiqueta antes de imprimir.`,
        'etiqueta_inexistente',
      );
    const ordered = orderIds.map((id) => stored(rows.find((r) => r.orderId === id)!));
    try {
      return await deps.provider.print(ordered);
    } catch (error) {
      if (!(error instanceof LabelProviderError)) throw error;
      throw conflict(error.reason, 'etiqueta_indisponivel');
    }
  }

  /** The label of an order, for the staff detail. */
  async function ofOrder(orderId: number, conn: Db | Tx = db) {
    const [row] = await conn.select().from(shippingLabels).where(eq(shippingLabels.orderId, orderId));
    return row ?? null;
  }

  /**
   * One tracking move, in its own transaction: the order and label rows are locked and its state checked again
   * (another run may have moved it), the order moved as the carrier says, the buyer e-mailed once.
   */
  async function advance(orderId: number, from: TrackingState, to: TrackingState, at: Date | null) {
    await db.transaction(async (tx) => {
      // The order row first, then the label's, as a purchase locks them.
      const info = await deps.orders.forLabel(tx, orderId);
      if (!info) return;
      const [row] = await tx
        .select()
        .from(shippingLabels)
        .where(eq(shippingLabels.orderId, orderId))
        .for('update');
      if (!row || row.trackingState !== from) return;
      const status = info.order.status;
      const by = { name: TRACKING_ACTOR };
      const code = row.trackingCode ?? undefined;
      const reached = (s: TrackingState) => rank(from) < rank(s) && rank(to) >= rank(s);
      // Posted: the order ships with the label's code (its e-mail says so). Staff who already marked
      // it `enviado` sent that e-mail themselves.
      const ships = reached('postado') && (status === 'pago' || status === 'em separação');
      if (ships) {
        // The parcel left: an order still `pago` was packed, whatever the painel says.
        if (status === 'pago') await deps.orders.changeStatus(tx, orderId, { status: 'em separação' }, by);
        await deps.orders.changeStatus(tx, orderId, { status: 'enviado', trackingCode: code }, by);
      }
      if (to === 'saiu_para_entrega') {
        await deps.jobs.send('mail.tracking-update', { orderId, state: to }, { tx });
        await deps.whatsapp?.notifyUpdate(orderId, 'saiu para entrega', tx);
      }
      if (to === 'entregue') {
        if (ships || status === 'enviado')
          await deps.orders.changeStatus(
            tx,
            orderId,
            {
              status: 'entregue',
              deliveredOn: dateInTimeZone(at ?? deps.now(), STORE_TIME_ZONE),
            },
            by,
          );
      }
      await tx
        .update(shippingLabels)
        .set({ trackingState: to, trackedAt: deps.now() })
        .where(eq(shippingLabels.orderId, orderId));
    });
  }

  /** The scheduled run: every label bought and not yet delivered, read from the provider. */
  async function trackAll(): Promise<void> {
    const rows = await db
      .select()
      .from(shippingLabels)
      .where(and(eq(shippingLabels.status, 'comprada'), ne(shippingLabels.trackingState, 'entregue')));
    if (!rows.length) return;
    const now = deps.now();
    const readings = await deps.provider.track(rows.map(stored), now);
    for (const row of rows) {
      const reading = readings.get(row.providerRef ?? '');
      if (!reading || rank(reading.state) <= rank(row.trackingState)) continue;
      try {
        await advance(row.orderId, row.trackingState, reading.state, reading.at);
      } catch (error) {
        // One order that cannot move (cancelled meanwhile, say) does not hold back the others.
        deps.log.warn(
          { orderId: row.orderId, error: error instanceof Error ? error.name : typeof error },
          'tracking move failed',
        );
      }
    }
  }

  /**
   * The label of an order cancelled (or wholly withdrawn) before posting, cancelled at the provider
   * (docs/decisions/0048). Idempotent: a label cancelled already, or none, is left alone. A purchase
   * under way, or the provider down, throws and the job asks again later; a refusal (the parcel was
   * posted) is recorded for staff and the order stays cancelled.
   */
  async function cancelForOrder(orderId: number): Promise<void> {
    const row = await ofOrder(orderId);
    if (!row || row.status === 'cancelada') return;
    const now = deps.now();
    if (row.status === 'comprando' && row.claimedUntil && row.claimedUntil > now)
      throw new Error('label purchase under way');
    // A delivered parcel has nothing left to cancel (a return after delivery is another label).
    if (row.trackingState === 'entregue') return;
    const record = (values: Partial<LabelRow>) =>
      db.update(shippingLabels).set(values).where(eq(shippingLabels.orderId, orderId));
    // Nothing was put in the provider's cart yet: nothing to cancel there.
    if (!row.providerRef) {
      await record({ status: 'cancelada', cancelledAt: now, cancelRefusal: null, claimedUntil: null });
      return;
    }
    if (!deps.provider.cancel) {
      await record({
        cancelRefusal: 'A transportadora não cancela etiquetas pela API: cancele no painel dela.',
      });
      return;
    }
    try {
      await deps.provider.cancel(stored(row), now);
    } catch (error) {
      if (!(error instanceof LabelProviderError) || error.code === 'indisponivel') throw error;
      await record({ cancelRefusal: error.reason });
      deps.log.warn(
        { orderId, provider: deps.provider.name, code: error.code },
        'shipping label not cancelled',
      );
      return;
    }
    await record({ status: 'cancelada', cancelledAt: deps.now(), cancelRefusal: null, claimedUntil: null });
    deps.log.info({ orderId, provider: deps.provider.name }, 'shipping label cancelled');
  }

  /** The "saiu para entrega" e-mail (posted and delivered go out as the order's status e-mails). */
  async function sendTrackingUpdate(orderId: number, state: string): Promise<void> {
    const row = await ofOrder(orderId);
    if (!row?.trackingCode || row.trackingState !== state) return;
    const info = await db.transaction((tx) => deps.orders.forLabel(tx, orderId));
    const email = info?.buyer?.email;
    if (!info || !email) return;
    const message = trackingMail({
      env: deps.env,
      orderId,
      state: row.trackingState,
      trackingCode: row.trackingCode,
      buyer: { name: info.buyer?.name ?? info.order.address?.full_name ?? '', email },
    });
    if (!message) return;
    await deps.mail.send(message);
    deps.log.info({ orderId, state }, 'tracking mail sent');
  }

  return { buy, print, ofOrder, trackAll, sendTrackingUpdate, cancelForOrder };
}

export type LabelsService = ReturnType<typeof createLabelsService>;
