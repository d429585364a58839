import { z } from '../zod.ts';
import { EmailSchema, FullNameSchema } from './accounts.ts';
import { IdSchema } from './common.ts';
import { CpfSchema } from './registrations.ts';

/**
 * The waitlist of a sold-out category (docs/decisions/0042-waitlist.md): joining, the runner's own
 * view through the signed link e-mailed to them, and the back office's list.
 */

/** POST /api/events/{id}/lista-espera/: a runner joins the line of a sold-out category. */
export const WaitlistJoinSchema = z.object({
  categoria: IdSchema,
  nome_completo: FullNameSchema,
  cpf: CpfSchema,
  email: EmailSchema,
});
export type WaitlistJoin = z.infer<typeof WaitlistJoinSchema>;

export const WAITLIST_STATUS_LABELS = {
  aguardando: 'Na fila',
  oferta: 'Vaga oferecida',
  aceita: 'Vaga aceita, aguardando pagamento',
  inscrita: 'Inscrita',
  expirada: 'Oferta expirada',
  saiu: 'Saiu da lista',
} as const;
export type WaitlistStatusWire = keyof typeof WAITLIST_STATUS_LABELS;

/** The runner's entry as their signed link shows it. */
export const WaitlistEntrySchema = z.object({
  evento: z.number(),
  evento_nome: z.string(),
  categoria: z.number(),
  categoria_nome: z.string(),
  nome_completo: z.string(),
  status: z.enum(Object.keys(WAITLIST_STATUS_LABELS) as [WaitlistStatusWire, ...WaitlistStatusWire[]]),
  /** 1 = the next to be offered a place; null when not waiting. */
  posicao: z.number().nullable(),
  /** Until when the offered place is held (ISO); null without an offer. */
  oferta_expira_em: z.string().nullable(),
});
export type WaitlistEntryWire = z.infer<typeof WaitlistEntrySchema>;

/** What joining answers: the entry (the link itself goes by e-mail only, to the address given). */
export const WaitlistJoinedSchema = WaitlistEntrySchema;

/** GET /api/events/{id}/lista-espera/: per category, whether it has a waitlist and whether it is sold out. */
export const EventWaitlistSchema = z.object({
  categorias: z.array(
    z.object({
      id: z.number(),
      nome: z.string(),
      lista_espera: z.boolean(),
      esgotada: z.boolean(),
      /** People in line now. */
      na_fila: z.number(),
    }),
  ),
});
export type EventWaitlist = z.infer<typeof EventWaitlistSchema>;

/** The link's token in the path. */
export const WaitlistTokenParamSchema = z.object({ token: z.string().min(10).max(200) });

/** GET /api/painel/events/{id}/lista-espera/: every entry per category with its position and offer. */
export const PainelWaitlistSchema = z.object({
  categorias: z.array(
    z.object({
      id: z.number(),
      nome: z.string(),
      lista_espera: z.boolean(),
      entradas: z.array(
        z.object({
          id: z.number(),
          nome_completo: z.string(),
          email: z.string(),
          status: WaitlistEntrySchema.shape.status,
          posicao: z.number().nullable(),
          entrou_em: z.string(),
          oferta_expira_em: z.string().nullable(),
          historico: z.array(z.object({ tipo: z.string(), em: z.string() })),
        }),
      ),
    }),
  ),
});
export type PainelWaitlist = z.infer<typeof PainelWaitlistSchema>;
