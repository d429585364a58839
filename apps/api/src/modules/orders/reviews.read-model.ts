import type { PainelReview } from '@passada/core/contracts/reviews';
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { productReviews, products } from '../../db/schema/index.ts';

/** Review photos live in the media storage under `avaliacoes/`, served at this path by name. */
export const REVIEW_PHOTO_PATH = '/api/media/avaliacoes/';

/** A review photo's address from its media key, or null. */
export const reviewPhotoUrl = (key: string | null) =>
  key ? `${REVIEW_PHOTO_PATH}${key.slice('avaliacoes/'.length)}` : null;

/**
 * The back office's queue of reviews in one state, oldest first, each with its product's name (the
 * catalogue's table, a declared dependency; docs/decisions/0071).
 */
export async function reviewQueue(db: Db, status: PainelReview['estado']): Promise<PainelReview[]> {
  const rows = await db
    .select({ review: productReviews, product: products.name })
    .from(productReviews)
    .innerJoin(products, eq(products.id, productReviews.productId))
    .where(eq(productReviews.status, status))
    .orderBy(asc(productReviews.createdAt), asc(productReviews.id))
    .limit(200);
  return rows.map(({ review: r, product }) => ({
    id: r.id,
    produto_id: r.productId,
    produto: product,
    autor: r.authorName,
    estrelas: r.stars,
    texto: r.text,
    caimento: r.fit,
    estado: r.status,
    motivo: r.hiddenReason,
    foto: reviewPhotoUrl(r.photoKey),
    criada_em: r.createdAt.toISOString(),
  }));
}
