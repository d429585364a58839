import { dateInTimeZone, STORE_TIME_ZONE } from '@passada/core/calendar';
import { isValidCpf } from '@passada/core/documents';
import {
  apportion,
  type IbsCbsItem,
  type IbsCbsRates,
  ibsCbsOfItem,
  ibsCbsOfNota,
} from '@passada/core/fiscal/ibs-cbs';
import {
  CRT_OF_REGIME,
  ibsCbsRatesOn,
  ibsCbsRequired,
  missingRatesReason,
  SALE_OPERATION_INDICATOR,
} from '@passada/core/fiscal/reform-rules';
import type { Db } from '../../db/client.ts';
import type { NfeInput, NfeItem, NfeItemIbsCbs } from '../../providers/invoicing/index.ts';
import * as repo from './fiscal.repository.ts';
import { fiscalAddressOf } from './fiscal-address.ts';
import { type Built, creditTypeOfRef, type FiscalContext } from './fiscal-context.ts';
import { orderNfeInForce } from './fiscal-documents.ts';
import * as sale from './fiscal-sale.read-model.ts';
import { emitterOf, emitterProblems } from './fiscal-settings.ts';

/**
 * Building an order's NF-e from the sale and the settings (docs/decisions/0043, 0059): its sale, its
 * devolução (finNFe 4) or an exchange's replacement; what is missing becomes the `erro` reason.
 */

export type NotaOrder = NonNullable<Awaited<ReturnType<typeof sale.orderForNota>>>;
export type NotaReturn = NonNullable<Awaited<ReturnType<typeof sale.returnForNota>>>;
type NotaLine = { item: NotaOrder['items'][number]; quantity: number; totalCents: number };
type TaxRule = repo.TaxRuleRow;

/** An exchange's replacement units as NF-e lines, and the coupon's share of the units they replace. */
export async function exchangeLines(db: Db, order: NotaOrder, ret: NotaReturn) {
  const replacements = await sale.exchangeItemsForNota(db, ret.id);
  const lines = replacements.flatMap((x) => {
    const sold = order.items.find((i) => i.id === x.orderItemId);
    if (!sold) return [];
    const item = {
      ...sold,
      colorId: x.colorId,
      sizeId: x.sizeId,
      colorName: x.colorName,
      sizeName: x.sizeName,
      productPriceCents: x.unitPriceCents,
    };
    return [{ item, quantity: x.quantity, totalCents: x.unitPriceCents * x.quantity }];
  });
  const discountCents = ret.items.reduce((sum, ri) => {
    const sold = order.items.find((i) => i.id === ri.orderItemId);
    return sum + (sold ? sold.productPriceCents * ri.quantity - ri.valueCents : 0);
  }, 0);
  return { lines, discountCents };
}

/** What the nota lists: the order's items, the units a return gives back, or an exchange's replacement. */
function saleLines(
  order: NotaOrder,
  ret: NotaReturn | undefined,
  exchange?: { lines: NotaLine[] },
): NotaLine[] {
  if (exchange) return exchange.lines;
  if (ret)
    return ret.items.flatMap((ri) => {
      const item = order.items.find((i) => i.id === ri.orderItemId);
      return item ? [{ item, quantity: ri.quantity, totalCents: ri.valueCents }] : [];
    });
  return order.items.map((item) => ({
    item,
    quantity: item.quantity,
    totalCents: item.productPriceCents * item.quantity,
  }));
}

function nfeItems(
  lines: NotaLine[],
  fiscal: Map<number, { ncm: string; origin: number }>,
  rule: TaxRule,
  cfop: string,
): NfeItem[] {
  return lines.map((l) => {
    const f = fiscal.get(l.item.productId)!;
    return {
      shippingCents: 0,
      discountCents: 0,
      ibsCbs: null,
      code: `${l.item.productId}-${l.item.colorId}-${l.item.sizeId}`,
      description: `${l.item.productName} ${l.item.colorName} ${l.item.sizeName}`,
      ncm: f.ncm,
      origin: f.origin,
      cfop,
      icmsSituation: rule.icmsSituation,
      pisSituation: rule.pisSituation,
      cofinsSituation: rule.cofinsSituation,
      quantity: l.quantity,
      unitCents: l.item.productPriceCents,
      totalCents: l.totalCents,
    };
  });
}

/**
 * Freight and discount spread over the items (the items' vFrete/vDesc add up to the totals'), and the
 * IBS/CBS group where the regime and the date of issue ask for it (docs/decisions/0059): the totals, or
 * the reason the nota stops.
 */
function spreadAndTax(
  items: NfeItem[],
  totals: { shippingCents: number; discountCents: number },
  rule: TaxRule,
  regime: repo.SettingsRow['regime'],
  issuedAt: Date,
  cbs2027: number | null,
): { ok: true; ibsCbsTotals: NfeInput['ibsCbsTotals'] } | { ok: false; reason: string } {
  const freight = apportion(
    totals.shippingCents,
    items.map((i) => i.totalCents),
  );
  const discount = apportion(
    totals.discountCents,
    items.map((i) => i.totalCents),
  );
  items.forEach((it, n) => {
    it.shippingCents = freight[n]!;
    it.discountCents = discount[n]!;
  });
  const issuedOn = dateInTimeZone(issuedAt, STORE_TIME_ZONE);
  if (!ibsCbsRequired(CRT_OF_REGIME[regime], issuedOn)) return { ok: true, ibsCbsTotals: null };
  const rates = ibsCbsRatesOn(issuedOn, cbs2027);
  if (!rates) return { ok: false, reason: missingRatesReason(issuedOn) };
  const taxes = ibsCbsOfNota(items, rates, totals);
  items.forEach((it, n) => {
    const t = taxes.items[n]!;
    it.ibsCbs = ibsCbsGroup({ situation: rule.ibsCbsSituation, classification: rule.ibsCbsClass }, t, rates);
  });
  return { ok: true, ibsCbsTotals: taxes.totals };
}

export async function buildNfe(ctx: FiscalContext, doc: repo.DocumentRow): Promise<Built<NfeInput>> {
  const { db } = ctx;
  const s = await repo.settings(db);
  const rules = await repo.taxRules(db);
  const problems = emitterProblems(s, rules, doc.kind);
  const order = await sale.orderForNota(db, doc.orderId!);
  if (!order) return { ok: false, reason: 'Pedido não encontrado.' };
  if (doc.kind === 'nfe_credito') return buildCreditNfe(ctx, doc, order, s, rules, problems);
  const ret = doc.returnId ? await sale.returnForNota(db, doc.returnId) : undefined;
  // An exchange's NF-e (kind `nfe` with a request): the replacement units at their price, less the
  // coupon's share the returned units had, so this nota less the devolução is the difference paid.
  const exchange = doc.kind === 'nfe' && ret ? await exchangeLines(db, order, ret) : undefined;
  const lines = saleLines(order, ret, exchange);
  const fiscal = new Map(
    (await repo.productFiscalOf(db, [...new Set(lines.map((l) => l.item.productId))])).map((f) => [
      f.productId,
      f,
    ]),
  );
  for (const l of lines)
    if (!fiscal.has(l.item.productId))
      problems.push(`o produto "${l.item.productName}" está sem NCM e origem (edite o produto no painel)`);
  const cpf = order.buyerCpf;
  if (!cpf || !isValidCpf(cpf))
    problems.push(
      'o pedido não tem o CPF do comprador, que a NF-e exige (peça o CPF ao comprador e registre-o no pedido)',
    );
  if (!order.address) problems.push('o pedido não tem endereço de entrega');
  if (problems.length || !order.address || !cpf)
    return { ok: false, reason: `A nota não foi emitida: ${problems.join('; ')}.` };
  const a = order.address;
  const recipientAddress = fiscalAddressOf(a);
  if (!recipientAddress.cityCode)
    return {
      ok: false,
      reason: `A nota não foi emitida: o município do endereço de entrega (${a.city}/${a.state}) não está na lista de municípios do IBGE; corrija a cidade no pedido.`,
    };
  const inside = recipientAddress.uf === s.uf;
  const rule = rules.find((r) => r.destination === (inside ? 'interna' : 'interestadual'))!;
  // A return comes back in: CFOP 1202/2202 (devolução de venda de mercadoria adquirida de terceiros).
  const cfop = doc.kind === 'nfe_devolucao' ? (inside ? '1202' : '2202') : rule.cfop;
  const items = nfeItems(lines, fiscal, rule, cfop);
  const products = items.reduce((sum, i) => sum + i.totalCents, 0);
  let shippingCents = 0;
  let discountCents = 0;
  let referencedKey: string | undefined;
  if (exchange) {
    discountCents = exchange.discountCents;
  } else if (doc.kind === 'nfe') {
    shippingCents = order.shippingCents;
    discountCents = order.discountCents;
  } else {
    const original = await orderNfeInForce(ctx, order.id, db);
    if (!original?.accessKey)
      return { ok: false, reason: 'A NF-e de devolução precisa da NF-e original autorizada.' };
    referencedKey = original.accessKey;
    // A whole order returned gives back its shipping and discount too.
    if (!ret) {
      shippingCents = order.shippingCents;
      discountCents = order.discountCents;
    }
  }
  const taxed = spreadAndTax(
    items,
    { shippingCents, discountCents },
    rule,
    s.regime,
    doc.issuedAt,
    s.cbs2027Rate,
  );
  if (!taxed.ok) return taxed;
  return {
    ok: true,
    input: {
      ibsCbsTotals: taxed.ibsCbsTotals,
      ref: doc.ref,
      purpose: doc.kind === 'nfe_devolucao' ? 4 : 1,
      // A sale delivered to the buyer's address (Anexo VII, 010103); a devolução takes none.
      ...(doc.kind === 'nfe' ? { operationIndicator: SALE_OPERATION_INDICATOR } : {}),
      operation: doc.kind === 'nfe_devolucao' ? 'Devolução de venda' : 'Venda de mercadoria',
      issuedAt: doc.issuedAt,
      number: doc.number,
      series: s.nfeSeries,
      emitter: emitterOf(s),
      recipient: {
        name: order.buyerName ?? a.full_name,
        cpf,
        email: order.buyerEmail ?? null,
        address: recipientAddress,
      },
      items,
      shippingCents,
      discountCents,
      totalCents: products + shippingCents - discountCents,
      ...(referencedKey ? { referencedKey } : {}),
    },
  };
}

/** An item's (or a service's) `IBSCBS` group: its CST and cClassTrib, the base, each rate and value. */
export function ibsCbsGroup(
  code: { situation: string; classification: string },
  t: IbsCbsItem,
  rates: IbsCbsRates,
): NfeItemIbsCbs {
  return {
    ...code,
    baseCents: t.baseCents,
    ibsUfRate: rates.ibsUf,
    ibsUfCents: t.ibsUfCents,
    ibsMunRate: rates.ibsMun,
    ibsMunCents: t.ibsMunCents,
    ibsCents: t.ibsCents,
    cbsRate: rates.cbs,
    cbsCents: t.cbsCents,
  };
}

const CREDIT_OPERATION = {
  '03': 'Nota de crédito - retorno por recusa total na entrega',
  '04': 'Nota de crédito - redução de valores',
  '06': 'Nota de crédito - retorno por recusa parcial na entrega',
} as const;

/**
 * A nota de crédito of a price reduced after the sale (NT 2025.002-RTC v1.31, §4 and rules B25-30 to
 * B25-110, VC02-07; docs/decisions/0059, later): finNFe 5, tpNFCredito 04 "Redução de valores", an entry
 * (tpNF 0) referencing the order's NF-e once at the nota's level, with the reduction spread over the
 * sale's items in proportion to their IBS/CBS bases and each item carrying only its IBSCBS group, at the
 * rates of the sale's day of issue (the tax it reduces).
 */
async function buildCreditNfe(
  ctx: FiscalContext,
  doc: repo.DocumentRow,
  order: NotaOrder,
  s: repo.SettingsRow,
  rules: TaxRule[],
  problems: string[],
): Promise<Built<NfeInput>> {
  const original = await orderNfeInForce(ctx, order.id);
  if (!original?.accessKey)
    return { ok: false, reason: 'A nota de crédito precisa da NF-e do pedido autorizada.' };
  const lines = saleLines(order, undefined);
  const fiscal = new Map(
    (await repo.productFiscalOf(ctx.db, [...new Set(lines.map((l) => l.item.productId))])).map((f) => [
      f.productId,
      f,
    ]),
  );
  for (const l of lines)
    if (!fiscal.has(l.item.productId))
      problems.push(`o produto "${l.item.productName}" está sem NCM e origem (edite o produto no painel)`);
  const cpf = order.buyerCpf;
  if (!cpf || !isValidCpf(cpf) || !order.address)
    problems.push('o pedido não tem o CPF ou o endereço da NF-e');
  if (problems.length || !cpf || !order.address)
    return { ok: false, reason: `A nota não foi emitida: ${problems.join('; ')}.` };
  const soldOn = dateInTimeZone(original.issuedAt, STORE_TIME_ZONE);
  const rates = ibsCbsRatesOn(soldOn, s.cbs2027Rate);
  if (!rates) return { ok: false, reason: missingRatesReason(soldOn) };
  const recipientAddress = fiscalAddressOf(order.address);
  const inside = recipientAddress.uf === s.uf;
  const rule = rules.find((r) => r.destination === (inside ? 'interna' : 'interestadual'))!;
  // The sale's bases (its items with their shares of freight and discount), over which the reduction is spread.
  const sold = ibsCbsOfNota(
    lines.map((l) => ({ totalCents: l.totalCents })),
    rates,
    { shippingCents: order.shippingCents, discountCents: order.discountCents },
  );
  const shares = apportion(
    doc.amountCents,
    sold.items.map((i) => i.baseCents),
  );
  const creditType = creditTypeOfRef(doc.ref);
  // A reduction moves no goods: 1949/2949, other entry not specified. A parcel refused at delivery comes
  // back in: 1202/2202, the devolução's CFOP. The NT names no CFOP for either (to confirm in homologação).
  const cfop = creditType === '04' ? (inside ? '1949' : '2949') : inside ? '1202' : '2202';
  const items = nfeItems(lines, fiscal, rule, cfop)
    .map((it, n) => ({ it, share: shares[n]! }))
    .filter((x) => x.share > 0)
    .map(({ it, share }) => ({
      ...it,
      quantity: 1,
      unitCents: share,
      totalCents: share,
      ibsCbs: ibsCbsGroup(
        { situation: rule.ibsCbsSituation, classification: rule.ibsCbsClass },
        ibsCbsOfItem(share, rates),
        rates,
      ),
    }));
  const sum = (k: 'baseCents' | 'ibsUfCents' | 'ibsMunCents' | 'ibsCents' | 'cbsCents') =>
    items.reduce((t, i) => t + i.ibsCbs[k], 0);
  return {
    ok: true,
    input: {
      ref: doc.ref,
      purpose: 5,
      creditType,
      operation: CREDIT_OPERATION[creditType],
      issuedAt: doc.issuedAt,
      number: doc.number,
      series: s.nfeSeries,
      emitter: emitterOf(s),
      recipient: {
        name: order.buyerName ?? order.address.full_name,
        cpf,
        email: order.buyerEmail ?? null,
        address: recipientAddress,
      },
      items,
      shippingCents: 0,
      discountCents: 0,
      totalCents: doc.amountCents,
      ibsCbsTotals: {
        baseCents: sum('baseCents'),
        ibsUfCents: sum('ibsUfCents'),
        ibsMunCents: sum('ibsMunCents'),
        ibsCents: sum('ibsCents'),
        cbsCents: sum('cbsCents'),
      },
      referencedKey: original.accessKey,
    },
  };
}
