import { z } from '../zod.ts';
import { FullNameSchema } from './accounts.ts';
import { BirthDateSchema, CpfSchema } from './registrations.ts';

/**
 * The lottery opening (sorteio, docs/decisions/0051-lottery-opening.md): runners sign up in a window
 * without paying, the shop publishes a commitment to a secret seed before the window closes, draws,
 * publishes the seed, and the winners pay through the usual registration within a deadline.
 */

/** What the organiser sets for a lottery (with the opening's mode `sorteio`). */
export const LotterySettingsSchema = z
  .object({
    inscricoes_de: z.iso.datetime({
      offset: true,
      message: 'Informe quando as inscrições no sorteio abrem.',
    }),
    inscricoes_ate: z.iso.datetime({
      offset: true,
      message: 'Informe quando as inscrições no sorteio fecham.',
    }),
    /** Places the lottery gives (the first draw's winners). */
    vagas: z.number().int().min(1, 'Sorteie ao menos 1 vaga.').max(100_000, 'No máximo 100.000 vagas.'),
    /** Hours a winner has to pay, from the draw that picked them. */
    horas_para_pagar: z
      .number()
      .int()
      .min(1, 'O prazo para pagar é de ao menos 1 hora.')
      .max(720, 'No máximo 720 horas (30 dias).'),
  })
  .refine((s) => Date.parse(s.inscricoes_ate) > Date.parse(s.inscricoes_de), {
    message: 'O fim das inscrições no sorteio deve ser depois do início.',
    path: ['inscricoes_ate'],
  });
export type LotterySettings = z.infer<typeof LotterySettingsSchema>;

/** The lottery in the back office: its settings, the commitment, the draws and the counts. */
export const PainelLotterySchema = z.object({
  inscricoes_de: z.string(),
  inscricoes_ate: z.string(),
  vagas: z.number().int(),
  horas_para_pagar: z.number().int(),
  compromisso: z.string().nullable(),
  compromisso_em: z.string().nullable(),
  sorteado_em: z.string().nullable(),
  sorteios: z.number().int(),
  inscritos: z.number().int(),
  /** Winners still within their deadline who have not paid. */
  aguardando_pagamento: z.number().int(),
  pagos: z.number().int(),
  /** Winners whose deadline passed unpaid: their places go to a further draw. */
  expirados: z.number().int(),
});
export type PainelLottery = z.infer<typeof PainelLotterySchema>;

/**
 * A runner's entry: the person as the registration form asks, and the category they want. No e-mail:
 * the shop writes only to the account's own address (an `email` sent by an older form is dropped).
 */
export const LotteryEntryInputSchema = z.object({
  nome_completo: FullNameSchema,
  cpf: CpfSchema,
  data_nascimento: BirthDateSchema,
  categoria: z.number({ error: 'Escolha a categoria.' }).int().positive('Escolha a categoria.'),
});
export type LotteryEntryInput = z.infer<typeof LotteryEntryInputSchema>;

export const LotteryEntryStateSchema = z.enum(['inscrito', 'sorteado', 'nao_sorteado', 'pago', 'expirado']);

/** Each state as the back office names it. */
export const LOTTERY_ENTRY_STATE_LABEL: Record<z.infer<typeof LotteryEntryStateSchema>, string> = {
  inscrito: 'Inscrito',
  sorteado: 'Sorteado',
  pago: 'Pagou',
  expirado: 'Prazo perdido',
  nao_sorteado: 'Não sorteado',
};

/** The back office's list of a lottery's entries: a state, a search, a page. */
export const PainelLotteryEntryQuerySchema = z.object({
  estado: LotteryEntryStateSchema.optional(),
  /** The entry's number, a name or e-mail, or a whole CPF (digits or 000.000.000-00). */
  busca: z.string().trim().max(100).optional(),
  pagina: z.coerce.number().int().min(1).max(10_000).default(1),
});
export type PainelLotteryEntryQuery = z.input<typeof PainelLotteryEntryQuerySchema>;

/** One entry in the back office (the CPF masked on screen; the CSV carries it whole). */
export const PainelLotteryEntrySchema = z.object({
  id: z.number().int(),
  nome_completo: z.string(),
  cpf_mascarado: z.string(),
  email: z.string(),
  categoria: z.number().int(),
  categoria_nome: z.string(),
  estado: LotteryEntryStateSchema,
  posicao: z.number().int().nullable(),
  sorteio: z.number().int().nullable(),
  pagar_ate: z.string().nullable(),
  inscrito_em: z.string(),
});
export type PainelLotteryEntry = z.infer<typeof PainelLotteryEntrySchema>;

/** The entries CSV's columns, in order (the back office's download; the test reads it back). */
export const LOTTERY_ENTRIES_CSV_HEADER = [
  'Inscrição no sorteio',
  'Nome completo',
  'CPF',
  'E-mail',
  'Categoria',
  'Situação',
  'Posição na classificação',
  'Sorteio',
  'Pagar até',
  'Inscrito em',
];

export const PainelLotteryEntryPageSchema = z.object({
  results: z.array(PainelLotteryEntrySchema),
  count: z.number().int(),
  page_size: z.number().int(),
});
export type PainelLotteryEntryPage = z.infer<typeof PainelLotteryEntryPageSchema>;

/** An entry as its runner sees it (the CPF masked). */
export const LotteryEntrySchema = z.object({
  id: z.number().int(),
  nome_completo: z.string(),
  cpf_mascarado: z.string(),
  categoria: z.number().int(),
  categoria_nome: z.string(),
  estado: LotteryEntryStateSchema,
  /** Place in the ranking, after the draw. */
  posicao: z.number().int().nullable(),
  /** Until when a winner may pay. */
  pagar_ate: z.string().nullable(),
});
export type LotteryEntry = z.infer<typeof LotteryEntrySchema>;

/** What anyone can read of an event's lottery: enough to recompute the draw. */
export const PublicLotterySchema = z.object({
  inscricoes_de: z.string(),
  inscricoes_ate: z.string(),
  vagas: z.number().int(),
  horas_para_pagar: z.number().int(),
  inscritos: z.number().int(),
  /** SHA-256 (hex) of the secret seed, published before the entry window closes. */
  compromisso: z.string().nullable(),
  compromisso_em: z.string().nullable(),
  /** The seed, published with the first draw. */
  semente: z.string().nullable(),
  /** Every entry id that took part, ascending (after the draw). */
  ids_inscricoes: z.array(z.number().int()),
  /** The ranking: entry ids in drawn order (after the draw). */
  classificacao: z.array(z.number().int()),
  /** Each draw's winners (entry ids) in ranking order. */
  sorteios: z.array(z.object({ numero: z.number().int(), ids: z.array(z.number().int()) })),
});
export type PublicLottery = z.infer<typeof PublicLotterySchema>;
