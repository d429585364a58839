import { formatCep } from '@passada/core/cep';
import { formatBRL } from '@passada/core/money';
import { s10CheckDigit } from '@passada/core/s10';
import bwipjs from 'bwip-js/node';
import PDFDocument from 'pdfkit';
import { collectPdf } from '../../plugins/pdf.ts';
import {
  type LabelParty,
  type LabelProvider,
  LabelProviderError,
  type LabelRequest,
  type StoredLabel,
  streetLine,
  type TrackingReading,
  type TrackingState,
} from './label.provider.ts';

/** Service letters of the offline object codes (UPU S10: two letters for the service). */
const SERVICE_LETTERS = { PAC: 'PX', SEDEX: 'SX' } as const;

/** The offline object code of an order: S10 with the order id as serial and its check digit. */
export function offlineTrackingCode(orderId: number, service: LabelRequest['service']): string {
  const serial = String(orderId % 100_000_000).padStart(8, '0');
  return `${SERVICE_LETTERS[service]}${serial}${s10CheckDigit(serial)}BR`;
}

const HOUR = 3_600_000;

/**
 * When the offline parcel reaches each state, counted from the purchase: posted two hours later, out
 * for delivery after a day (SEDEX) or three (PAC), delivered six hours after that.
 */
export function offlineTimeline(service: LabelRequest['service']): Array<[TrackingState, number]> {
  const out = (service === 'SEDEX' ? 24 : 72) * HOUR;
  return [
    ['postado', 2 * HOUR],
    ['saiu_para_entrega', out],
    ['entregue', out + 6 * HOUR],
  ];
}

/** Where an offline parcel bought at `purchasedAt` stands at `now`. */
export function offlineReading(label: StoredLabel, now: Date): TrackingReading {
  let reading: TrackingReading = { state: 'aguardando_postagem', at: null };
  for (const [state, after] of offlineTimeline(label.request.service)) {
    const at = new Date(label.purchasedAt.getTime() + after);
    if (at.getTime() <= now.getTime()) reading = { state, at };
  }
  return reading;
}

// A 10 × 15 cm thermal label, in PDF points.
const WIDTH = 283;
const HEIGHT = 425;
const MARGIN = 14;

function partyLines(p: LabelParty): string[] {
  return [p.name, streetLine(p), `${p.neighborhood} · ${p.city}-${p.state}`, `CEP ${formatCep(p.cep)}`];
}

/** The labels, one per page, into one PDF. */
export async function renderLabelsPdf(labels: StoredLabel[]): Promise<Buffer> {
  const doc = new PDFDocument({ size: [WIDTH, HEIGHT], margin: MARGIN, autoFirstPage: false });
  doc.info.Title = labels.length === 1 ? `Etiqueta ${labels[0]!.trackingCode}` : 'Etiquetas de envio';
  // The object codes in the document's properties too: a search of the file finds each label.
  doc.info.Keywords = labels.map((l) => l.trackingCode).join(' ');
  const finish = collectPdf(doc);
  const inner = WIDTH - 2 * MARGIN;
  for (const label of labels) {
    const r = label.request;
    const barcode = await bwipjs.toBuffer({
      bcid: 'code128',
      text: label.trackingCode,
      scale: 2,
      height: 14,
      includetext: true,
      textxalign: 'center',
    });
    doc.addPage();
    doc.font('Helvetica-Bold').fontSize(14).text(`Correios · ${r.service}`, MARGIN, MARGIN);
    doc.font('Helvetica').fontSize(8).text(`Pedido nº ${r.orderId}`, { align: 'right' });
    doc.image(barcode, MARGIN, 46, { fit: [inner, 70], align: 'center' });
    doc.font('Helvetica-Bold').fontSize(11).text(label.trackingCode, MARGIN, 122, {
      width: inner,
      align: 'center',
    });
    doc.moveDown(0.6);
    doc.font('Helvetica-Bold').fontSize(9).text('DESTINATÁRIO');
    doc.font('Helvetica').fontSize(10).text(partyLines(r.recipient).join('\n'));
    doc.moveDown(0.6);
    doc.font('Helvetica-Bold').fontSize(8).text('REMETENTE');
    doc.font('Helvetica').fontSize(8).text(partyLines(r.sender).join('\n'));
    doc.moveDown(0.6);
    const kg = (r.pkg.weightGrams / 1000).toLocaleString('pt-BR', { minimumFractionDigits: 3 });
    doc
      .fontSize(8)
      .text(`Peso: ${kg} kg · Dimensões: ${r.pkg.lengthCm} × ${r.pkg.widthCm} × ${r.pkg.heightCm} cm`)
      .text(`Valor declarado: ${formatBRL(r.declaredValueCents)}`)
      .text(r.nfeKey ? `NF-e: ${r.nfeKey.replace(/(\d{4})(?=\d)/g, '$1 ')}` : 'Declaração de conteúdo');
  }
  return finish();
}

/**
 * The offline label provider the demo runs on (docs/decisions/0044): real-format S10 object codes
 * (the order id as serial, check digit by core's `s10.ts`), Code 128 barcodes, a PDF with one
 * 10 × 15 cm label per page, and tracking that moves with time along `offlineTimeline`. It keeps
 * nothing of its own: the same order always answers the same code, so buying twice buys one label.
 */
export function createOfflineLabelProvider(): LabelProvider {
  return {
    name: 'offline',
    async create(request) {
      return { ref: `offline-${request.orderId}` };
    },
    async purchase(_ref, request) {
      return { trackingCode: offlineTrackingCode(request.orderId, request.service), priceCents: 0 };
    },
    async print(labels) {
      return { pdf: await renderLabelsPdf(labels) };
    },
    async track(labels, now) {
      return new Map(labels.map((l) => [l.providerRef, offlineReading(l, now)]));
    },
    async cancel(label, now) {
      // Like a carrier: a parcel already in the post office is not cancelled any more.
      const reading = offlineReading(label, now);
      if (reading.state !== 'aguardando_postagem')
        throw new LabelProviderError(
          'recusado',
          `Etiqueta ${label.trackingCode} não cancelada: o objeto já foi postado.`,
        );
    },
  };
}
