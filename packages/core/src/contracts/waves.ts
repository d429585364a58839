import { parseEstimatedTime } from '../waves.ts';
import { z } from '../zod.ts';

/** Waves (ondas de largada) on the wire (docs/decisions/0066). */

/** GET /api/events/{id}/ondas/: each race's waves, fastest first, for the registration form. */
export const EventWavesSchema = z.array(
  z.object({
    categoria_id: z.number().int(),
    ondas: z.array(
      z.object({
        nome: z.string(),
        /** The estimate's upper bound (`h:mm`), null on the last wave. */
        ate: z.string().nullable(),
      }),
    ),
  }),
);
export type EventWaves = z.infer<typeof EventWavesSchema>;

const BoundSchema = z
  .string()
  .max(8)
  .refine((v) => parseEstimatedTime(v) !== null, 'Informe o tempo limite como h:mm (por exemplo 0:50).');

/** PUT /api/painel/events/{id}/categorias/{categoria}/ondas/: a category's waves, in order. */
export const WavesBodySchema = z.object({
  ondas: z
    .array(
      z.object({
        /** A wave saved before (its runners stay in it); absent for a new one. */
        id: z.number().int().positive().optional(),
        nome: z.string().trim().min(1, 'Dê um nome à onda.').max(40, 'Use no máximo 40 caracteres.'),
        ate: BoundSchema.nullable(),
        capacidade: z.number().int().min(1, 'O limite de vagas é ao menos 1.').max(100_000).nullable(),
      }),
    )
    .max(20, 'No máximo 20 ondas por categoria.'),
});
export type WavesBody = z.input<typeof WavesBodySchema>;

/** The back office's view of an event's waves: caps and how many each holds. */
export const PainelWavesSchema = z.array(
  z.object({
    categoria_id: z.number().int(),
    categoria: z.string(),
    ondas: z.array(
      z.object({
        id: z.number().int(),
        nome: z.string(),
        ate: z.string().nullable(),
        capacidade: z.number().int().nullable(),
        ocupadas: z.number().int(),
      }),
    ),
  }),
);
export type PainelWaves = z.infer<typeof PainelWavesSchema>;

/** `POST /api/painel/events/:id/categorias/:categoria/ondas/distribuir/`: how many got a wave, and the waves after. */
export const WavesGivenSchema = z.object({
  atribuidas: z.number().int(),
  categorias: PainelWavesSchema,
});
export type WavesGiven = z.infer<typeof WavesGivenSchema>;
