import { z } from '../zod.ts';
import { PaymentMethodSchema } from './orders.ts';

/**
 * The back office's reports (`GET /api/painel/relatorios/…`, permission `relatorios`): each event's
 * money and registrations, summed on the server in centavos and answered in reais
 * (docs/decisions/0039-reports-and-packing-slip.md). `liquido` is always `bruto - devolvido`.
 */
const Money = {
  /** Registrations made, cancelled ones included (their money came in). */
  inscricoes: z.number().int(),
  /** Of those, cancelled by the shop (their money went back). */
  canceladas: z.number().int(),
  /** What buyers paid, net of coupons, with what transfers and changes of distance paid. */
  bruto: z.number(),
  /** What went back to them (every partial refund of a registration, a transfer or a change added up). */
  devolvido: z.number(),
  liquido: z.number(),
};

export const EventMoneySchema = z.object({
  evento_id: z.number().int(),
  evento: z.string(),
  /** The event's first day (aaaa-mm-dd). */
  data: z.string(),
  ...Money,
});
export type EventMoney = z.infer<typeof EventMoneySchema>;

export const EventMoneyListSchema = z.array(EventMoneySchema);

export const EventReportSchema = EventMoneySchema.extend({
  /** What coupons took off the registrations (already out of `bruto`). */
  descontos: z.number(),
  /**
   * What transfers and dearer changes of distance paid on their own charges (fees and price
   * differences, docs/decisions/0041 and 0047), already in `bruto`.
   */
  pos_venda: z.number(),
  /**
   * What teams' captains (or their companies) paid for places their members claim (docs/decisions/0073,
   * 0079), already in `bruto`; a purchase's refund at its close is in `devolvido`.
   */
  vagas_equipe: z.number().default(0),
  por_metodo: z.array(z.object({ metodo: PaymentMethodSchema, ...Money })),
  /**
   * Categories sold per lot (`lote` null: the category's own price, no lot in force): what their
   * registrations brought in before coupons (a changed distance counts in the new category at what it
   * was sold for). Their `valor` summed, less `descontos`, plus `pos_venda` and `vagas_equipe`, is `bruto`.
   */
  por_lote: z.array(
    z.object({
      categoria: z.string(),
      lote: z.string().nullable(),
      inscricoes: z.number().int(),
      canceladas: z.number().int(),
      valor: z.number(),
    }),
  ),
  /**
   * The same races per price (docs/decisions/0068): each special price's rule (`regra_id`), the 60+ half
   * price and the lot's price (`regra_id` null); their `valor` summed is `por_lote`'s.
   */
  por_regra: z.array(
    z.object({
      regra: z.string(),
      regra_id: z.number().int().nullable(),
      inscricoes: z.number().int(),
      canceladas: z.number().int(),
      valor: z.number(),
    }),
  ),
  /** Registrations per store calendar day of their creation, every day from the first to the last. */
  por_dia: z.array(z.object({ dia: z.string(), inscricoes: z.number().int(), canceladas: z.number().int() })),
  /**
   * Kits handed out (docs/decisions/0063, later): by the runner or by the person they authorised, and
   * the event's item to bring: how many brought it and how much in all (in the item's unit).
   */
  retiradas: z
    .object({
      total: z.number().int(),
      titular: z.number().int(),
      autorizado: z.number().int(),
      /** With the team's kits, by the team's collector (docs/decisions/0067, later). */
      equipe: z.number().int(),
      trouxeram_item: z.number().int(),
      item_total: z.number(),
    })
    .optional(),
});
export type EventReport = z.infer<typeof EventReportSchema>;
