import type { AfterSaleRules } from '../after-sale.ts';
import { centsToReais, reaisToCents } from '../money.ts';
import { z } from '../zod.ts';
import { EditVersionSchema } from './painel.ts';

/**
 * The organiser's after-sale rules on the wire (docs/decisions/0035-runner-after-sale.md), and what a
 * runner sees and sends to cancel their registration. Money in reais, days aaaa-mm-dd.
 */

const Day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use aaaa-mm-dd.')
  .nullable();
const Fee = (what: string) =>
  z
    .number({ error: `Informe a ${what} (0 para nenhuma).` })
    .min(0, 'Valor inválido.')
    .max(10_000);

export const AfterSaleRulesSchema = z.object({
  cancelamento_horas_minimas: z
    .number({ error: 'Informe as horas mínimas antes da largada.' })
    .int('Use horas inteiras.')
    .min(0, 'Use 0 ou mais horas.')
    .max(720, 'No máximo 720 horas (30 dias).'),
  cancelamento_apos_prazo: z.enum(['nao', 'taxa', 'percentual'], {
    error: 'Escolha o que vale depois do prazo de arrependimento.',
  }),
  cancelamento_taxa: Fee('taxa de cancelamento'),
  cancelamento_percentual_retido: z
    .number({ error: 'Informe o percentual retido.' })
    .int('Use um percentual inteiro.')
    .min(0, 'Use de 0 a 100.')
    .max(100, 'Use de 0 a 100.'),
  transferencia_permitida: z.boolean(),
  transferencia_ate: Day,
  transferencia_taxa: Fee('taxa de transferência'),
  troca_distancia_permitida: z.boolean(),
  troca_distancia_ate: Day,
  troca_distancia_taxa: Fee('taxa de troca de distância'),
  troca_distancia_devolve_diferenca: z.boolean(),
  troca_tamanho_permitida: z.boolean(),
  troca_tamanho_ate: Day,
  lista_espera_horas_oferta: z
    .number({ error: 'Informe por quantas horas a vaga fica reservada.' })
    .int('Use horas inteiras.')
    .min(1, 'Use de 1 a 168 horas.')
    .max(168, 'Use de 1 a 168 horas.'),
});
export type AfterSaleRulesWire = z.infer<typeof AfterSaleRulesSchema>;

/** The back office's read (with the version the form sends back) and its save. */
export const PainelAfterSaleSchema = AfterSaleRulesSchema.extend({
  versao: z.number().int(),
  /** The rules as the runner reads them on the event's pages. */
  texto: z.array(z.string()),
});
export type PainelAfterSale = z.infer<typeof PainelAfterSaleSchema>;
export const AfterSaleSaveSchema = AfterSaleRulesSchema.extend({ versao: EditVersionSchema });
export type AfterSaleSave = z.infer<typeof AfterSaleSaveSchema>;

/** GET /api/events/{id}/pos-venda/: the rules in plain Portuguese for the regulation and registration pages. */
export const PublicAfterSaleSchema = z.object({ texto: z.array(z.string()) });

/** GET /api/inscricoes/{id}/cancelamento/: what cancelling returns now, before the runner confirms. */
export const CancellationQuoteSchema = z.object({
  permitido: z.boolean(),
  /** Why not, in Portuguese; null when allowed. */
  motivo: z.string().nullable(),
  valor_pago: z.number(),
  valor_devolvido: z.number(),
  valor_retido: z.number(),
  /** Within the 7 days of the consumer code's right of withdrawal. */
  arrependimento: z.boolean(),
});
export type CancellationQuoteWire = z.infer<typeof CancellationQuoteSchema>;

/** POST /api/inscricoes/{id}/cancelar/: the amount the runner saw; a different one is refused (409). */
export const RunnerCancelSchema = z.object({
  valor_devolvido: z.number({ error: 'Confirme o valor a devolver.' }).min(0),
});

export function rulesToWire(r: AfterSaleRules): AfterSaleRulesWire {
  return {
    cancelamento_horas_minimas: r.cancelMinHours,
    cancelamento_apos_prazo: r.cancelAfterWindow,
    cancelamento_taxa: centsToReais(r.cancelFeeCents),
    cancelamento_percentual_retido: r.cancelKeptPercent,
    transferencia_permitida: r.transferAllowed,
    transferencia_ate: r.transferUntil,
    transferencia_taxa: centsToReais(r.transferFeeCents),
    troca_distancia_permitida: r.categoryChangeAllowed,
    troca_distancia_ate: r.categoryChangeUntil,
    troca_distancia_taxa: centsToReais(r.categoryChangeFeeCents),
    troca_distancia_devolve_diferenca: r.categoryChangeRefundsDifference,
    troca_tamanho_permitida: r.sizeChangeAllowed,
    troca_tamanho_ate: r.sizeChangeUntil,
    lista_espera_horas_oferta: r.waitlistOfferHours,
  };
}

export function rulesFromWire(w: AfterSaleRulesWire): AfterSaleRules {
  return {
    cancelMinHours: w.cancelamento_horas_minimas,
    cancelAfterWindow: w.cancelamento_apos_prazo,
    cancelFeeCents: reaisToCents(w.cancelamento_taxa),
    cancelKeptPercent: w.cancelamento_percentual_retido,
    transferAllowed: w.transferencia_permitida,
    transferUntil: w.transferencia_ate,
    transferFeeCents: reaisToCents(w.transferencia_taxa),
    categoryChangeAllowed: w.troca_distancia_permitida,
    categoryChangeUntil: w.troca_distancia_ate,
    categoryChangeFeeCents: reaisToCents(w.troca_distancia_taxa),
    categoryChangeRefundsDifference: w.troca_distancia_devolve_diferenca,
    sizeChangeAllowed: w.troca_tamanho_permitida,
    sizeChangeUntil: w.troca_tamanho_ate,
    waitlistOfferHours: w.lista_espera_horas_oferta,
  };
}
