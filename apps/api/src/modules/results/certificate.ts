import { createHmac, timingSafeEqual } from 'node:crypto';
import { formatIsoDateBR } from '@passada/core/calendar';
import type { CertificateLayout } from '@passada/core/contracts/results';
import { formatRaceTime } from '@passada/core/results';
import PDFDocument from 'pdfkit';
import QRCode, { type QRCodeToBufferOptions } from 'qrcode';
import { collectPdf } from '../../plugins/pdf.ts';

/**
 * A finisher's certificate (docs/decisions/0064): one page per race, with a QR code of the shop's
 * address that verifies it. The code signs the event, the bib, the category and both times with an
 * HMAC-SHA256 (cut to 128 bits, as the kit ticket) under CHECKIN_TOKEN_SECRET, with its own prefix so a
 * certificate's signature can never pass for a kit ticket's. A certificate whose times were corrected
 * later no longer verifies.
 */
export interface CertifiedResult {
  eventId: number;
  bib: number;
  categoryId: number;
  gunMs: number;
  netMs: number | null;
}

const DOMAIN = 'PASSADA-CERTIFICADO';
const TOKEN = /^(\d{1,9})\.(\d{1,7})\.(\d{1,9})\.(\d{1,9})\.(\d{0,9})\.([A-Za-z0-9_-]{22})$/;

function mac(secret: string, r: CertifiedResult): string {
  return createHmac('sha256', secret)
    .update(`${DOMAIN}:${r.eventId}.${r.bib}.${r.categoryId}.${r.gunMs}.${r.netMs ?? ''}`)
    .digest()
    .subarray(0, 16)
    .toString('base64url');
}

export function certificateToken(secret: string, r: CertifiedResult): string {
  return `${r.eventId}.${r.bib}.${r.categoryId}.${r.gunMs}.${r.netMs ?? ''}.${mac(secret, r)}`;
}

/** What a token certifies, or null when it is not one the shop signed. */
export function readCertificateToken(secret: string, token: string): CertifiedResult | null {
  const m = TOKEN.exec(token);
  if (!m) return null;
  const r: CertifiedResult = {
    eventId: Number(m[1]),
    bib: Number(m[2]),
    categoryId: Number(m[3]),
    gunMs: Number(m[4]),
    netMs: m[5] === '' ? null : Number(m[5]),
  };
  const given = Buffer.from(m[6]!);
  const expected = Buffer.from(mac(secret, r));
  return given.length === expected.length && timingSafeEqual(given, expected) ? r : null;
}

export interface CertificatePage {
  name: string;
  event: string;
  city: string;
  day: string;
  category: string;
  gunMs: number;
  netMs: number | null;
  pace: string | null;
  placeOverall: number | null;
  finishers: number;
  verifyUrl: string;
}

/**
 * pngjs's options, through qrcode: one grey channel and no adaptive filter search (a QR code's flat rows
 * compress as well unfiltered). pdfkit then embeds the PNG's data as it is; an RGBA PNG it decoded to
 * split the alpha channel and compressed again. Encoding, decoding and compressing that image took about
 * a quarter of the certificate job's CPU (a 5,000-certificate profile).
 */
const GREY_PNG = { colorType: 0, filterType: 0 };
const QR_OPTIONS: QRCodeToBufferOptions = {
  errorCorrectionLevel: 'M',
  margin: 1,
  width: 240,
  rendererOpts: { deflateLevel: 9, ...GREY_PNG },
};

/** How an event's certificates look, as staff chose (docs/decisions/0064, later). */
export interface CertificateDesign {
  layout: CertificateLayout;
  /** The accent colour, #RRGGBB. */
  color: string;
  signatureName: string | null;
  signatureRole: string | null;
  message: string | null;
}

/**
 * The certificate, one A4 landscape page per race, in the event's design: the classic layout (a double
 * frame, centred), a band down the left side (text to its right) or a minimal one (a stroke under the
 * title); the accent colour on the frame, band or stroke and the title; who signs, over a line, bottom
 * right, above the QR code's row; the organiser's line under the times.
 */
export async function renderCertificatePdf(
  pages: CertificatePage[],
  design: CertificateDesign,
): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', layout: 'landscape', margin: 56, autoFirstPage: false });
  doc.info.Title = `Certificado de participação: ${pages[0]?.name ?? ''}`;
  const finish = collectPdf(doc);
  const band = design.layout === 'faixa';
  const align = band ? 'left' : 'center';
  for (const p of pages) {
    const qr = await QRCode.toBuffer(p.verifyUrl, QR_OPTIONS);
    doc.addPage();
    const { width: pageWidth, height: pageHeight } = doc.page;
    const left = band ? 168 : 56;
    const width = pageWidth - left - 56;
    if (design.layout === 'classico') {
      doc
        .lineWidth(3)
        .rect(20, 20, pageWidth - 40, pageHeight - 40)
        .stroke(design.color);
      doc
        .lineWidth(1)
        .rect(30, 30, pageWidth - 60, pageHeight - 60)
        .stroke(design.color);
    } else if (band) {
      doc.rect(0, 0, 120, pageHeight).fill(design.color);
    }
    doc
      .fillColor(design.layout === 'minimalista' ? 'black' : design.color)
      .font('Helvetica-Bold')
      .fontSize(30)
      .text('Certificado de participação', left, 70, { width, align });
    if (design.layout === 'minimalista') {
      const y = doc.y + 6;
      doc
        .lineWidth(3)
        .moveTo(pageWidth / 2 - 60, y)
        .lineTo(pageWidth / 2 + 60, y)
        .stroke(design.color);
      doc.y = y;
    }
    doc.fillColor('black');
    doc.moveDown(1.2);
    doc.font('Helvetica').fontSize(14).text('Certificamos que', left, doc.y, { width, align });
    doc.moveDown(0.4);
    doc.font('Helvetica-Bold').fontSize(24).text(p.name, { width, align });
    doc.moveDown(0.4);
    doc
      .font('Helvetica')
      .fontSize(14)
      .text(`concluiu a prova ${p.category} da ${p.event}, em ${p.city}, no dia ${formatIsoDateBR(p.day)}.`, {
        width,
        align,
      });
    doc.moveDown(1);
    const lines = [
      `Tempo bruto: ${formatRaceTime(p.gunMs)}`,
      ...(p.netMs === null ? [] : [`Tempo líquido: ${formatRaceTime(p.netMs)}`]),
      ...(p.pace ? [`Ritmo: ${p.pace}`] : []),
      ...(p.placeOverall ? [`Colocação geral: ${p.placeOverall}º de ${p.finishers}`] : []),
    ];
    doc.font('Helvetica-Bold').fontSize(14).text(lines.join('   ·   '), { width, align });
    if (design.message) {
      doc.moveDown(0.8);
      doc.font('Helvetica').fontSize(13).text(design.message, { width, align });
    }
    const y = pageHeight - 56 - 110;
    doc.image(qr, left, y, { fit: [110, 110] });
    doc
      .font('Helvetica')
      .fontSize(9)
      .text('Confira este certificado no QR code ou em:', left + 120, y + 30, { width: width - 120 })
      .text(p.verifyUrl, { width: width - 120 });
    if (design.signatureName) {
      const x = pageWidth - 56 - 220;
      // Above the QR code's row, on the right.
      const lineY = y - 24;
      doc
        .lineWidth(1)
        .moveTo(x, lineY)
        .lineTo(x + 220, lineY)
        .stroke(design.color);
      doc
        .font('Helvetica-Bold')
        .fontSize(11)
        .text(design.signatureName, x, lineY + 6, { width: 220, align: 'center' });
      if (design.signatureRole)
        doc.font('Helvetica').fontSize(9).text(design.signatureRole, { width: 220, align: 'center' });
    }
  }
  return finish();
}
