import { XMLParser } from 'fast-xml-parser';
import type { NfeEventInput, NfeLossItem } from '../../providers/invoicing/index.ts';
import * as repo from './fiscal.repository.ts';
import type { Built, FiscalContext } from './fiscal-context.ts';
import { orderNfeInForce } from './fiscal-documents.ts';
import { emitterOf } from './fiscal-settings.ts';

/**
 * A parcel lost, stolen or destroyed in the shop's own transport (docs/decisions/0059, later): the shop
 * contracts the carrier (freight CIF), so the sale's taxable event never happened, and NT 2025.002-RTC
 * v1.31 §8.16 has the emitter record it with event 112130 on the NF-e, undoing the IBS and CBS it
 * declared for what was lost. The values come from the NF-e as it was authorised (its XML), never
 * recomputed: the event must match the nota item by item.
 */

const parser = new XMLParser({ parseTagValue: false, ignoreAttributes: false, removeNSPrefix: true });
const cents = (value: unknown) => Math.round(Number(value ?? 0) * 100);
const asList = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

interface NfeItemXml {
  '@_nItem': string;
  prod: { qCom: string; uCom: string };
  imposto?: { IBSCBS?: { gIBSCBS?: { vIBS?: string; gCBS?: { vCBS?: string } } } };
}

/**
 * The items of an authorised NF-e (its `nfeProc` or bare `NFe`) that declared IBS and CBS, whole: a lost
 * parcel loses every unit it carried. The shop keeps no record of the IBS and CBS credited on the goods'
 * purchase, so the event reverses 0,00 of them: where a credit was taken, the accountant corrects it with
 * SEFAZ (docs/decisions/0059, later: a named gap).
 */
export function lossItems(xml: string): NfeLossItem[] {
  const doc = parser.parse(xml) as {
    nfeProc?: { NFe?: { infNFe?: { det?: NfeItemXml | NfeItemXml[] } } };
    NFe?: { infNFe?: { det?: NfeItemXml | NfeItemXml[] } };
  };
  const det = asList((doc.nfeProc?.NFe ?? doc.NFe)?.infNFe?.det);
  return det.flatMap((d) => {
    const group = d.imposto?.IBSCBS?.gIBSCBS;
    if (!group) return [];
    return [
      {
        item: Number(d['@_nItem']),
        ibsCents: cents(group.vIBS),
        cbsCents: cents(group.gCBS?.vCBS),
        quantity: Number(d.prod.qCom),
        unit: String(d.prod.uCom),
        purchaseIbsCents: 0,
        purchaseCbsCents: 0,
      },
    ];
  });
}

/** The event's input: the order's NF-e in force, its key and its items with IBS and CBS. */
export async function buildLossEvent(
  ctx: FiscalContext,
  doc: repo.DocumentRow,
): Promise<Built<NfeEventInput>> {
  const nfe = doc.orderId ? await orderNfeInForce(ctx, doc.orderId) : undefined;
  if (nfe?.status !== 'autorizada' || !nfe.accessKey || !nfe.xml)
    return {
      ok: false,
      reason: 'A NF-e do pedido não está autorizada: não há nota em que registrar a perda.',
    };
  const items = lossItems(nfe.xml.toString('utf8'));
  if (!items.length)
    return { ok: false, reason: 'A NF-e do pedido não declarou IBS e CBS: não há o que estornar.' };
  return {
    ok: true,
    input: {
      ref: doc.ref,
      type: '112130',
      accessKey: nfe.accessKey,
      sequence: doc.number,
      issuedAt: doc.issuedAt,
      emitter: emitterOf(await repo.settings(ctx.db)),
      items,
    },
  };
}
