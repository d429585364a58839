import {
  parseSku,
  type StockBatchLine,
  type StockFilePreviewResult,
  skuOf,
} from '@passada/core/contracts/painel';
import { columnKey, readCsvRows } from '../../plugins/csv-read.ts';
import { badRequest } from '../../plugins/errors.ts';

/**
 * A stock file staff send (docs/decisions/0081): the shop's own stock export edited in a spreadsheet, or a
 * supplier's list, read with the pt-BR Excel convention (or commas, or tabs). A SKU column (`P12-C3-T5`)
 * and a quantity column; the rest is ignored. Nothing is written here: the preview names every line that
 * changes and every line that cannot be read, and staff apply the lines they saw.
 */

export interface KnownStockLine {
  productId: number;
  productName: string;
  colorId: number;
  color: string;
  sizeId: number;
  size: string;
  quantity: number;
}

/** One line of a batch or a preview as the back office reads it: the combination's names, before and after. */
export function batchLine(line: KnownStockLine, before: number, after: number): StockBatchLine {
  return {
    product_id: line.productId,
    color_id: line.colorId,
    size_id: line.sizeId,
    sku: skuOf(line.productId, line.colorId, line.sizeId),
    produto: line.productName,
    cor: line.color,
    tamanho: line.size,
    antes: before,
    depois: after,
    diferenca: after - before,
  };
}

const SKU_TITLES = ['sku', 'codigo', 'codigo sku'];
/** The quantity column, in the order it is looked for: a count's file says "Contagem" or "Estoque". */
const QUANTITY_TITLES = {
  definir: ['contagem', 'estoque contado', 'estoque', 'quantidade', 'qtd', 'qtde'],
  ajustar: ['entrada', 'quantidade', 'qtd', 'qtde', 'estoque'],
} as const;

export function previewStockFile(
  content: string,
  mode: 'ajustar' | 'definir',
  known: KnownStockLine[],
  maxLines: number,
): StockFilePreviewResult {
  const [titles, ...body] = readCsvRows(
    content,
    'Não foi possível ler o arquivo: envie um CSV (do Excel ou outra planilha) com as colunas SKU e Quantidade.',
  );
  if (!titles || body.length === 0)
    throw badRequest(
      'O arquivo não tem linhas depois da linha de títulos (SKU; Quantidade).',
      'arquivo_vazio',
    );
  if (body.length > maxLines)
    throw badRequest(`O arquivo tem ${body.length} linhas; o limite é ${maxLines}.`, 'arquivo_grande_demais');
  const keys = titles.map(columnKey);
  const skuAt = keys.findIndex((k) => SKU_TITLES.includes(k));
  const quantityTitle = QUANTITY_TITLES[mode].find((t) => keys.includes(t));
  const quantityAt = quantityTitle ? keys.indexOf(quantityTitle) : -1;
  if (skuAt < 0 || quantityAt < 0)
    throw badRequest(
      mode === 'definir'
        ? 'A primeira linha do arquivo precisa das colunas "SKU" e "Estoque" (ou "Contagem", "Quantidade").'
        : 'A primeira linha do arquivo precisa das colunas "SKU" e "Quantidade" (ou "Entrada").',
      'colunas_ausentes',
    );

  const bySku = new Map(known.map((k) => [skuOf(k.productId, k.colorId, k.sizeId), k]));
  const seen = new Map<string, number>();
  const problems: string[] = [];
  const lines: StockFilePreviewResult['linhas'] = [];
  let unchanged = 0;
  body.forEach((cells, i) => {
    const at = i + 2;
    const skuText = (cells[skuAt] ?? '').trim();
    const quantityText = (cells[quantityAt] ?? '').replace(/\s+/g, '');
    if (!skuText && !quantityText) return;
    const combo = parseSku(skuText);
    const sku = combo ? skuOf(combo.productId, combo.colorId, combo.sizeId) : skuText;
    const line = combo ? bySku.get(sku) : undefined;
    if (!line) {
      problems.push(`Linha ${at}: o SKU "${skuText}" não é de nenhuma cor × tamanho da loja.`);
      return;
    }
    const earlier = seen.get(sku);
    if (earlier !== undefined) {
      problems.push(`Linha ${at}: o SKU ${sku} já está na linha ${earlier}.`);
      return;
    }
    seen.set(sku, at);
    if (!/^[+-]?\d{1,6}$/.test(quantityText)) {
      problems.push(`Linha ${at}: a quantidade "${quantityText}" não é um número inteiro.`);
      return;
    }
    const quantity = Number(quantityText);
    const after = mode === 'definir' ? quantity : line.quantity + quantity;
    if (mode === 'definir' && quantity < 0) {
      problems.push(`Linha ${at}: a contagem não pode ser negativa.`);
      return;
    }
    if (after < 0) {
      problems.push(`Linha ${at}: o estoque de ${sku} ficaria negativo (há ${line.quantity} unidades).`);
      return;
    }
    if (after === line.quantity) {
      unchanged += 1;
      return;
    }
    lines.push(batchLine(line, line.quantity, after));
  });
  return { linhas: lines, sem_mudanca: unchanged, problemas: problems };
}
