import { z } from '../zod.ts';

/** Every API error body (docs/architecture.md §3). */
export const ApiErrorSchema = z.object({
  detail: z.string(),
  code: z.string().optional(),
  errors: z.record(z.string(), z.string()).optional(),
});
export type ApiError = z.infer<typeof ApiErrorSchema>;

/** PostgreSQL's `integer`: every id column is one, so a bigger number can name nothing. */
export const INT4_MAX = 2_147_483_647;

export const INVALID_ID = 'Identificador inválido.';

/**
 * A database id in a JSON body: a whole number from 1 to INT4_MAX. Used for every id the API takes,
 * so no id out of the column's range ever reaches a query (it would fail there, not here).
 */
export const IdSchema = z
  .number({ error: INVALID_ID })
  .int(INVALID_ID)
  .positive(INVALID_ID)
  .max(INT4_MAX, INVALID_ID);

/**
 * The same id written in a path or a query string: plain digits only, so "1e3", "-1", "1.5", "0x1f"
 * and " 1" are refused rather than read as some other number.
 */
export const IdTextSchema = z
  .string({ error: INVALID_ID })
  .regex(/^[1-9]\d{0,9}$/, INVALID_ID)
  .transform(Number)
  .pipe(IdSchema);

/** Path parameter that must be an id. */
export const IdParamSchema = z.object({ id: IdTextSchema });

/** A page number in a query string, bounded so an offset computed from it stays a sane integer. */
export const PageTextSchema = z
  .string({ error: 'Página inválida.' })
  .regex(/^[1-9]\d{0,5}$/, 'Página inválida.')
  .transform(Number);
