import type PDFDocument from 'pdfkit';

/**
 * Collects a pdfkit document's bytes as it is drawn (call it before the first page): `finish()` ends the
 * document and answers the whole file. The one way the shop's PDFs (labels, packing slips, notas'
 * demonstration DANFE, certificates) become a buffer.
 */
export function collectPdf(doc: InstanceType<typeof PDFDocument>): () => Promise<Buffer> {
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  return async () => {
    doc.end();
    await done;
    return Buffer.concat(chunks);
  };
}
