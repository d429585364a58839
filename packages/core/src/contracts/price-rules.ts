import { PRICE_RULE_AUDIENCES, PRICE_RULE_DISCOUNTS } from '../price-rules.ts';
import { z } from '../zod.ts';
import { IdSchema } from './common.ts';
import { IsoDate } from './painel-events.ts';

/** Price rules by who the runner is (docs/decisions/0068): the organiser's, the form's and the review's. */

/** A rule as the organiser writes it; money in reais. */
export const PriceRuleInputSchema = z
  .object({
    categoria: IdSchema,
    publico: z.enum(PRICE_RULE_AUDIENCES, { error: 'Escolha o público da regra.' }),
    nome: z.string().trim().min(2, 'Informe o nome da regra.').max(80, 'Use no máximo 80 caracteres.'),
    desconto: z.enum(PRICE_RULE_DISCOUNTS, { error: 'Escolha o desconto.' }),
    /** With `preco_fixo`: the price in reais. */
    preco_fixo: z.number().min(0, 'O preço não pode ser negativo.').max(100_000).nullable().default(null),
    limite_vagas: z.number().int('Informe um número inteiro.').min(0).max(100_000).nullable().default(null),
    limite_percentual: z
      .number()
      .int('Informe um número inteiro.')
      .min(1, 'Entre 1 e 100.')
      .max(100, 'Entre 1 e 100.')
      .nullable()
      .default(null),
    /** The last day a registration may take it (aaaa-mm-dd), or null. */
    ate: IsoDate.nullable().default(null),
    exige_comprovante: z.boolean().default(true),
    prazo_analise_horas: z
      .number()
      .int()
      .min(1, 'Pelo menos 1 hora.')
      .max(720, 'No máximo 30 dias.')
      .default(72),
  })
  .superRefine((v, ctx) => {
    if (v.desconto === 'preco_fixo' && v.preco_fixo === null)
      ctx.addIssue({ code: 'custom', path: ['preco_fixo'], message: 'Informe o preço fixo.' });
  });
export type PriceRuleInput = z.input<typeof PriceRuleInputSchema>;

/** A rule in the back office, with how many places it holds now and its list's size. */
export const PainelPriceRuleSchema = z.object({
  id: z.number().int(),
  categoria: z.number().int(),
  nome_categoria: z.string(),
  publico: z.enum(PRICE_RULE_AUDIENCES),
  nome: z.string(),
  desconto: z.enum(PRICE_RULE_DISCOUNTS),
  preco_fixo: z.number().nullable(),
  limite_vagas: z.number().int().nullable(),
  limite_percentual: z.number().int().nullable(),
  /** The cap in places today (the smaller of the two), or null. */
  limite: z.number().int().nullable(),
  /** Places held under the rule now (paid, or held by an open charge). */
  usadas: z.number().int(),
  ate: z.string().nullable(),
  exige_comprovante: z.boolean(),
  prazo_analise_horas: z.number().int(),
  /** CPFs on the rule's list (`lista`). */
  cpfs_na_lista: z.number().int(),
  arquivada: z.boolean(),
});
export type PainelPriceRule = z.infer<typeof PainelPriceRuleSchema>;

/** The CSV of a `lista` rule: CPFs in the first column (header optional); replaces the list. */
export const PriceRuleListImportSchema = z.object({
  csv: z.string().max(2_000_000, 'Arquivo grande demais (até 2 MB).'),
});

/** What the CSV import did: CPFs kept, and the lines refused with why. */
export const PriceRuleListImportedSchema = z.object({
  cpfs: z.number().int(),
  recusadas: z.array(z.object({ linha: z.number().int(), motivo: z.string() })),
});

/** A rule as the registration form offers it, priced for the lot in force now. */
export const EventPriceRuleSchema = z.object({
  id: z.number().int(),
  categoria: z.number().int(),
  publico: z.enum(PRICE_RULE_AUDIENCES),
  nome: z.string(),
  desconto: z.enum(PRICE_RULE_DISCOUNTS),
  /** The category's price under the rule now, in reais. */
  preco: z.number(),
  exige_comprovante: z.boolean(),
  /** What the proof is, in words. */
  comprovante: z.string().nullable(),
  ate: z.string().nullable(),
  /** Its cap is reached (a place may come back when a charge expires). */
  esgotada: z.boolean(),
});
export type EventPriceRule = z.infer<typeof EventPriceRuleSchema>;

/** A proof sent before paying: the token the registration's draft names it by. */
export const ProofUploadedSchema = z.object({
  comprovante: z.string(),
  tipo: z.string(),
  bytes: z.number().int(),
});
export type ProofUploaded = z.infer<typeof ProofUploadedSchema>;

export const PROOF_STATUSES = ['pendente', 'aprovado', 'recusado'] as const;

/** A proof in the staff's review queue, beside the runner's data. */
export const ProofReviewSchema = z.object({
  id: z.number().int(),
  inscricao: z.number().int(),
  evento: z.object({ id: z.number().int(), nome: z.string() }),
  nome_completo: z.string(),
  data_nascimento: z.string(),
  cpf: z.string(),
  categorias: z.array(z.string()),
  regra: z.object({ id: z.number().int(), nome: z.string(), publico: z.enum(PRICE_RULE_AUDIENCES) }),
  pago: z.number(),
  situacao: z.enum(PROOF_STATUSES),
  prazo: z.string().nullable(),
  enviado_em: z.string(),
  analisado_em: z.string().nullable(),
  analisado_por: z.string().nullable(),
  motivo: z.string().nullable(),
  /** Where staff read the file (with their session). */
  arquivo: z.string().nullable(),
  tipo: z.string(),
});
export type ProofReview = z.infer<typeof ProofReviewSchema>;

export const ProofDecisionSchema = z.discriminatedUnion('decisao', [
  z.object({ decisao: z.literal('aprovar') }),
  z.object({
    decisao: z.literal('recusar'),
    motivo: z.string().trim().min(3, 'Diga ao participante por que o comprovante foi recusado.').max(500),
  }),
]);
export type ProofDecision = z.infer<typeof ProofDecisionSchema>;

/**
 * GET /api/inscricoes/{id}/diferenca-preco/ (and the participant link's): after a refused proof, what
 * keeping the registration at its lot's price costs now; `permitido` false (with `motivo`) when there
 * is nothing to pay. Paid by a charge of the registration purpose whose draft is
 * `{ diferenca_preco: { inscricao } }` or `{ diferenca_preco: { link } }`.
 */
export const RuleDifferenceQuoteSchema = z.object({
  permitido: z.boolean(),
  motivo: z.string().nullable(),
  /** The special price's name and why staff refused its proof. */
  regra: z.string().nullable(),
  motivo_recusa: z.string().nullable(),
  a_pagar: z.number(),
});
export type RuleDifferenceQuote = z.infer<typeof RuleDifferenceQuoteSchema>;
