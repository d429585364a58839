import { randomBytes } from 'node:crypto';
import { dateInTimeZone, STORE_TIME_ZONE } from '@passada/core/calendar';
import type {
  MyReviews,
  PainelReview,
  ProductReviews,
  ReviewInput,
  ReviewModeration,
} from '@passada/core/contracts/reviews';
import { and, avg, count, desc, eq, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client.ts';
import { orderItems, orderReturnItems, orderReturns, orders, productReviews } from '../../db/schema/index.ts';
import { conflict, HttpError, notFound } from '../../plugins/errors.ts';
import { documentImage } from '../../plugins/uploaded-images.ts';
import type { MediaStorage } from '../../providers/storage/storage.provider.ts';
import { deliveredOn } from './returns.repository.ts';
import { reviewPhotoUrl as photoUrl, reviewQueue } from './reviews.read-model.ts';

const PAGE_SIZE = 10;

/** A review photo's width: what the product page shows, full width on a phone. */
const REVIEW_PHOTO_WIDTH = 800;
const REVIEW_PHOTO_FILE = /^[a-z0-9]{24}\.webp$/;

/** The first name only: a review never shows who bought it beyond that. */
const firstName = (fullName: string) => fullName.trim().split(/\s+/)[0] || 'Cliente';

/**
 * Verified reviews (docs/decisions/0071): the buyer of a delivered line that was not sent back reviews it
 * once; staff publish or hide it; the published ones make the product's average (the catalogue's rating,
 * set through its admin) and answer how it fits.
 */
export function createReviews(deps: {
  db: Db;
  now: () => Date;
  /** The catalogue's rating of a product, in tenths of a star (the average of its published reviews). */
  setRating: (tx: Tx, productId: number, tenths: number | null) => Promise<void>;
  /** Where review photos are kept (the media storage, public like the shop's other images). */
  storage: MediaStorage;
  /** PHOTO_MAX_PIXELS. */
  maxPixels: number;
  log: FastifyBaseLogger;
}) {
  const forget = (keys: string[]) =>
    keys.length
      ? deps.storage
          .delete(keys)
          .catch((err: unknown) => deps.log.warn({ err }, 'review photo left in the storage'))
      : Promise.resolve();

  /**
   * The buyer's optional photo for their review (decision 0071, later), while staff have not moderated
   * it: re-encoded as a WebP at most 800 px wide with no metadata (the header checked before decoding),
   * stored under a new name; a second photo replaces the first. Answers the photo's address.
   */
  async function attachPhoto(userId: number, reviewId: number, buffer: Buffer): Promise<{ foto: string }> {
    const body = await documentImage(buffer, deps.maxPixels, REVIEW_PHOTO_WIDTH);
    const key = `avaliacoes/${randomBytes(12).toString('hex')}.webp`;
    await deps.storage.put(key, body, 'image/webp').catch((err: unknown) => {
      deps.log.error({ err }, 'media storage write failed');
      throw new HttpError(
        502,
        'Não foi possível guardar a foto agora. Tente de novo em instantes.',
        'armazenamento_indisponivel',
      );
    });
    let replaced: string | null = null;
    try {
      await deps.db.transaction(async (tx) => {
        const [row] = await tx
          .select({ status: productReviews.status, photoKey: productReviews.photoKey })
          .from(productReviews)
          .where(and(eq(productReviews.id, reviewId), eq(productReviews.userId, userId)))
          .for('update');
        if (!row) throw notFound('Avaliação não encontrada.');
        if (row.status !== 'pendente')
          throw conflict('Esta avaliação já foi moderada: a foto não muda mais.', 'avaliacao_moderada');
        replaced = row.photoKey;
        await tx.update(productReviews).set({ photoKey: key }).where(eq(productReviews.id, reviewId));
      });
    } catch (err) {
      await forget([key]);
      throw err;
    }
    if (replaced) await forget([replaced]);
    return { foto: photoUrl(key)! };
  }

  /** A review photo's key by its file name, while its review is pending or published (a hidden one is not shown). */
  async function shownPhoto(file: string): Promise<string | null> {
    if (!REVIEW_PHOTO_FILE.test(file)) return null;
    const key = `avaliacoes/${file}`;
    const [row] = await deps.db
      .select({ id: productReviews.id })
      .from(productReviews)
      .where(and(eq(productReviews.photoKey, key), ne(productReviews.status, 'oculta')));
    return row ? key : null;
  }

  /** An erased account's review photos (decision 0061): the rows forget them, the files go. */
  async function forgetPhotos(tx: Tx, userId: number): Promise<void> {
    const theirs = and(eq(productReviews.userId, userId), isNotNull(productReviews.photoKey));
    const rows = await tx.select({ key: productReviews.photoKey }).from(productReviews).where(theirs);
    await tx.update(productReviews).set({ photoKey: null }).where(theirs);
    await forget(rows.flatMap((r) => (r.key ? [r.key] : [])));
  }

  async function create(user: { id: number; fullName: string }, input: ReviewInput) {
    return deps.db.transaction(async (tx) => {
      const [line] = await tx
        .select({ productId: orderItems.productId, orderId: orderItems.orderId })
        .from(orderItems)
        .innerJoin(orders, eq(orders.id, orderItems.orderId))
        .where(and(eq(orderItems.id, input.item_id), eq(orders.userId, user.id)));
      if (!line) throw notFound('Este item não está nos seus pedidos.');
      // Delivered as the after-sale deadlines read it: a recorded delivery, or staff's `entregue`.
      if ((await deliveredOn(tx, line.orderId)).at === null)
        throw conflict('Dá para avaliar depois que o pedido for entregue.', 'nao_entregue');
      // A line sent back (or being sent back) is not the buyer's to review: only who kept the piece does.
      const [back] = await tx
        .select({ id: orderReturns.id })
        .from(orderReturnItems)
        .innerJoin(orderReturns, eq(orderReturns.id, orderReturnItems.returnId))
        .where(
          and(
            eq(orderReturnItems.orderItemId, input.item_id),
            inArray(orderReturns.kind, ['devolucao', 'desistencia']),
            ne(orderReturns.status, 'recusada'),
          ),
        )
        .limit(1);
      if (back)
        throw conflict('Este item foi devolvido: só quem ficou com a peça pode avaliá-la.', 'item_devolvido');
      const [row] = await tx
        .insert(productReviews)
        .values({
          orderItemId: input.item_id,
          productId: line.productId,
          userId: user.id,
          authorName: firstName(user.fullName),
          stars: input.estrelas,
          text: input.texto ?? '',
          fit: input.caimento ?? null,
          createdAt: deps.now(),
        })
        .onConflictDoNothing()
        .returning({ id: productReviews.id });
      if (!row) throw conflict('Você já avaliou este item.', 'ja_avaliado');
      return { id: row.id, estado: 'pendente' as const };
    });
  }

  /** The account's reviews by order line, for "Meus pedidos". */
  async function mine(userId: number): Promise<MyReviews> {
    const rows = await deps.db
      .select({ item: productReviews.orderItemId, status: productReviews.status })
      .from(productReviews)
      .where(eq(productReviews.userId, userId));
    return rows.map((r) => ({ item_id: r.item, estado: r.status }));
  }

  /** The average (one decimal) and count of a product's published reviews; null average without any. */
  async function summary(db: Db | Tx, productId: number) {
    const [row] = await db
      .select({ avg: avg(productReviews.stars), n: count() })
      .from(productReviews)
      .where(and(eq(productReviews.productId, productId), eq(productReviews.status, 'publicada')));
    const n = Number(row?.n ?? 0);
    return { average: n ? Math.round(Number(row!.avg) * 10) / 10 : null, count: n };
  }

  async function ofProduct(productId: number, page: number): Promise<ProductReviews> {
    const published = and(eq(productReviews.productId, productId), eq(productReviews.status, 'publicada'));
    const { average, count: total } = await summary(deps.db, productId);
    const fits = await deps.db
      .select({ fit: productReviews.fit, n: count() })
      .from(productReviews)
      .where(published)
      .groupBy(productReviews.fit);
    const rows = await deps.db
      .select()
      .from(productReviews)
      .where(published)
      .orderBy(desc(productReviews.createdAt), desc(productReviews.id))
      .limit(PAGE_SIZE)
      .offset((page - 1) * PAGE_SIZE);
    const fit = (k: 'pequeno' | 'no_tamanho' | 'grande') => Number(fits.find((f) => f.fit === k)?.n ?? 0);
    return {
      media: average,
      total,
      caimento: { pequeno: fit('pequeno'), no_tamanho: fit('no_tamanho'), grande: fit('grande') },
      avaliacoes: rows.map((r) => ({
        id: r.id,
        autor: r.authorName,
        estrelas: r.stars,
        texto: r.text,
        caimento: r.fit,
        data: dateInTimeZone(r.createdAt, STORE_TIME_ZONE),
        foto: photoUrl(r.photoKey),
      })),
      page,
      pages: Math.max(1, Math.ceil(total / PAGE_SIZE)),
    };
  }

  /** The back office's queue: reviews in one state, oldest first (a report beside the product's name). */
  const painelList = (status: PainelReview['estado']) => reviewQueue(deps.db, status);

  /** Publishes or hides a review (a published one may be hidden later), and moves the product's rating. */
  async function moderate(tx: Tx, id: number, action: ReviewModeration) {
    const [found] = await tx
      .select({ productId: productReviews.productId })
      .from(productReviews)
      .where(eq(productReviews.id, id));
    if (!found) throw notFound('Avaliação não encontrada.');
    // One moderation of a product at a time: the average read after the change includes every other one.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('avaliacoes'), ${found.productId})`);
    const [row] = await tx
      .update(productReviews)
      .set(
        action.acao === 'publicar'
          ? { status: 'publicada', hiddenReason: null, moderatedAt: deps.now() }
          : { status: 'oculta', hiddenReason: action.motivo, moderatedAt: deps.now() },
      )
      .where(eq(productReviews.id, id))
      .returning({ productId: productReviews.productId, status: productReviews.status });
    const { average } = await summary(tx, found.productId);
    // With none published, the rating stays as it was (a product from before reviews keeps its own); the
    // product's page changes either way (its reviews, its structured data).
    await deps.setRating(tx, found.productId, average === null ? null : Math.round(average * 10));
    return row!;
  }

  return {
    create,
    attachPhoto,
    shownPhoto,
    forgetPhotos,
    mine,
    ofProduct,
    summary: (productId: number) => summary(deps.db, productId),
    painelList,
    moderate,
  };
}

export type Reviews = ReturnType<typeof createReviews>;
