import { z } from 'zod';

export const ShippingItemSchema = z.object({
  product: z.number().int().positive(),
  quantity: z.number().int().min(1).max(999),
});

/** `POST /api/calcular-frete/`: the cart items are optional; without them one product's weight is used. */
export const ShippingQuoteRequestSchema = z.object({
  cepDestino: z.string().max(20),
  items: z.array(ShippingItemSchema).max(100).optional(),
});
export type ShippingQuoteRequest = z.infer<typeof ShippingQuoteRequestSchema>;

/** The spec's quote: prices as strings with a decimal comma, latest dates as yyyy-MM-dd. */
export const ShippingQuoteSchema = z.object({
  precoFinalPAC: z.string(),
  prazoEntregaPAC: z.number().int(),
  dataMaximaPAC: z.string(),
  precoFinalSEDEX: z.string(),
  prazoEntregaSEDEX: z.number().int(),
  dataMaximaSEDEX: z.string(),
});
export type ShippingQuote = z.infer<typeof ShippingQuoteSchema>;
