import {
  AuditPageSchema,
  StockBatchLineSchema,
  StockFilePreviewResultSchema,
  skuOf,
} from '@passada/core/contracts/painel';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { stockMovements } from '../../db/schema/index.ts';
import { type MadeProduct, makeProduct } from '../../test/factories/catalog.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

/** The stock's batches (docs/decisions/0081): a goods receipt's grid, a count, a stock file. */
describe('painel: stock changed in a batch, all or none, and the stock file', () => {
  let t: TestApp;
  let operator: TestStaff;
  let shorts: MadeProduct;
  const BatchAnswer = z.object({ linhas: z.array(StockBatchLineSchema) });

  const send = (who: TestStaff, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/painel${url}`, headers: who.headers, ...(payload ? { payload } : {}) });
  const quantities = async () =>
    Object.fromEntries(
      (await t.app.catalog.admin.stockLines())
        .filter((l) => l.productId === shorts.id)
        .map((l) => [`${l.color} ${l.size}`, l.quantity]),
    );
  const movements = async () => {
    const [row] = await t.app.db
      .select({ n: count() })
      .from(stockMovements)
      .where(eq(stockMovements.productId, shorts.id));
    return row?.n ?? 0;
  };
  const combo = (color: 'Azul' | 'Coral', size: 'P' | 'M' | 'G') => ({
    product_id: shorts.id,
    color_id: shorts.colorIds[color]!,
    size_id: shorts.sizeIds[size]!,
  });

  beforeAll(async () => {
    t = await createTestApp({ env: { STOCK_BATCH_MAX_LINES: '8' } });
    operator = await createStaffAndLogin(t.app, 'operador');
    shorts = await makeProduct(t.database.db, {
      name: 'Short Jangada',
      stock: (['Azul', 'Coral'] as const).flatMap((color) =>
        (['P', 'M', 'G'] as const).map((size) => ({ color, size, quantity: 2 })),
      ),
    });
  });
  afterAll(() => t.close());

  it('takes a 2 × 3 goods receipt in one save: a ledger line per cell filled, one audit line with the names', async () => {
    const before = await movements();
    const res = await send(operator, 'POST', '/stock/lote/', {
      modo: 'ajustar',
      motivo: 'entrada',
      observacao: 'NF 4411 do fornecedor',
      linhas: [
        { ...combo('Azul', 'P'), quantidade: 10 },
        { ...combo('Azul', 'M'), quantidade: 12 },
        { ...combo('Azul', 'G'), quantidade: 0 },
        { ...combo('Coral', 'P'), quantidade: 4 },
        { ...combo('Coral', 'M'), quantidade: 0 },
        { ...combo('Coral', 'G'), quantidade: 6 },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const answer = BatchAnswer.parse(res.json());
    expect(answer.linhas.map((l) => `${l.cor} ${l.tamanho}: ${l.antes} → ${l.depois}`)).toEqual([
      'Azul P: 2 → 12',
      'Azul M: 2 → 14',
      'Coral P: 2 → 6',
      'Coral G: 2 → 8',
    ]);
    expect(await quantities()).toEqual({
      'Azul P': 12,
      'Azul M': 14,
      'Azul G': 2,
      'Coral P': 6,
      'Coral M': 2,
      'Coral G': 8,
    });
    expect((await movements()) - before).toBe(4);
    const history = await send(
      operator,
      'GET',
      `/stock/history/?product_id=${shorts.id}&color_id=${shorts.colorIds.Azul}&size_id=${shorts.sizeIds.P}`,
    );
    expect(history.json()[0]).toMatchObject({ delta: 10, reason: 'entrada', note: 'NF 4411 do fornecedor' });

    const admin = await createStaffAndLogin(t.app, 'admin');
    const log = AuditPageSchema.parse(
      (await send(admin, 'GET', '/audit/?entity=estoque')).json(),
    ).results.find((e) => e.action === 'estoque_entrada_em_lote');
    expect(log?.after).toMatchObject({
      motivo: 'Entrada',
      linhas: expect.arrayContaining([
        `Short Jangada · Azul P (${skuOf(shorts.id, shorts.colorIds.Azul!, shorts.sizeIds.P!)}): 2 → 12`,
      ]),
    });
  });

  it('writes nothing when one line is refused, and names every refused line', async () => {
    const before = { stock: await quantities(), movements: await movements() };
    const res = await send(operator, 'POST', '/stock/lote/', {
      modo: 'ajustar',
      motivo: 'avaria',
      linhas: [
        { ...combo('Azul', 'P'), quantidade: -1 },
        { ...combo('Azul', 'G'), quantidade: -3 },
        { ...combo('Coral', 'M'), quantidade: -5 },
      ],
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('estoque_em_lote');
    expect(res.json().detail).toContain('Short Jangada · Azul G');
    expect(res.json().detail).toContain('Short Jangada · Coral M');
    expect(res.json().detail).not.toContain('Azul P');
    expect(await quantities()).toEqual(before.stock);
    expect(await movements()).toBe(before.movements);

    const twice = await send(operator, 'POST', '/stock/lote/', {
      modo: 'ajustar',
      motivo: 'entrada',
      linhas: [
        { ...combo('Azul', 'P'), quantidade: 1 },
        { ...combo('Azul', 'P'), quantidade: 1 },
      ],
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().code).toBe('linha_repetida');
    const empty = await send(operator, 'POST', '/stock/lote/', {
      modo: 'ajustar',
      motivo: 'entrada',
      linhas: [{ ...combo('Azul', 'P'), quantidade: 0 }],
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().detail).toBe('Informe ao menos uma quantidade.');
    const tooMany = await send(operator, 'POST', '/stock/lote/', {
      modo: 'ajustar',
      motivo: 'entrada',
      linhas: Array.from({ length: 9 }, (_, i) => ({
        ...combo('Azul', 'P'),
        size_id: 900_000 + i,
        quantidade: 1,
      })),
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().code).toBe('arquivo_grande_demais');
    const finance = await createStaffAndLogin(t.app, 'financeiro');
    expect(
      (
        await send(finance, 'POST', '/stock/lote/', {
          modo: 'ajustar',
          motivo: 'entrada',
          linhas: [{ ...combo('Azul', 'P'), quantidade: 1 }],
        })
      ).statusCode,
    ).toBe(403);
  });

  it('exports the stock, previews an edited file line by line, and applies only what was checked', async () => {
    const file = await send(operator, 'GET', '/stock.csv');
    expect(file.statusCode).toBe(200);
    const rows = file.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
      .map((l) => l.split(';'));
    expect(rows[0]).toEqual(['SKU', 'Produto', 'Cor', 'Tamanho', 'Estoque']);
    const mine = rows.filter((r) => r[1] === 'Short Jangada');
    expect(mine.map((r) => `${r[2]} ${r[3]}: ${r[4]}`)).toEqual([
      'Azul P: 12',
      'Azul M: 14',
      'Azul G: 2',
      'Coral P: 6',
      'Coral M: 2',
      'Coral G: 8',
    ]);

    // The count: Azul P counted 11 (one missing), Coral G as it is, a SKU of nothing, a typo, a repeat.
    const sku = (r: string[] | undefined) => r?.[0] ?? '';
    const counted = [
      'SKU;Produto;Cor;Tamanho;Estoque',
      `${sku(mine[0])};Short Jangada;Azul;P;11`,
      `${sku(mine[5])};Short Jangada;Coral;G;8`,
      `${sku(mine[2]).toLowerCase()};Short Jangada;Azul;G; 5 `,
      'P999-C1-T1;Outro;Preto;M;3',
      `${sku(mine[3])};Short Jangada;Coral;P;seis`,
      `${sku(mine[0])};Short Jangada;Azul;P;10`,
      ';;;;',
    ].join('\r\n');
    const preview = await send(operator, 'POST', '/stock/importar/previa/', {
      modo: 'definir',
      arquivo: counted,
    });
    expect(preview.statusCode, preview.body).toBe(200);
    const seen = StockFilePreviewResultSchema.parse(preview.json());
    expect(seen.linhas.map((l) => `${l.sku}: ${l.antes} → ${l.depois}`)).toEqual([
      `${sku(mine[0])}: 12 → 11`,
      `${sku(mine[2])}: 2 → 5`,
    ]);
    expect(seen.sem_mudanca).toBe(1);
    expect(seen.problemas).toEqual([
      'Linha 5: o SKU "P999-C1-T1" não é de nenhuma cor × tamanho da loja.',
      'Linha 6: a quantidade "seis" não é um número inteiro.',
      `Linha 7: o SKU ${sku(mine[0])} já está na linha 2.`,
    ]);
    // The preview wrote nothing.
    expect((await quantities())['Azul P']).toBe(12);

    // A sale of an Azul G between the preview and the apply: the count is refused as a whole.
    await send(operator, 'POST', '/stock/', {
      ...combo('Azul', 'G'),
      modo: 'ajustar',
      quantidade: -1,
      motivo: 'venda_balcao',
    });
    const apply = (lines: typeof seen.linhas) =>
      send(operator, 'POST', '/stock/lote/', {
        modo: 'definir',
        motivo: 'inventario',
        observacao: 'Contagem de dezembro',
        linhas: lines.map((l) => ({
          product_id: l.product_id,
          color_id: l.color_id,
          size_id: l.size_id,
          quantidade: l.depois,
          antes: l.antes,
        })),
      });
    const stale = await apply(seen.linhas);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().detail).toBe(
      `Short Jangada · Azul G (${sku(mine[2])}): o estoque mudou de 2 para 1 desde a conferência.`,
    );
    expect((await quantities())['Azul P']).toBe(12);
    // Checked again, it applies.
    const again = StockFilePreviewResultSchema.parse(
      (await send(operator, 'POST', '/stock/importar/previa/', { modo: 'definir', arquivo: counted })).json(),
    );
    const applied = await apply(again.linhas);
    expect(applied.statusCode, applied.body).toBe(200);
    expect((await quantities())['Azul P']).toBe(11);
    expect((await quantities())['Azul G']).toBe(5);

    // A receipt file adds: "Quantidade" is what comes in.
    const receipt = await send(operator, 'POST', '/stock/importar/previa/', {
      modo: 'ajustar',
      arquivo: `sku,quantidade\n${sku(mine[1])},+6\n`,
    });
    expect(StockFilePreviewResultSchema.parse(receipt.json()).linhas).toEqual([
      expect.objectContaining({ antes: 14, depois: 20, diferenca: 6 }),
    ]);
    // A file without the columns, or empty, is a clear 400.
    const noColumns = await send(operator, 'POST', '/stock/importar/previa/', {
      modo: 'ajustar',
      arquivo: 'Produto;Total\nShort;3\n',
    });
    expect(noColumns.statusCode).toBe(400);
    expect(noColumns.json().detail).toContain('"SKU" e "Quantidade"');
    const blank = await send(operator, 'POST', '/stock/importar/previa/', {
      modo: 'definir',
      arquivo: 'SKU;Estoque\n',
    });
    expect(blank.json().code).toBe('arquivo_vazio');
  });
});
