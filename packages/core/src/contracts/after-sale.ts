import type { AfterSaleRules } from '../after-sale.ts';
import { centsToReais, reaisToCents } from '../money.ts';
import { z } from '../zod.ts';
import { EmailSchema, FullNameSchema } from './accounts.ts';
import { EditVersionSchema } from './painel.ts';
import { BirthDateSchema, CpfSchema } from './registrations.ts';

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
  /** The categories of the event with a waitlist when sold out (ids); absent keeps none. */
  lista_espera_categorias: z
    .array(z.number().int().positive())
    .max(200)
    .refine((ids) => new Set(ids).size === ids.length, 'Categoria repetida.')
    .default([]),
  /** Pickup by someone the runner authorised (docs/decisions/0063, later). */
  retirada_terceiro_permitida: z.boolean().default(true),
  retirada_terceiro_recusa_meia_60: z.boolean().default(false),
  /** The item asked at pickup and its unit; null: none. Required only when `item_exigido`. */
  item_retirada: z.string().trim().max(120, 'Use no máximo 120 caracteres.').nullable().default(null),
  item_unidade: z.string().trim().max(10, 'Use no máximo 10 caracteres.').nullable().default(null),
  item_exigido: z.boolean().default(false),
  /** A team's prepaid places nobody claimed by the deadline: refunded to the captain, or back to sale. */
  equipe_vagas_nao_resgatadas: z.enum(['devolver', 'liberar']).default('devolver'),
  /** Team prices (docs/decisions/0074): from `min_membros` members of one team, `percentual` off the lot. */
  equipe_faixas: z
    .array(
      z.object({
        min_membros: z
          .number()
          .int('Informe um número inteiro.')
          .min(2, 'A partir de 2 membros.')
          .max(10_000),
        percentual: z.number().int('Informe um número inteiro.').min(1, 'De 1 a 90%.').max(90, 'De 1 a 90%.'),
      }),
    )
    .max(5, 'No máximo 5 faixas.')
    .refine(
      (tiers) => new Set(tiers.map((t) => t.min_membros)).size === tiers.length,
      'Cada faixa com um número de membros diferente.',
    )
    .default([]),
  /**
   * Referral links (docs/decisions/0086): after `indicacao_minimo` registrations paid through a runner's
   * link, `indicacao_percentual` of what they paid goes back to them; null: no referral.
   */
  indicacao_minimo: z
    .number()
    .int('Informe um número inteiro.')
    .min(1, 'De 1 a 100 inscrições.')
    .max(100, 'De 1 a 100 inscrições.')
    .nullable()
    .default(null),
  indicacao_percentual: z
    .number()
    .int('Informe um número inteiro.')
    .min(0, 'De 0 a 100%.')
    .max(100, 'De 0 a 100%.')
    .default(0),
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

/**
 * What a cancellation returns (before it runs) or returned (after), split by payer when part of the money
 * is someone else's (a transferred registration: the runner who held it before paid part of it): what
 * comes back to the current holder ("você") and what to whoever else paid for it. Absent when everything
 * is the holder's. The runner's quote and answer and the back office's registration page say the same.
 */
export const RefundByPayerSchema = z.object({
  devolvido_a_voce: z.number().optional(),
  devolvido_a_quem_pagou: z.number().optional(),
});
export type RefundByPayerWire = z.infer<typeof RefundByPayerSchema>;

/**
 * GET /api/inscricoes/{id}/cancelamento/: what cancelling returns now, before the runner confirms (and,
 * from POST …/cancelar/, what it returned), with its split by payer.
 */
export const CancellationQuoteSchema = RefundByPayerSchema.extend({
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
    lista_espera_categorias: r.waitlistCategoryIds,
    retirada_terceiro_permitida: r.delegationAllowed,
    retirada_terceiro_recusa_meia_60: r.delegationRefusedSeniorHalf,
    item_retirada: r.pickupItem,
    item_unidade: r.pickupItemUnit,
    item_exigido: r.pickupItemRequired,
    equipe_vagas_nao_resgatadas: r.teamUnclaimed,
    equipe_faixas: r.teamTiers.map((t) => ({ min_membros: t.minMembers, percentual: t.percent })),
    indicacao_minimo: r.referralMin,
    indicacao_percentual: r.referralPercent,
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
    waitlistCategoryIds: w.lista_espera_categorias,
    delegationAllowed: w.retirada_terceiro_permitida,
    delegationRefusedSeniorHalf: w.retirada_terceiro_recusa_meia_60,
    // An empty field asks nothing, and nothing asked cannot be required.
    pickupItem: w.item_retirada || null,
    pickupItemUnit: (w.item_retirada && w.item_unidade) || null,
    pickupItemRequired: w.item_retirada ? w.item_exigido : false,
    teamUnclaimed: w.equipe_vagas_nao_resgatadas,
    teamTiers: [...w.equipe_faixas]
      .sort((a, b) => a.min_membros - b.min_membros)
      .map((t) => ({ minMembers: t.min_membros, percent: t.percentual })),
    // No minimum, no referral: the percentage alone means nothing.
    referralMin: w.indicacao_percentual > 0 ? w.indicacao_minimo : null,
    referralPercent: w.indicacao_minimo ? w.indicacao_percentual : 0,
  };
}

/**
 * POST /api/inscricoes/{id}/transferir/ (and through the participant's link): the new runner as the
 * holder names them (docs/decisions/0041). They fill in the rest themselves.
 */
export const TransferRequestSchema = z.object({
  nome_completo: FullNameSchema,
  cpf: CpfSchema,
  email: EmailSchema,
});
export type TransferRequest = z.input<typeof TransferRequestSchema>;
export type TransferRequestBody = z.output<typeof TransferRequestSchema>;

/** `POST /api/painel/registrations/{id}/transferir/`: staff for the runner, saying how the runner asked. */
export const StaffTransferRequestSchema = TransferRequestSchema.extend({
  motivo: z
    .string({ error: 'Diga como a pessoa pediu a transferência.' })
    .trim()
    .min(3, 'Diga como a pessoa pediu a transferência.')
    .max(300, 'Use no máximo 300 caracteres.'),
});
export type StaffTransferRequest = z.input<typeof StaffTransferRequestSchema>;

/** A registration's transfer as its holder sees it (null fields when there is none pending). */
export const TransferStatusSchema = z.object({
  permitido: z.boolean(),
  /** Why not, in Portuguese; null when allowed. */
  motivo: z.string().nullable(),
  taxa: z.number(),
  /** The pending transfer, if any. */
  pendente: z
    .object({
      id: z.number().int(),
      nome_completo: z.string(),
      email: z.string(),
      expira_em: z.string(),
    })
    .nullable(),
});
export type TransferStatus = z.infer<typeof TransferStatusSchema>;

/** GET /api/transferencias/{token}/: what the new runner sees before filling in their data. */
export const TransferInviteSchema = z.object({
  status: z.enum(['pendente', 'concluida', 'cancelada', 'expirada']),
  inscricao: z.number().int(),
  evento: z.object({ id: z.number().int(), nome_evento: z.string() }),
  categoria_evento: z.array(z.number().int()),
  categorias: z.array(z.string()),
  tamanho_camisa: z.string().nullable(),
  /** The name and CPF the holder gave: the person completing it must be this one. */
  nome_completo: z.string(),
  cpf: z.string(),
  email: z.string(),
  de: z.string(),
  taxa: z.number(),
  expira_em: z.string(),
});
export type TransferInvite = z.infer<typeof TransferInviteSchema>;

/** GET /api/transferencias/{token}/preco/?data_nascimento=: the fee plus the 60+ difference. */
export const TransferPriceQuerySchema = z.object({ data_nascimento: BirthDateSchema });
export const TransferPriceSchema = z.object({
  taxa: z.number(),
  diferenca: z.number(),
  total: z.number(),
  meia_entrada: z.boolean(),
  /**
   * When a race was priced by a special price (docs/decisions/0068): that it stays with the runner who
   * had it, and the difference to the lot's price is in the total.
   */
  aviso: z.string().optional(),
});
export type TransferPrice = z.infer<typeof TransferPriceSchema>;

export const TransferTokenParamSchema = z.object({ token: z.string().min(20).max(100) });
/** The participant's signed link (docs/decisions/0041). */
export const ParticipantLinkParamSchema = z.object({ token: z.string().min(10).max(200) });

/** GET /api/inscricoes/link/{token}/: the one registration the link opens and what may be done with it. */
export const ParticipantLinkViewSchema = z.object({
  inscricao: z.number().int(),
  evento: z.object({ id: z.number().int(), nome_evento: z.string() }),
  nome_completo: z.string(),
  categorias: z.array(z.string()),
  /** The categories' ids, in the order of `categorias` (the change of distance starts from them). */
  categoria_evento: z.array(z.number().int()),
  tamanho_camisa: z.string().nullable(),
  cancelada_em: z.string().nullable(),
  cancelamento: CancellationQuoteSchema,
  transferencia: TransferStatusSchema,
  /** As the account's card: present while its special price's proof stands refused (decision 0068). */
  comprovante_recusado: z.literal(true).optional(),
});
export type ParticipantLinkView = z.infer<typeof ParticipantLinkViewSchema>;

/** GET /api/inscricoes/{id}/troca-distancia/?de=&para=: what changing distance costs or returns now. */
export const ChangeQuoteQuerySchema = z.object({
  de: z.coerce.number().int().positive(),
  para: z.coerce.number().int().positive(),
});
export const ChangeQuoteSchema = z.object({
  permitido: z.boolean(),
  motivo: z.string().nullable(),
  taxa: z.number(),
  /** The new distance's price minus the old one's, both at the lot in force (negative: cheaper). */
  diferenca: z.number(),
  a_pagar: z.number(),
  a_devolver: z.number(),
  /**
   * Said before confirming when the distance left was priced by a special price (docs/decisions/0068):
   * the new one is at its lot's price, the difference counted from what was paid.
   */
  aviso: z.string().nullable().optional(),
});
export type ChangeQuote = z.infer<typeof ChangeQuoteSchema>;

/** POST /api/inscricoes/{id}/trocar-distancia/ (nothing to pay): the amount returned as shown. */
export const ChangeCategoryRequestSchema = z.object({
  de: z.number().int().positive(),
  para: z.number({ error: 'Escolha a distância nova.' }).int().positive(),
  a_devolver: z.number().min(0),
});

/**
 * POST /api/inscricoes/{id}/alteracoes/ (and the participant link's): several changes checked together
 * and committed at once (docs/decisions/0056, later). Only changes with no money to pay or return; one
 * with money answers 409 `alteracao_com_valor` and is done by its own route (trocar-distancia, the
 * charge of a dearer distance, trocar-tamanho).
 */
export const RegistrationOperationSchema = z.discriminatedUnion('tipo', [
  z.object({
    tipo: z.literal('distancia'),
    /** The new category; it replaces `de`, or the category of the same day when `de` is left out. */
    categoria_id: z.number({ error: 'Escolha a distância nova.' }).int().positive(),
    de: z.number().int().positive().optional(),
  }),
  z.object({
    tipo: z.literal('camiseta'),
    /** The kit size's id. */
    tamanho: z.number({ error: 'Escolha o tamanho da camisa.' }).int().positive(),
  }),
  /** Applied after the list's other changes, by the transfer's own rules; the new runner pays it. */
  TransferRequestSchema.extend({ tipo: z.literal('transferencia') }),
  /** Only alone: the amount the cancellation's quote showed. */
  RunnerCancelSchema.extend({ tipo: z.literal('cancelamento') }),
]);
export type RegistrationOperationWire = z.infer<typeof RegistrationOperationSchema>;
export const RegistrationChangesRequestSchema = z.object({
  operacoes: z
    .array(RegistrationOperationSchema)
    .min(1, 'Informe ao menos uma alteração.')
    .max(5, 'No máximo 5 alterações de uma vez.'),
  /** What the quote said comes back (0 or absent when nothing does): it must still be so. */
  a_devolver: z.number().min(0).optional(),
});
/** The registration after the changes: its categories (ids and names, in id order) and shirt size. */
export const RegistrationChangesResultSchema = z.object({
  inscricao: z.number().int(),
  categoria_evento: z.array(z.number().int()),
  categorias: z.array(z.string()),
  tamanho_camisa: z.string().nullable(),
  /** What the list returned, once, to the registration's charge (a cancellation: what it returned). */
  a_devolver: z.number(),
  /** The transfer the list ended with, pending the new runner. */
  transferencia: TransferStatusSchema.optional(),
  cancelada_em: z.string().nullable(),
});
export type RegistrationChangesResult = z.infer<typeof RegistrationChangesResultSchema>;

/** POST /api/inscricoes/{id}/trocar-tamanho/: the kit size's id. */
export const ChangeSizeRequestSchema = z.object({
  tamanho_camisa: z.number({ error: 'Escolha o tamanho da camisa.' }).int().positive(),
});
export const ChangeSizeResponseSchema = z.object({ tamanho_camisa: z.string() });

/**
 * PUT /api/inscricoes/{id}/retirada-autorizada/ (and the participant link's): the person the runner
 * authorises to collect the kit (docs/decisions/0063, later). The desk asks for this CPF's document.
 */
export const PickupDelegateRequestSchema = z.object({ nome_completo: FullNameSchema, cpf: CpfSchema });
export type PickupDelegateRequest = z.input<typeof PickupDelegateRequestSchema>;

/** Whether someone else may collect the kit, and who is authorised (CPF masked but its last digits). */
export const PickupDelegateStatusSchema = z.object({
  permitido: z.boolean(),
  /** Why not, in Portuguese; null when allowed. */
  motivo: z.string().nullable(),
  autorizado: z.object({ nome: z.string(), cpf: z.string() }).nullable(),
  /**
   * The team the registration joined with its code (docs/decisions/0067) and whether the runner lets its
   * collector take the kit with the team's; null without a team.
   */
  equipe: z.object({ nome: z.string(), autorizada: z.boolean() }).nullable().default(null),
});
/** The runner lets the team's collector take the kit, or takes that back. */
export const TeamPickupConsentSchema = z.object({ autorizada: z.boolean() });
export type PickupDelegateStatus = z.infer<typeof PickupDelegateStatusSchema>;
