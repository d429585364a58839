import { z } from '../zod.ts';

/** Every API error body (docs/architecture.md §3). */
export const ApiErrorSchema = z.object({
  detail: z.string(),
  code: z.string().optional(),
  errors: z.record(z.string(), z.string()).optional(),
});
export type ApiError = z.infer<typeof ApiErrorSchema>;

/** Path parameter that must be a positive integer id. */
export const IdParamSchema = z.object({ id: z.coerce.number().int().positive() });
