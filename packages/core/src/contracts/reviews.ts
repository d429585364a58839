import { z } from '../zod.ts';
import { IdSchema, PageTextSchema } from './common.ts';

/** Verified reviews (docs/decisions/0071). */

export const REVIEW_FIT_LABEL = {
  pequeno: 'Ficou pequeno',
  no_tamanho: 'No tamanho',
  grande: 'Ficou grande',
} as const;
export type ReviewFit = keyof typeof REVIEW_FIT_LABEL;
const FitSchema = z.enum(['pequeno', 'no_tamanho', 'grande']);

export const REVIEW_STATUS_LABEL = {
  pendente: 'Aguardando',
  publicada: 'Publicada',
  oculta: 'Oculta',
} as const;
const StatusSchema = z.enum(['pendente', 'publicada', 'oculta']);

/** `POST /api/avaliacoes/`: a line of a delivered order of the account, reviewed once. */
export const ReviewInputSchema = z.object({
  item_id: IdSchema,
  estrelas: z
    .number({ error: 'Escolha de 1 a 5 estrelas.' })
    .int('Escolha de 1 a 5 estrelas.')
    .min(1, 'Escolha de 1 a 5 estrelas.')
    .max(5, 'Escolha de 1 a 5 estrelas.'),
  texto: z.string().trim().max(2000, 'No máximo 2.000 caracteres.').default(''),
  caimento: FitSchema.nullable().default(null),
});
export type ReviewInput = z.input<typeof ReviewInputSchema>;

/** A published review as the product page shows it: the first name only. */
export const ReviewSchema = z.object({
  id: z.number().int(),
  autor: z.string(),
  estrelas: z.number().int(),
  texto: z.string(),
  caimento: FitSchema.nullable(),
  /** The day it was written (aaaa-mm-dd, store calendar). */
  data: z.string(),
  /** The buyer's photo (a WebP at most 800 px wide), or null. */
  foto: z.string().nullable().default(null),
});
export type Review = z.infer<typeof ReviewSchema>;

/** `GET /api/products/{id}/avaliacoes/`: the published reviews, newest first, with their average. */
export const ProductReviewsSchema = z.object({
  media: z.number().nullable(),
  total: z.number().int(),
  caimento: z.object({ pequeno: z.number().int(), no_tamanho: z.number().int(), grande: z.number().int() }),
  avaliacoes: z.array(ReviewSchema),
  page: z.number().int(),
  pages: z.number().int(),
});
export type ProductReviews = z.infer<typeof ProductReviewsSchema>;

export const ReviewPageQuerySchema = z.object({ page: PageTextSchema.optional() });

/** What the account already reviewed (Meus pedidos): each order line and where its review stands. */
export const MyReviewsSchema = z.array(z.object({ item_id: z.number().int(), estado: StatusSchema }));
export type MyReviews = z.infer<typeof MyReviewsSchema>;

/** The back office's queue. */
export const PainelReviewSchema = z.object({
  id: z.number().int(),
  produto_id: z.number().int(),
  produto: z.string(),
  autor: z.string(),
  estrelas: z.number().int(),
  texto: z.string(),
  caimento: FitSchema.nullable(),
  estado: StatusSchema,
  motivo: z.string().nullable(),
  /** The buyer's photo, moderated with the review, or null. */
  foto: z.string().nullable().default(null),
  criada_em: z.string(),
});
export type PainelReview = z.infer<typeof PainelReviewSchema>;

export const PainelReviewQuerySchema = z.object({ estado: StatusSchema.default('pendente') });

/** Publishing, or hiding with the reason the reviewer's page keeps. */
export const ReviewModerationSchema = z.discriminatedUnion('acao', [
  z.object({ acao: z.literal('publicar') }),
  z.object({
    acao: z.literal('ocultar'),
    motivo: z.string().trim().min(3, 'Diga o motivo.').max(300),
  }),
]);
export type ReviewModeration = z.infer<typeof ReviewModerationSchema>;
