import { formatStoreDateTime } from '@passada/core/calendar';
import type { PackingSlip } from '@passada/core/contracts/painel-orders';
import bwipjs from 'bwip-js/node';
import PDFDocument from 'pdfkit';
import { collectPdf } from '../../plugins/pdf.ts';
import { CODE128_OPTIONS } from './barcode.ts';

const MARGIN = 42;

/**
 * The packing slips of a selection of orders in one PDF, one A4 page per order (the same content as the
 * printed page of one order): who sends, who receives, what to pick with SKU, colour and size, and the
 * order number as a Code 128 barcode the packing desk scans. The order numbers are in the document's
 * keywords too, so a search of the file finds each one.
 */
export async function renderPackingSlipsPdf(slips: PackingSlip[]): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: MARGIN, autoFirstPage: false });
  doc.info.Title = slips.length === 1 ? `Romaneio do pedido nº ${slips[0]!.pedido}` : 'Romaneios';
  doc.info.Keywords = slips.map((s) => `pedido-${s.pedido}`).join(' ');
  const finish = collectPdf(doc);
  for (const slip of slips) {
    const barcode = await bwipjs.toBuffer({ ...CODE128_OPTIONS, text: slip.codigo_barras.texto });
    doc.addPage();
    const width = doc.page.width - 2 * MARGIN;
    doc.font('Helvetica-Bold').fontSize(18).text(`Romaneio do pedido nº ${slip.pedido}`, MARGIN, MARGIN);
    doc
      .font('Helvetica')
      .fontSize(10)
      .text(
        `${formatStoreDateTime(new Date(slip.data))}${slip.servico_frete ? ` · envio ${slip.servico_frete}` : ''}`,
      );
    doc.image(barcode, MARGIN + width - 180, MARGIN, { fit: [180, 40] });
    doc.moveDown(1.2);

    const top = doc.y;
    const half = (width - 20) / 2;
    const r = slip.remetente;
    doc.font('Helvetica-Bold').fontSize(9).text('REMETENTE', MARGIN, top, { width: half });
    doc
      .font('Helvetica')
      .fontSize(10)
      .text([r.nome, r.razao_social, `CNPJ ${r.cnpj}`, r.endereco, r.telefone].join('\n'), { width: half });
    const leftBottom = doc.y;
    const d = slip.destinatario;
    doc
      .font('Helvetica-Bold')
      .fontSize(9)
      .text('DESTINATÁRIO', MARGIN + half + 20, top, { width: half });
    doc
      .font('Helvetica')
      .fontSize(10)
      .text(
        d
          ? [d.nome, d.endereco, `${d.bairro} · ${d.cidade}-${d.uf}`, `CEP ${d.cep}`, d.telefone].join('\n')
          : 'Nada a enviar: só inscrições em eventos.',
        { width: half },
      );
    doc.y = Math.max(leftBottom, doc.y) + 16;

    // The lines to pick: SKU, item, colour, size, units.
    const columns = [
      { title: 'SKU', width: 100 },
      { title: 'Item', width: width - 100 - 90 - 60 - 40 },
      { title: 'Cor', width: 90 },
      { title: 'Tamanho', width: 60 },
      { title: 'Qtd.', width: 40 },
    ];
    const row = (cells: string[], bold: boolean) => {
      const y = doc.y;
      let x = MARGIN;
      let bottom = y;
      doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(10);
      cells.forEach((cell, i) => {
        const w = columns[i]!.width;
        doc.text(cell, x, y, { width: w - 6 });
        bottom = Math.max(bottom, doc.y);
        x += w;
      });
      doc
        .moveTo(MARGIN, bottom + 3)
        .lineTo(MARGIN + width, bottom + 3)
        .lineWidth(0.5)
        .strokeColor('#999999')
        .stroke();
      doc.y = bottom + 7;
    };
    row(
      columns.map((c) => c.title),
      true,
    );
    for (const item of slip.itens)
      row([item.sku, item.nome, item.cor, item.tamanho, String(item.quantidade)], false);
    const units = slip.itens.reduce((sum, i) => sum + i.quantidade, 0);
    doc
      .font('Helvetica-Bold')
      .fontSize(10)
      .text(`${units} ${units === 1 ? 'unidade' : 'unidades'}`, MARGIN, doc.y + 4);
    if (slip.inscricoes > 0)
      doc
        .font('Helvetica')
        .text(
          `E ${slip.inscricoes} ${slip.inscricoes === 1 ? 'inscrição' : 'inscrições'} em eventos (nada a embalar).`,
        );
  }
  return finish();
}
