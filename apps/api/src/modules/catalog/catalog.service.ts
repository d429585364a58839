import type {
  Home,
  Product,
  ProductCategory,
  ProductSearchQuery,
  ProductSizing,
  StockQuery,
} from '@passada/core/contracts/catalog';
import { MAX_PRODUCT_IMAGES } from '@passada/core/contracts/catalog';
import { centsToReais, reaisToCents } from '@passada/core/money';
import { isPartialSale, priceAt, type Variant } from '@passada/core/sale-price';
import { toSearchText } from '@passada/core/text';
import type { Db, Tx } from '../../db/client.ts';
import { conflict, notFound } from '../../plugins/errors.ts';
import {
  byCombo,
  findImages,
  findProducts,
  findProductsByIds,
  findStock,
  giveBackStock,
  insertHold,
  insertImages,
  insertProducts,
  insertSaleMovements,
  insertStock,
  insertStockMovements,
  listBanners,
  listSizes,
  type NewStockMovement,
  nextHomePosition,
  type ProductFilters,
  type ProductRow,
  releaseReservations,
  type StockLine,
  saleOf,
  shrinkReservation,
  takeStock,
} from './catalog.repository.ts';
import { createCatalogAdmin } from './catalog-admin.ts';

/** Shared beyond the module (the shop's cache listens for it; seeds and tests add colours and sizes). */
export { CATALOG_CHANGED, ensureColors, ensureSizes } from './catalog.repository.ts';

export type { StockLine };

/** Why units go back to stock, and the order they came from when there is one. */
export interface StockReturn {
  reason: 'liberacao' | 'cancelamento' | 'devolucao';
  orderId?: number;
  staffId?: number;
  note?: string;
}

/** One movement row of a combination. */
function movement(
  line: StockLine,
  delta: number,
  after: number,
  extra: Pick<NewStockMovement, 'reason' | 'chargeId' | 'orderId' | 'staffId' | 'note'>,
): NewStockMovement {
  return {
    productId: line.productId,
    colorId: line.colorId,
    sizeId: line.sizeId,
    delta,
    quantityAfter: after,
    ...extra,
  };
}

type Conn = Db | Tx;

export interface CatalogServiceDeps {
  db: Db;
  /** The shop's clock: a sale's price holds from its start to its end (docs/decisions/0082). */
  now?: () => Date;
}

export const PRODUCT_NOT_FOUND = 'Produto não encontrado.';

/** Builds the wire shape (spec section 3) for the given rows, with their images and stock. */
async function toWire(
  db: Conn,
  rows: ProductRow[],
  now: Date,
  stockFilter: { colorId?: number; sizeId?: number } = {},
): Promise<Product[]> {
  const ids = rows.map((r) => r.id);
  const [images, stockRows] = await Promise.all([findImages(db, ids), findStock(db, ids, stockFilter)]);
  return rows.map((row) => {
    const own = images.filter((i) => i.productId === row.id);
    const urls = own.map((i) => i.url);
    const sale = saleOf(row);
    const price = priceAt(row.priceCents, sale, now);
    // A sale limited to some colours × sizes: each of them answers its own price (decision 0082, later).
    const partial = isPartialSale(sale) ? (v: Variant) => priceAt(row.priceCents, sale, now, v) : null;
    // While it runs, the product says until when (its combinations carry the prices).
    const partialEnds = partial && priceAt(row.priceCents, { ...sale!, only: null }, now).endsAt;
    return {
      id: row.id,
      name: row.name,
      description: row.description,
      price: centsToReais(price.priceCents),
      ...(price.listCents !== null
        ? { preco_de: centsToReais(price.listCents), promocao_ate: price.endsAt!.toISOString() }
        : {}),
      ...(partialEnds ? { promocao_parcial: true, promocao_ate: partialEnds.toISOString() } : {}),
      category: row.category,
      aparecer_home: row.showOnHome,
      rating: row.rating / 10,
      ...Object.fromEntries(urls.map((url, i) => [`imagem${i + 1}`, url])),
      images: urls,
      photos: own.map((i) => ({ url: i.url, alt: i.alt, color_id: i.colorId })),
      stock: stockRows
        .filter((s) => s.productId === row.id)
        .map((s) => {
          const own = partial?.({ colorId: s.colorId, sizeId: s.sizeId });
          return {
            color: { id: s.colorId, name: s.colorName, hex: s.colorHex },
            size: { id: s.sizeId, name: s.sizeName },
            quantity: s.quantity,
            ...(own?.listCents
              ? { preco: centsToReais(own.priceCents), preco_de: centsToReais(own.listCents) }
              : {}),
          };
        }),
    };
  });
}

export interface ProductPackage {
  id: number;
  weightGrams: number;
  lengthCm: number;
  widthCm: number;
  heightCm: number;
}

function toPackage(r: ProductRow): ProductPackage {
  return {
    id: r.id,
    weightGrams: r.weightGrams,
    lengthCm: r.lengthCm,
    widthCm: r.widthCm,
    heightCm: r.heightCm,
  };
}

export interface NewCatalogProduct {
  name: string;
  description: string;
  priceCents: number;
  category: ProductCategory;
  showOnHome: boolean;
  /** Average review score in tenths, 0–50. */
  ratingTenths: number;
  weightGrams: number;
  lengthCm: number;
  widthCm: number;
  heightCm: number;
  imageUrls: string[];
  stock: Array<{ colorId: number; sizeId: number; quantity: number }>;
}

/** Products, their stock and its reservations (docs/product.md §2). */
export function createCatalogService(deps: CatalogServiceDeps) {
  const clock = deps.now ?? (() => new Date());
  async function listProducts(category?: ProductCategory): Promise<Product[]> {
    return toWire(deps.db, await findProducts(deps.db, { category, visibleOnly: true }), clock());
  }

  /**
   * One product; with a colour and/or size it is the stock check of the product page: the same shape
   * with `stock` narrowed to that combination (empty when the combination does not exist).
   */
  async function getProduct(id: number, only: StockQuery = {}, db: Conn = deps.db): Promise<Product> {
    const [row] = await findProductsByIds(db, [id]);
    if (!row) throw notFound(PRODUCT_NOT_FOUND);
    const [product] = await toWire(db, [row], clock(), { colorId: only.color, sizeId: only.size });
    return product!;
  }

  /**
   * The products of a cart, by id (unknown ids are left out), each with its package for the shipping
   * quote and whether the back office hid it (a new order refuses it): three queries whatever the number
   * of products.
   */
  async function getCartProducts(
    ids: number[],
    db: Conn = deps.db,
  ): Promise<Array<{ product: Product; package: ProductPackage; hidden: boolean }>> {
    if (!ids.length) return [];
    const rows = await findProductsByIds(db, ids);
    const wire = await toWire(db, rows, clock());
    return rows.map((r, i) => ({ product: wire[i]!, package: toPackage(r), hidden: r.hidden || r.draft }));
  }

  /** The product page's read: a product the back office hid answers 404 as if it did not exist. */
  async function getShopProduct(id: number, only: StockQuery = {}): Promise<Product> {
    const [row] = await findProducts(deps.db, { ids: [id], visibleOnly: true });
    if (!row) throw notFound(PRODUCT_NOT_FOUND);
    return getProduct(id, only);
  }

  /**
   * The size guide of a product on sale (docs/decisions/0070), its rows in the sizes' order, each named;
   * null when staff kept none. A hidden product answers 404.
   */
  async function sizeGuide(id: number): Promise<ProductSizing['guia']> {
    const [row] = await findProducts(deps.db, { ids: [id], visibleOnly: true });
    if (!row) throw notFound(PRODUCT_NOT_FOUND);
    const guide = row.sizeGuide;
    if (!guide?.rows.length) return null;
    const order = await listSizes(deps.db);
    const at = new Map(order.map((s, i) => [s.id, { i, name: s.name }]));
    return {
      colunas: guide.columns,
      linhas: [...guide.rows]
        .filter((r) => at.has(r.sizeId))
        .sort((a, b) => at.get(a.sizeId)!.i - at.get(b.sizeId)!.i)
        .map((r) => ({ tamanho: at.get(r.sizeId)!.name, valores: r.values })),
    };
  }

  /** /pesquisa: words accent- and case-insensitively, category, price range in reais, sizes in stock. */
  async function searchProducts(query: ProductSearchQuery): Promise<Product[]> {
    const now = clock();
    const filters: ProductFilters = { category: query.category, visibleOnly: true, priceAt: now };
    const words = toSearchText(query.q ?? '')
      .split(' ')
      .filter(Boolean);
    if (words.length) filters.words = words;
    if (query.min_price !== undefined) filters.minPriceCents = reaisToCents(query.min_price);
    if (query.max_price !== undefined) filters.maxPriceCents = reaisToCents(query.max_price);
    const sizeNames = (query.sizes ?? '')
      .split(',')
      .map((s) => s.trim().toLocaleLowerCase('pt-BR'))
      .filter(Boolean);
    if (sizeNames.length) filters.sizeNames = sizeNames;
    return toWire(deps.db, await findProducts(deps.db, filters), now);
  }

  /** Weight and package size of the given products (for the shipping quote); unknown ids are left out. */
  async function findProductPackages(ids: number[], db: Conn = deps.db): Promise<ProductPackage[]> {
    if (!ids.length) return [];
    return (await findProductsByIds(db, ids)).map(toPackage);
  }

  /** Inserts products with their images and stock in three batched statements; answers the new ids. */
  async function createProducts(items: NewCatalogProduct[], db: Conn = deps.db): Promise<number[]> {
    for (const item of items) {
      if (item.imageUrls.length > MAX_PRODUCT_IMAGES) {
        throw new Error(`${item.name}: no máximo ${MAX_PRODUCT_IMAGES} imagens`);
      }
    }
    // Featured products join the end of the home page's list, in the order given.
    let homePosition = items.some((i) => i.showOnHome) ? await nextHomePosition(db) : 0;
    const ids = await insertProducts(
      db,
      items.map((item) => ({
        name: item.name,
        description: item.description,
        priceCents: item.priceCents,
        category: item.category,
        showOnHome: item.showOnHome,
        homePosition: item.showOnHome ? homePosition++ : null,
        searchText: toSearchText(item.name, item.description),
        rating: item.ratingTenths,
        weightGrams: item.weightGrams,
        lengthCm: item.lengthCm,
        widthCm: item.widthCm,
        heightCm: item.heightCm,
      })),
    );
    const pairs = items.map((item, i) => ({ item, productId: ids[i]! }));
    await insertImages(
      db,
      pairs.flatMap(({ item, productId }) =>
        item.imageUrls.map((url, i) => ({ productId, position: i + 1, url })),
      ),
    );
    await insertStock(
      db,
      pairs.flatMap(({ item, productId }) => item.stock.map((s) => ({ productId, ...s }))),
    );
    return ids;
  }

  /**
   * Holds the units of a charge in the caller's transaction; throws 409 naming the first line short of
   * stock (the throw rolls back the lines already taken and the charge itself). Each line taken is a
   * `reserva` movement of the charge (docs/decisions/0033-stock-ledger-and-daily-orders.md).
   */
  async function reserveStock(tx: Tx, chargeId: number, lines: Array<StockLine & { label: string }>) {
    const held: Array<StockLine & { quantityAfter: number }> = [];
    for (const line of [...lines].sort(byCombo)) {
      const after = await takeStock(tx, line);
      if (after !== undefined) {
        const { productId, colorId, sizeId, quantity } = line;
        held.push({ productId, colorId, sizeId, quantity, quantityAfter: after });
        continue;
      }
      const current = await getProduct(line.productId, { color: line.colorId, size: line.sizeId }, tx);
      const left = current.stock[0]?.quantity ?? 0;
      throw conflict(`Estoque insuficiente para ${line.label}: restam ${left}.`, 'estoque_insuficiente');
    }
    // The reservations and their `reserva` movements in one statement.
    await insertHold(tx, chargeId, held);
  }

  /** Puts units back and writes their movements, in lock order. */
  async function giveBack(tx: Tx, lines: StockLine[], why: StockReturn & { chargeId: number }) {
    const movements: NewStockMovement[] = [];
    for (const line of [...lines].sort(byCombo)) {
      const after = await giveBackStock(tx, line);
      if (after !== undefined) movements.push(movement(line, line.quantity, after, why));
    }
    await insertStockMovements(tx, movements);
  }

  /**
   * Gives back what the charge still holds, once; a second call finds nothing left. `why` says what
   * the movements are: `liberacao` (expired, refused, failed: the default), `cancelamento` or
   * `devolucao` (units of a sale coming back, with its order).
   */
  async function releaseStock(
    tx: Tx,
    chargeId: number,
    now: Date,
    why: StockReturn = { reason: 'liberacao' },
  ) {
    await giveBack(tx, await releaseReservations(tx, chargeId, now), { ...why, chargeId });
  }

  /**
   * Returns part of a sale to the shelf (a customer's return): the units come off what the charge
   * holds, so a later cancellation does not give them back twice, and go back to stock as `devolucao`
   * (or `cancelamento`) movements. 409 when the charge holds fewer units of a line.
   */
  async function restock(
    tx: Tx,
    chargeId: number,
    lines: StockLine[],
    now: Date,
    why: StockReturn,
    /** False for a damaged return: only the charge's hold shrinks, the shelf gets nothing. */
    toShelf = true,
  ) {
    for (const line of [...lines].sort(byCombo)) {
      if (!(await shrinkReservation(tx, chargeId, line, now)))
        throw conflict('Este pedido não tem essa quantidade para devolver ao estoque.', 'devolucao_excede');
    }
    if (toShelf) await giveBack(tx, lines, { ...why, chargeId });
  }

  /**
   * Takes units off the shelf for an exchange (docs/decisions/0040), in the caller's transaction: one
   * conditional statement per combination, so two buyers after the last unit never both get it (409 for
   * the one short). Each line is a `troca_reserva` movement of the order.
   */
  async function holdForExchange(
    tx: Tx,
    orderId: number,
    lines: Array<StockLine & { label: string }>,
    note: string,
  ) {
    const movements: NewStockMovement[] = [];
    for (const line of [...lines].sort(byCombo)) {
      const after = await takeStock(tx, line);
      if (after === undefined) {
        const current = await getProduct(line.productId, { color: line.colorId, size: line.sizeId }, tx);
        const left = current.stock[0]?.quantity ?? 0;
        throw conflict(`Estoque insuficiente para ${line.label}: restam ${left}.`, 'estoque_insuficiente');
      }
      movements.push(movement(line, -line.quantity, after, { reason: 'troca_reserva', orderId, note }));
    }
    await insertStockMovements(tx, movements);
  }

  /** Puts an exchange's held units back on the shelf (refused, lapsed): `troca_liberacao` movements. */
  async function releaseExchangeHold(tx: Tx, orderId: number, lines: StockLine[], note: string) {
    const movements: NewStockMovement[] = [];
    for (const line of [...lines].sort(byCombo)) {
      const after = await giveBackStock(tx, line);
      if (after !== undefined)
        movements.push(movement(line, line.quantity, after, { reason: 'troca_liberacao', orderId, note }));
    }
    await insertStockMovements(tx, movements);
  }

  /** The paid charge's hold becomes the order's sale: `venda` movements of 0 units, linked to it. */
  const confirmSale = (tx: Tx, chargeId: number, orderId: number) =>
    insertSaleMovements(tx, chargeId, orderId);

  /** The home page: its banners and every featured product the shop shows, in the order staff chose. */
  async function getHome(): Promise<Home> {
    const [banners, featured] = await Promise.all([
      listBanners(deps.db),
      findProducts(deps.db, { featured: true, visibleOnly: true }),
    ]);
    return {
      banners: banners.map((b) => ({ imagem: b.imageUrl, texto: b.text, link: b.link })),
      destaques: await toWire(deps.db, featured, clock()),
    };
  }

  /**
   * Every product page the shop shows (a hidden product's page answers 404, so it is left out), with
   * its category and when it last changed, for the sitemap.
   */
  async function listPageDates(): Promise<Array<{ id: number; category: ProductCategory; updatedAt: Date }>> {
    return (await findProducts(deps.db, { visibleOnly: true })).map((r) => ({
      id: r.id,
      category: r.category,
      updatedAt: r.updatedAt,
    }));
  }

  return {
    listProducts,
    getHome,
    listPageDates,
    getProduct,
    getCartProducts,
    getShopProduct,
    sizeGuide,
    searchProducts,
    findProductPackages,
    createProducts,
    reserveStock,
    releaseStock,
    restock,
    holdForExchange,
    releaseExchangeHold,
    confirmSale,
    admin: createCatalogAdmin({ db: deps.db, now: clock }),
  };
}

export type CatalogService = ReturnType<typeof createCatalogService>;
