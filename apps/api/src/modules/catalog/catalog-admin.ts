import { createHash } from 'node:crypto';
import type { ProductCategory } from '@passada/core/contracts/catalog';
import { MAX_PRODUCT_IMAGES } from '@passada/core/contracts/catalog';
import {
  STALE_VERSION_CODE,
  type StockBatchLine,
  skuOf,
  stockBatchLabel,
} from '@passada/core/contracts/painel';
import { formatBRL } from '@passada/core/money';
import type { Sale } from '@passada/core/sale-price';
import { toSearchText } from '@passada/core/text';
import type { Db, Tx } from '../../db/client.ts';
import type { SizeGuide, stockMovements } from '../../db/schema/index.ts';
import { badRequest, conflict, notFound } from '../../plugins/errors.ts';
import * as repo from './catalog.repository.ts';
import { notifyChanged } from './catalog-changed.ts';
import { batchLine, previewStockFile } from './stock-file.ts';
import { listStockMovements } from './stock-ledger.read-model.ts';

type Conn = Db | Tx;

export type { BannerRow, ImageRow } from './catalog.repository.ts';

/** A home banner as staff edit it. */
export interface BannerFields {
  imageUrl: string;
  text: string;
  link: string;
}

/** The version of a list saved as a whole: a short fingerprint of what it holds (decision 0034). */
function listVersion(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);
}

const STALE_LIST =
  'Esta lista foi alterada por outra pessoa depois que você abriu a página. Recarregue para ver a versão atual; suas alterações não foram salvas.';

export interface StockCombo {
  productId: number;
  colorId: number;
  sizeId: number;
}

export interface ProductFields {
  name: string;
  description: string;
  priceCents: number;
  category: ProductCategory;
  showOnHome: boolean;
  hidden: boolean;
  weightGrams: number;
}

/** What a draft still lacks to be published (docs/decisions/0085). */
export type MissingForSale = 'foto' | 'estoque';

export interface StaffProduct extends ProductFields {
  id: number;
  /** Made and never published: the shop does not show it (docs/decisions/0085). */
  draft: boolean;
  /** When the minute job publishes the draft, or null. */
  publishAt: Date | null;
  /** A ready photo, a unit in stock: what the product lacks to be sold; empty when it lacks nothing. */
  missing: MissingForSale[];
  /** Bumped by every edit of the fields above; a save sends back the one it read. */
  version: number;
  /** The sale staff set (docs/decisions/0082), or null. */
  sale: Sale | null;
  images: repo.ImageRow[];
  stock: repo.StockRow[];
  /** The size guide staff keep (docs/decisions/0070), or null. */
  sizeGuide: SizeGuide | null;
}

const PRODUCT_NOT_FOUND = 'Produto não encontrado.';

/** What a save from a form opened before someone else's save gets (409 `versao_desatualizada`). */
export const STALE_PRODUCT =
  'Este produto foi alterado por outra pessoa depois que você abriu o formulário. Recarregue a página para ver a versão atual; suas alterações não foram salvas.';
const COMBO_NOT_FOUND = 'Essa combinação de cor e tamanho não existe neste produto.';

function missingOf(images: repo.ImageRow[], stock: repo.StockRow[]): MissingForSale[] {
  return [
    ...(images.some((i) => i.status === 'pronta') ? [] : (['foto'] as const)),
    ...(stock.some((s) => s.quantity > 0) ? [] : (['estoque'] as const)),
  ];
}

const MISSING_WORDS: Record<MissingForSale, string> = {
  foto: 'uma foto pronta',
  estoque: 'estoque em ao menos uma cor e tamanho',
};

/** 409 `produto_incompleto`: what the product lacks, in words. */
function incomplete(missing: MissingForSale[]) {
  return conflict(
    `Para colocar o produto à venda, falta ${missing.map((m) => MISSING_WORDS[m]).join(' e ')}.`,
    'produto_incompleto',
  );
}

function fields(row: repo.ProductRow): ProductFields {
  return {
    name: row.name,
    description: row.description,
    priceCents: row.priceCents,
    category: row.category,
    showOnHome: row.showOnHome,
    hidden: row.hidden,
    weightGrams: row.weightGrams,
  };
}

/**
 * What the back office does to the catalogue: every write takes the caller's transaction so the audit
 * entry commits or rolls back with it.
 */
/** Why stock moved and who moved it (a staff member's id), kept in `stock_movements`. */
export interface StockMovementNote {
  reason: (typeof stockMovements.$inferInsert)['reason'];
  note: string;
  staffId: number;
}

export function createCatalogAdmin(deps: { db: Db; now: () => Date }) {
  async function withDetails(db: Conn, rows: repo.ProductRow[]): Promise<StaffProduct[]> {
    const ids = rows.map((r) => r.id);
    const stockRows = await repo.findStock(db, ids);
    const images = await Promise.all(rows.map((r) => repo.findImageRows(db, r.id)));
    return rows.map((row, i) => ({
      id: row.id,
      version: row.version,
      ...fields(row),
      draft: row.draft,
      publishAt: row.publishAt,
      missing: missingOf(
        images[i]!,
        stockRows.filter((s) => s.productId === row.id),
      ),
      sale: repo.saleOf(row),
      sizeGuide: row.sizeGuide ?? null,
      images: images[i]!,
      stock: stockRows.filter((s) => s.productId === row.id),
    }));
  }

  /** Every product, hidden ones too, newest first; with `search`, those whose name has every word. */
  async function listProducts(search = '', db: Conn = deps.db): Promise<StaffProduct[]> {
    const nameWords = toSearchText(search).split(' ').filter(Boolean);
    const rows = await repo.findProducts(db, nameWords.length ? { nameWords } : {});
    return withDetails(db, rows.reverse());
  }

  async function getProduct(id: number, db: Conn = deps.db): Promise<StaffProduct> {
    const [row] = await repo.findProductsByIds(db, [id]);
    if (!row) throw notFound(PRODUCT_NOT_FOUND);
    return (await withDetails(db, [row]))[0]!;
  }

  /**
   * A new product with one zero-stock combination per colour × size given: a draft, which the shop shows
   * only once it is published with a photo and stock (docs/decisions/0085).
   */
  async function createProduct(
    tx: Tx,
    input: ProductFields & { colorIds: number[]; sizeIds: number[] },
  ): Promise<StaffProduct> {
    const { colorIds, sizeIds, ...row } = input;
    const [id] = await repo.insertProducts(tx, [
      {
        ...row,
        draft: true,
        homePosition: row.showOnHome ? await repo.nextHomePosition(tx) : null,
        searchText: toSearchText(input.name, input.description),
        // The package grows with the garment's weight; the shipping quote only needs a plausible box.
        lengthCm: 30,
        widthCm: 25,
        heightCm: Math.max(2, Math.ceil(input.weightGrams / 200)),
      },
    ]);
    await addCombos(tx, id!, colorIds, sizeIds);
    return getProduct(id!, tx);
  }

  async function addCombos(tx: Tx, productId: number, colorIds: number[], sizeIds: number[]) {
    await repo.insertMissingCombos(
      tx,
      colorIds.flatMap((colorId) => sizeIds.map((sizeId) => ({ productId, colorId, sizeId }))),
    );
  }

  /** The product's row, locked, while its version is the one the form read (409 otherwise). */
  async function lockVersion(tx: Tx, id: number, version: number) {
    const current = await repo.lockProduct(tx, id);
    if (!current) throw notFound(PRODUCT_NOT_FOUND);
    if (current.version !== version) throw conflict(STALE_PRODUCT, STALE_VERSION_CODE);
    return current;
  }

  /**
   * Changes only the given fields, if the product is still at `version` (checked under the row's
   * lock, so of two saves of the same version one waits and then is refused); new colours × sizes
   * are added with zero units, none are removed. Stock is never written here.
   */
  async function updateProduct(
    tx: Tx,
    id: number,
    version: number,
    patch: Partial<ProductFields> & { colorIds?: number[] | undefined; sizeIds?: number[] | undefined },
  ): Promise<{ before: StaffProduct; after: StaffProduct }> {
    const current = await lockVersion(tx, id, version);
    const before = await getProduct(id, tx);
    const { colorIds, sizeIds, ...given } = patch;
    // A field not sent stays as stored: undefined never reaches the UPDATE.
    const rest = Object.fromEntries(
      Object.entries(given).filter(([, v]) => v !== undefined),
    ) as Partial<ProductFields>;
    // A product on sale always has a photo: showing a hidden one again needs one (docs/decisions/0085).
    if (rest.hidden === false && current.hidden && !current.draft) {
      const photo = before.missing.filter((m) => m === 'foto');
      if (photo.length) throw incomplete(photo);
    }
    const next = { ...fields(current), ...rest };
    // Ticking "aparecer na home" puts the product last among the featured; unticking takes it out.
    const homePosition =
      rest.showOnHome === undefined || rest.showOnHome === current.showOnHome
        ? {}
        : { homePosition: rest.showOnHome ? await repo.nextHomePosition(tx) : null };
    await repo.updateProductRow(tx, id, {
      ...rest,
      ...homePosition,
      searchText: toSearchText(next.name, next.description),
      version: current.version + 1,
    });
    if (colorIds || sizeIds) {
      const existingColors = [...new Set(before.stock.map((s) => s.colorId))];
      const existingSizes = [...new Set(before.stock.map((s) => s.sizeId))];
      await addCombos(
        tx,
        id,
        [...new Set([...existingColors, ...(colorIds ?? [])])],
        [...new Set([...existingSizes, ...(sizeIds ?? [])])],
      );
    }
    return { before, after: await getProduct(id, tx) };
  }

  /**
   * Appends a photo after the last one; the product row lock keeps two uploads from one position. An
   * upload comes in `processando`: the shop lists it once `setImageStatus` makes it `pronta`.
   */
  async function addImage(
    tx: Tx,
    productId: number,
    url: string,
    status: repo.ImageStatus = 'pronta',
  ): Promise<repo.ImageRow> {
    if (!(await repo.lockProduct(tx, productId))) throw notFound(PRODUCT_NOT_FOUND);
    const images = await repo.findImageRows(tx, productId);
    if (images.length >= MAX_PRODUCT_IMAGES) {
      throw conflict(`Um produto tem no máximo ${MAX_PRODUCT_IMAGES} fotos.`, 'limite_de_fotos');
    }
    return repo.insertImageRow(tx, productId, images.length + 1, url, status);
  }

  async function removeImage(tx: Tx, productId: number, imageId: number): Promise<repo.ImageRow> {
    const product = await repo.lockProduct(tx, productId);
    if (!product) throw notFound(PRODUCT_NOT_FOUND);
    if (!product.draft && !product.hidden) {
      const ready = (await repo.findImageRows(tx, productId)).filter((i) => i.status === 'pronta');
      if (ready.length === 1 && ready[0]!.id === imageId)
        throw conflict(
          'Um produto à venda precisa de ao menos uma foto: envie outra antes de remover esta, ou oculte o produto.',
          'ultima_foto',
        );
    }
    const removed = await repo.deleteImageRow(tx, productId, imageId);
    if (!removed) throw notFound('Foto não encontrada.');
    const rest = await repo.findImageRows(tx, productId);
    for (const [i, image] of rest.entries()) await repo.setImagePosition(tx, image.id, i + 1);
    return removed;
  }

  /** A photo's alt text and colour; the colour must be one the product comes in. Answers it before and after. */
  async function updateImage(
    tx: Tx,
    productId: number,
    imageId: number,
    patch: { alt: string; colorId: number | null },
  ): Promise<{ before: repo.ImageRow; after: repo.ImageRow }> {
    if (!(await repo.lockProduct(tx, productId))) throw notFound(PRODUCT_NOT_FOUND);
    const before = (await repo.findImageRows(tx, productId)).find((i) => i.id === imageId);
    if (!before) throw notFound('Foto não encontrada.');
    if (patch.colorId !== null) {
      const colors = await repo.findStock(tx, [productId], { colorId: patch.colorId });
      if (!colors.length) {
        const message = 'Escolha uma das cores do produto.';
        throw badRequest(message, 'validation_error', { color_id: message });
      }
    }
    const after = await repo.updateImageRow(tx, productId, imageId, patch);
    return { before, after: after! };
  }

  /** Puts the product's photos in the given order; the list must name each photo once. Answers the order before too. */
  async function reorderImages(
    tx: Tx,
    productId: number,
    ids: number[],
  ): Promise<{ before: number[]; images: repo.ImageRow[] }> {
    if (!(await repo.lockProduct(tx, productId))) throw notFound(PRODUCT_NOT_FOUND);
    const images = await repo.findImageRows(tx, productId);
    const known = new Set(images.map((i) => i.id));
    if (
      ids.length !== images.length ||
      new Set(ids).size !== ids.length ||
      ids.some((id) => !known.has(id))
    ) {
      throw conflict('A nova ordem deve listar cada foto do produto uma vez.', 'ordem_invalida');
    }
    for (const [i, id] of ids.entries()) await repo.setImagePosition(tx, id, i + 1);
    return { before: images.map((i) => i.id), images: await repo.findImageRows(tx, productId) };
  }

  /**
   * Adds `delta` units, or sets the counted quantity. Both run under the stock row's lock, in the
   * same order as a checkout's reservation, so a sale in between is never overwritten or lost. The
   * movement (why, by whom) is written in the same transaction, so history and stock always agree.
   */
  async function changeStock(
    tx: Tx,
    combo: StockCombo,
    change: { delta: number } | { set: number },
    movement: StockMovementNote,
  ): Promise<{ before: number; after: number; delta: number }> {
    const before = await repo.lockStockRow(tx, combo);
    if (before === undefined) throw notFound(COMBO_NOT_FOUND);
    const delta = 'set' in change ? change.set - before : change.delta;
    const after = await repo.addToStock(tx, combo, delta);
    if (after === undefined) {
      throw conflict(`O estoque não pode ficar negativo: há ${before} unidades.`, 'estoque_negativo');
    }
    await repo.insertStockMovement(tx, {
      ...combo,
      delta,
      quantityAfter: after,
      reason: movement.reason,
      note: movement.note,
      staffId: movement.staffId,
    });
    return { before, after, delta };
  }

  /**
   * Several colours × sizes at once (a goods receipt, a count, a stock file), all or none: each line under
   * its row's lock, the rows taken in the checkouts' order. A line may carry the quantity staff saw when
   * they checked it (`expected`): when a sale moved it since, nothing is written (a count never silently
   * overwrites a sale). Every problem is named in one 409, by the line's label.
   */
  async function changeStockMany(
    tx: Tx,
    lines: Array<
      StockCombo & { label: string; change: { delta: number } | { set: number }; expected?: number }
    >,
    movement: StockMovementNote,
  ): Promise<Array<StockCombo & { before: number; after: number; delta: number }>> {
    const done: Array<StockCombo & { before: number; after: number; delta: number }> = [];
    const problems: string[] = [];
    for (const line of [...lines].sort(repo.byCombo)) {
      const combo = { productId: line.productId, colorId: line.colorId, sizeId: line.sizeId };
      const before = await repo.lockStockRow(tx, combo);
      if (before === undefined) {
        problems.push(`${line.label}: ${COMBO_NOT_FOUND}`);
        continue;
      }
      if (line.expected !== undefined && line.expected !== before) {
        problems.push(
          `${line.label}: o estoque mudou de ${line.expected} para ${before} desde a conferência.`,
        );
        continue;
      }
      const delta = 'set' in line.change ? line.change.set - before : line.change.delta;
      if (before + delta < 0) {
        problems.push(`${line.label}: o estoque não pode ficar negativo (há ${before} unidades).`);
        continue;
      }
      if (delta === 0) {
        done.push({ ...combo, before, after: before, delta });
        continue;
      }
      done.push({ ...combo, ...(await changeStock(tx, combo, { delta }, movement)) });
    }
    if (problems.length) throw conflict(problems.join(' '), 'estoque_em_lote');
    return done;
  }

  /**
   * `POST /stock/lote/` (docs/decisions/0081): the batch as staff sent it, checked (a combination named
   * twice, a negative count, nothing to change: 400), applied all or none by `changeStockMany`, and
   * answered by name. The combinations' names are read once, in the batch's transaction.
   */
  async function applyStockBatch(
    tx: Tx,
    batch: {
      modo: 'ajustar' | 'definir';
      motivo: StockMovementNote['reason'];
      observacao: string;
      linhas: Array<{
        product_id: number;
        color_id: number;
        size_id: number;
        quantidade: number;
        antes?: number | undefined;
      }>;
    },
    staffId: number,
    maxLines: number,
  ): Promise<StockBatchLine[]> {
    if (batch.linhas.length > maxLines)
      throw badRequest(`São ${batch.linhas.length} linhas; o limite é ${maxLines}.`, 'arquivo_grande_demais');
    const keyed = new Map<string, (typeof batch.linhas)[number]>();
    for (const l of batch.linhas) {
      const sku = skuOf(l.product_id, l.color_id, l.size_id);
      if (keyed.has(sku)) throw badRequest(`A combinação ${sku} aparece duas vezes.`, 'linha_repetida');
      if (batch.modo === 'definir' && l.quantidade < 0)
        throw badRequest('A quantidade contada não pode ser negativa.', 'validation_error');
      // An empty cell of the receipt's grid adds nothing.
      if (batch.modo === 'definir' || l.quantidade !== 0) keyed.set(sku, l);
    }
    if (keyed.size === 0) throw badRequest('Informe ao menos uma quantidade.', 'validation_error');
    const known = new Map(
      (await repo.findStockLines(tx)).map((n) => [skuOf(n.productId, n.colorId, n.sizeId), n]),
    );
    const done = await changeStockMany(
      tx,
      [...keyed].map(([sku, l]) => {
        const line = known.get(sku);
        return {
          productId: l.product_id,
          colorId: l.color_id,
          sizeId: l.size_id,
          label: line ? stockBatchLabel(batchLine(line, line.quantity, line.quantity)) : sku,
          change: batch.modo === 'definir' ? { set: l.quantidade } : { delta: l.quantidade },
          ...(l.antes !== undefined ? { expected: l.antes } : {}),
        };
      }),
      { reason: batch.motivo, note: batch.observacao, staffId },
    );
    // Every line exists here: a combination not found refused the batch above.
    return done.map((r) => batchLine(known.get(skuOf(r.productId, r.colorId, r.sizeId))!, r.before, r.after));
  }

  /** Every colour × size of every product (hidden ones too) with names and quantity. */
  const stockLines = () => repo.findStockLines(deps.db);

  /** What a stock file would change, nothing written (docs/decisions/0081). */
  const previewStock = async (content: string, mode: 'ajustar' | 'definir', maxLines: number) =>
    previewStockFile(content, mode, await stockLines(), maxLines);

  /** A colour × size's history of movements, newest first. */
  const stockHistory = (combo: StockCombo) => listStockMovements(deps.db, combo);

  function lowStock(threshold: number) {
    return repo.findStockLines(deps.db, { atMost: threshold });
  }

  async function createColor(tx: Tx, color: { name: string; hex: string }) {
    const existing = (await repo.listColors(tx)).find(
      (c) => c.name.toLocaleLowerCase('pt-BR') === color.name.toLocaleLowerCase('pt-BR'),
    );
    if (existing) throw conflict('Já existe uma cor com esse nome.', 'cor_existente');
    const id = (await repo.ensureColors(tx, [color])).get(color.name);
    // Another person created it (in another letter case) in between.
    if (id === undefined) throw conflict('Já existe uma cor com esse nome.', 'cor_existente');
    return { id, ...color };
  }

  async function createSize(tx: Tx, size: { name: string; sortOrder: number }) {
    const existing = (await repo.listSizes(tx)).find(
      (s) => s.name.toLocaleLowerCase('pt-BR') === size.name.toLocaleLowerCase('pt-BR'),
    );
    if (existing) throw conflict('Já existe um tamanho com esse nome.', 'tamanho_existente');
    const id = (await repo.ensureSizes(tx, [size])).get(size.name);
    if (id === undefined) throw conflict('Já existe um tamanho com esse nome.', 'tamanho_existente');
    return { id, name: size.name };
  }

  /** The home page's featured products in order, with the version a save sends back. */
  async function featured(db: Conn = deps.db) {
    const ids = await repo.findFeaturedIds(db);
    return { versao: listVersion(ids), ids };
  }

  /**
   * Features exactly `ids` in that order (every other product leaves the home page), if the list is
   * still the one read (`versao`), checked under the featured rows' locks. Answers the list before.
   */
  async function setFeatured(tx: Tx, versao: string, ids: number[]): Promise<{ before: number[] }> {
    const before = await repo.lockFeatured(tx);
    if (listVersion(before) !== versao) throw conflict(STALE_LIST, STALE_VERSION_CODE);
    const known = new Set((await repo.findProductsByIds(tx, ids)).map((p) => p.id));
    const unknown = ids.filter((id) => !known.has(id));
    if (unknown.length) {
      const message = `Produto não encontrado: ${unknown.join(', ')}.`;
      throw badRequest(message, 'validation_error', { ids: message });
    }
    await repo.setFeatured(tx, ids);
    return { before };
  }

  const bannerFields = (rows: repo.BannerRow[]): BannerFields[] =>
    rows.map((r) => ({ imageUrl: r.imageUrl, text: r.text, link: r.link }));

  /** The home banners in order, with the version a save sends back. */
  async function banners(db: Conn = deps.db) {
    const list = bannerFields(await repo.listBanners(db));
    return { versao: listVersion(list), banners: list };
  }

  /** Replaces the banner list if it is still the one read (`versao`); answers the list before. */
  async function setBanners(
    tx: Tx,
    versao: string,
    list: BannerFields[],
  ): Promise<{ before: BannerFields[] }> {
    await repo.lockBanners(tx);
    const before = bannerFields(await repo.listBanners(tx));
    if (listVersion(before) !== versao) throw conflict(STALE_LIST, STALE_VERSION_CODE);
    await repo.replaceBanners(tx, list);
    return { before };
  }

  /**
   * Replaces the product's size guide (docs/decisions/0070) under its row lock and version, like any
   * edit of the product: each row one of the product's sizes, once, with a value per measurement.
   */
  /**
   * Sets or ends the product's sale (docs/decisions/0082), at the version staff read: a price below the
   * list price, from a start to a later end that has not passed. The shop's lists and pages change at
   * the start and the end by themselves (the catalogue's sale job).
   */
  async function setSale(
    tx: Tx,
    id: number,
    version: number,
    sale: Sale | null,
  ): Promise<{ before: Sale | null; after: Sale | null }> {
    const current = await lockVersion(tx, id, version);
    if (sale) {
      if (sale.priceCents >= current.priceCents)
        throw badRequest(
          `O preço promocional deve ser menor que o preço do produto (${formatBRL(current.priceCents)}).`,
          'validation_error',
          { preco: `Use um valor abaixo de ${formatBRL(current.priceCents)}.` },
        );
      if (sale.endsAt.getTime() <= deps.now().getTime())
        throw badRequest('O fim da promoção já passou.', 'validation_error', {
          fim: 'Escolha um fim depois de agora.',
        });
      // A sale limited to some colours × sizes names only combinations the product has.
      if (sale.only?.length) {
        const combos = await repo.findStock(tx, [id]);
        const unknown = sale.only.find(
          (c) => !combos.some((s) => s.colorId === c.colorId && s.sizeId === c.sizeId),
        );
        if (unknown)
          throw badRequest('Escolha só combinações de cor e tamanho deste produto.', 'validation_error', {
            combinacoes: 'Escolha só combinações de cor e tamanho deste produto.',
          });
      }
    }
    const only = sale?.only?.length
      ? [
          ...new Map(
            sale.only.map((c) => [`${c.colorId}/${c.sizeId}`, { colorId: c.colorId, sizeId: c.sizeId }]),
          ).values(),
        ]
      : null;
    await repo.updateProductRow(tx, id, {
      salePriceCents: sale?.priceCents ?? null,
      saleStartsAt: sale?.startsAt ?? null,
      saleEndsAt: sale?.endsAt ?? null,
      saleOnly: only,
      version: current.version + 1,
      updatedAt: deps.now(),
    });
    return { before: repo.saleOf(current), after: sale && { ...sale, only } };
  }

  /**
   * Publishes a draft now (`at` null or past), which needs a ready photo and a unit in stock (409
   * `produto_incompleto` naming what is missing), or schedules it for `at` (a collection's "lançamento"),
   * which may be set before the photos and the goods arrive: the minute job publishes it only once it has
   * them. Checked under the row's lock, with the version the form read.
   */
  async function publish(
    tx: Tx,
    id: number,
    version: number,
    at: Date | null,
  ): Promise<{ before: StaffProduct; after: StaffProduct }> {
    const current = await lockVersion(tx, id, version);
    if (!current.draft) throw conflict('Este produto já está publicado.', 'ja_publicado');
    const before = await getProduct(id, tx);
    const now = deps.now();
    const scheduled = at !== null && at.getTime() > now.getTime();
    if (!scheduled && before.missing.length) throw incomplete(before.missing);
    await repo.updateProductRow(tx, id, {
      ...(scheduled ? { publishAt: at } : { draft: false, publishAt: null, updatedAt: now }),
      version: current.version + 1,
    });
    return { before, after: await getProduct(id, tx) };
  }

  /** Takes a draft's publishing time away: it stays a draft until staff publish it. */
  async function unschedule(
    tx: Tx,
    id: number,
    version: number,
  ): Promise<{ before: StaffProduct; after: StaffProduct }> {
    const current = await lockVersion(tx, id, version);
    if (!current.publishAt) throw conflict('Este produto não tem lançamento agendado.', 'sem_agendamento');
    const before = await getProduct(id, tx);
    await repo.updateProductRow(tx, id, { publishAt: null, version: current.version + 1 });
    return { before, after: await getProduct(id, tx) };
  }

  /**
   * The minute job's part: each draft whose time has come is published, each in its own transaction and
   * with its audit line (`record`), if it has a ready photo and stock; one that lacks them stays a draft,
   * keeps its time and is published on the first run after staff add what it lacks (the back office
   * shows what is missing). Answers the ids published.
   */
  async function publishDue(record: (tx: Tx, after: StaffProduct) => Promise<void>): Promise<number[]> {
    const published: number[] = [];
    for (const id of await repo.findDueDrafts(deps.db, deps.now())) {
      const done = await deps.db.transaction(async (tx) => {
        const current = await repo.lockProduct(tx, id);
        if (!current?.draft || !current.publishAt || current.publishAt > deps.now()) return false;
        if ((await getProduct(id, tx)).missing.length) return false;
        await repo.updateProductRow(tx, id, {
          draft: false,
          publishAt: null,
          updatedAt: deps.now(),
          version: current.version + 1,
        });
        await record(tx, await getProduct(id, tx));
        return true;
      });
      if (done) published.push(id);
    }
    return published;
  }

  async function setSizeGuide(
    tx: Tx,
    id: number,
    version: number,
    guide: { colunas: string[]; linhas: Array<{ tamanho_id: number; valores: Array<number | null> }> },
  ): Promise<{ before: SizeGuide | null; after: SizeGuide }> {
    const current = await lockVersion(tx, id, version);
    const sizesOfProduct = new Set((await getProduct(id, tx)).stock.map((s) => s.sizeId));
    const seen = new Set<number>();
    for (const row of guide.linhas) {
      if (!sizesOfProduct.has(row.tamanho_id) || seen.has(row.tamanho_id))
        throw badRequest('Cada linha deve ser um tamanho deste produto, uma vez.', 'tamanho_invalido', {
          linhas: 'Cada linha deve ser um tamanho deste produto, uma vez.',
        });
      if (row.valores.length !== guide.colunas.length)
        throw badRequest('Cada tamanho precisa de um valor (ou vazio) por medida.', 'validation_error', {
          linhas: 'Cada tamanho precisa de um valor (ou vazio) por medida.',
        });
      seen.add(row.tamanho_id);
    }
    const after: SizeGuide = {
      columns: guide.colunas,
      rows: guide.linhas.map((r) => ({ sizeId: r.tamanho_id, values: r.valores })),
    };
    await repo.updateProductRow(tx, id, { sizeGuide: after, version: current.version + 1 });
    return { before: current.sizeGuide ?? null, after };
  }

  /**
   * The product's rating in tenths of a star: the average of its published reviews (decision 0071). Null
   * keeps the rating (none published) and only tells every process the product's page changed.
   */
  async function setRating(tx: Tx, id: number, tenths: number | null): Promise<void> {
    if (tenths === null) await notifyChanged(tx);
    else await repo.updateProductRow(tx, id, { rating: Math.max(0, Math.min(50, tenths)) });
  }

  return {
    setRating,
    setSizeGuide,
    setSale,
    publish,
    unschedule,
    publishDue,
    featured,
    setFeatured,
    banners,
    setBanners,
    updateImage,
    listProducts,
    getProduct,
    createProduct,
    updateProduct,
    addImage,
    setImageStatus: repo.setImageStatus,
    removeImage,
    reorderImages,
    changeStock,
    applyStockBatch,
    stockLines,
    previewStock,
    stockHistory,
    lowStock,
    productNames: (ids: number[]) => repo.productNames(deps.db, ids),
    listColors: () => repo.listColors(deps.db),
    listSizes: () => repo.listSizes(deps.db),
    createColor,
    createSize,
  };
}

export type CatalogAdmin = ReturnType<typeof createCatalogAdmin>;
