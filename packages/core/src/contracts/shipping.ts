import { z } from '../zod.ts';
import { IdSchema } from './common.ts';

export const ShippingItemSchema = z.object({
  product: IdSchema,
  quantity: z.number().int().min(1).max(999),
});
export type ShippingItem = z.infer<typeof ShippingItemSchema>;

/**
 * `POST /api/calcular-frete/`: the cart items are optional; without them one typical package is priced.
 * The CEP is checked by the server (so an empty or missing one gets the spec's 'Digite um CEP válido!').
 */
export const ShippingQuoteRequestSchema = z.object({
  cepDestino: z.string().optional(),
  items: z.array(ShippingItemSchema).max(100).optional(),
});
export type ShippingQuoteRequest = z.infer<typeof ShippingQuoteRequestSchema>;

/** The spec's quote: prices as strings with a decimal comma ("23,45"), latest dates as yyyy-MM-dd. */
export const ShippingQuoteSchema = z.object({
  precoFinalPAC: z.string(),
  prazoEntregaPAC: z.number().int(),
  dataMaximaPAC: z.string(),
  precoFinalSEDEX: z.string(),
  prazoEntregaSEDEX: z.number().int(),
  dataMaximaSEDEX: z.string(),
});
export type ShippingQuote = z.infer<typeof ShippingQuoteSchema>;

/** The message the spec shows for a missing CEP; the server uses it for every unusable one. */
export const INVALID_CEP_MESSAGE = 'Digite um CEP válido!';
