import { z } from 'zod';
import { PhoneSchema } from './accounts.ts';
import { IdSchema } from './common.ts';

/**
 * A signed-in buyer's cart kept on the server and the reminders of carts and registrations left
 * unpaid (docs/decisions/0072).
 */

/** A line as the browser sends it: only what identifies it; prices and names come from the catalogue. */
export const CartItemSchema = z.object({
  produto: IdSchema,
  cor: IdSchema,
  tamanho: IdSchema,
  quantidade: z.number().int().min(1, 'A quantidade mínima é 1.').max(99, 'No máximo 99 unidades por item.'),
});
export type CartItem = z.infer<typeof CartItemSchema>;

/** `PUT /api/carrinho/` (the whole cart) and `POST /api/carrinho/mesclar/` (the browser's, on signing in). */
export const CartSaveSchema = z.object({ itens: z.array(CartItemSchema).max(200) });

/**
 * A line rebuilt from today's catalogue, in the browser's cart shape (price in reais), with the units
 * on sale now: a line whose product left the shop is not answered.
 */
export const ServerCartLineSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  price: z.number(),
  image: z.string(),
  quantity: z.number().int(),
  size: z.number().int(),
  color: z.number().int(),
  product_size: z.string(),
  product_color: z.string(),
  disponivel: z.number().int().min(0),
});
export type ServerCartLine = z.infer<typeof ServerCartLineSchema>;

export const ServerCartSchema = z.object({
  itens: z.array(ServerCartLineSchema),
  /** Whether this account takes the reminder of a cart or a registration left unpaid. */
  lembretes: z.boolean(),
  /** The number the reminder also goes to by WhatsApp, when the account asked (decision 0084). */
  whatsapp: z.string().nullable().default(null),
});
export type ServerCart = z.infer<typeof ServerCartSchema>;

/** `PUT /api/carrinho/lembretes/`: the account's choice. */
export const CartRemindersSchema = z.object({ ativos: z.boolean() });

/**
 * `PUT /api/carrinho/lembretes/whatsapp/`: the reminder by WhatsApp too, to this number (the account's own
 * opt-in, decision 0084), or null to stop it.
 */
export const CartRemindersWhatsAppSchema = z.object({ telefone: PhoneSchema.nullable() });

/** `POST /api/carrinho/lembretes/descadastrar/`: the e-mail's one-click link, no sign-in. */
export const CartRemindersOptOutSchema = z.object({ token: z.string().min(10).max(200) });

/** The back office's settings of the reminders, with what they did in the last 30 days. */
export const RecoverySettingsSchema = z.object({
  ativa: z.boolean(),
  atraso_minutos: z
    .number()
    .int()
    .min(15, 'O lembrete sai no mínimo 15 minutos depois.')
    .max(2880, 'O lembrete sai no máximo 48 horas depois.'),
  lockVersion: z.number().int(),
});
export type RecoverySettings = z.infer<typeof RecoverySettingsSchema>;

export const RecoveryPanelSchema = RecoverySettingsSchema.extend({
  ultimos_30_dias: z.object({
    lembretes_carrinho: z.number().int(),
    lembretes_inscricao: z.number().int(),
    /** Reminded accounts that bought (an order or a registration) after the reminder. */
    compras_depois: z.number().int(),
  }),
});
export type RecoveryPanel = z.infer<typeof RecoveryPanelSchema>;
