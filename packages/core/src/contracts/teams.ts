import { z } from '../zod.ts';
import { addressFields, cepMatchesState, requiredText } from './accounts.ts';
import { IdSchema } from './common.ts';
import { CnpjSchema } from './fiscal.ts';
import { PickupItemQuantitySchema, PickupItemSchema } from './painel-events.ts';

/**
 * Teams, assessorias and companies (docs/decisions/0067-teams.md): a captain's group runners join with
 * its code, at registration or from the invite link.
 */

/** The letters and digits of a join code: no 0/O, 1/I/L, so a code read aloud or typed is unambiguous. */
export const TEAM_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const TEAM_CODE_LENGTH = 8;

/** A join code as typed: spaces and dashes dropped, upper case; then exactly the code's shape. */
export const TeamCodeSchema = z
  .string()
  .transform((v) => v.replace(/[\s-]/g, '').toUpperCase())
  .pipe(
    z
      .string()
      .regex(
        new RegExp(`^[${TEAM_CODE_ALPHABET}]{${TEAM_CODE_LENGTH}}$`),
        `O código da equipe tem ${TEAM_CODE_LENGTH} letras e números.`,
      ),
  );

/** What a captain sends to make a team. */
export const TeamCreateSchema = z.object({
  nome: z
    .string({ error: 'Informe o nome da equipe.' })
    .trim()
    .min(2, 'Informe o nome da equipe.')
    .max(80, 'Use no máximo 80 caracteres.'),
  /** The event it runs in; null: every event of the brand (a season's assessoria). */
  evento: IdSchema.nullable(),
});
export type TeamCreate = z.input<typeof TeamCreateSchema>;

/** The captain opens or closes joining. */
export const TeamOpenSchema = z.object({ aberta: z.boolean() });

/** What anyone with the code reads: enough to know which team it is, no member. */
export const TeamPublicSchema = z.object({
  nome: z.string(),
  codigo: z.string(),
  /** The event it runs in (null: any event of the brand). */
  evento: z.object({ id: z.number(), nome: z.string() }).nullable(),
  aberta: z.boolean(),
});
export type TeamPublic = z.infer<typeof TeamPublicSchema>;

/** A member as the captain sees them: name and distance only (the runner was told so when joining). */
export const TeamMemberSchema = z.object({
  nome: z.string(),
  evento: z.string(),
  categorias: z.array(z.string()),
  inscrito_em: z.string(),
});

/**
 * What a captain sends to buy places for the team in one payment (docs/decisions/0073), under
 * `vagas_equipe` of `POST /api/pix/` or `/api/pagar-cartao/` with `finalidade: 'vagas_equipe'`.
 */
/**
 * The company that pays a team's places and takes their NFS-e (docs/decisions/0077): its CNPJ, legal
 * name, the e-mail the nota goes to and its address (the nota's taker's).
 */
export const CompanyTakerSchema = z.object({
  cnpj: CnpjSchema,
  razao_social: requiredText('Informe a razão social.', 115),
  email: z.email('Informe um e-mail válido.').trim().toLowerCase().max(254),
  endereco: z.object(addressFields()).superRefine(cepMatchesState),
});
export type CompanyTaker = z.output<typeof CompanyTakerSchema>;

export const TeamPlacesDraftSchema = z.object({
  equipe: IdSchema,
  categoria: IdSchema,
  quantidade: z
    .number({ error: 'Informe quantas vagas.' })
    .int('Informe um número inteiro de vagas.')
    .min(2, 'Compre pelo menos 2 vagas (para uma, use a inscrição comum).'),
  /** A company pays and takes the NFS-e; absent: the captain pays (a nota without an identified taker). */
  empresa: CompanyTakerSchema.optional(),
  /**
   * The share of each place the team pays, in percent (docs/decisions/0079); each member pays the rest
   * when claiming. Absent: 100, the whole place.
   */
  percentual: z
    .number({ error: 'Informe a parte paga pela equipe, em %.' })
    .int('Informe um percentual inteiro.')
    .min(1, 'A equipe paga pelo menos 1% de cada vaga.')
    .max(100, 'A equipe paga no máximo 100% de cada vaga.')
    .optional(),
});
export type TeamPlacesDraft = z.infer<typeof TeamPlacesDraftSchema>;

/** A team link's secret (a claim link's, an invitation's): 128 random bits in base64url. */
const teamLinkToken = (message: string) => z.string().regex(/^[A-Za-z0-9_-]{22}$/, message);

/** The secret of a claim link. */
export const TeamClaimTokenSchema = teamLinkToken('Link de vaga inválido.');

/** One purchase of places: how many, how many members claimed, what is left, and when it closed. */
export const TeamPlacesBatchSchema = z.object({
  id: z.number(),
  evento: z.object({ id: z.number(), nome: z.string() }),
  categoria: z.object({ id: z.number(), nome: z.string() }),
  quantidade: z.number(),
  resgatadas: z.number(),
  /** Places still waiting for a member (0 once closed). */
  disponiveis: z.number(),
  /** What the team paid for one place, in reais. */
  preco: z.number(),
  /** The share of each place the team paid, in percent (100: the whole place). */
  percentual: z.number(),
  /** What each member pays when claiming (the rest of the place), in reais; 0 when the team paid it all. */
  parte_membro: z.number(),
  /** Until when members claim (the event's registration deadline, YYYY-MM-DD). */
  prazo: z.string(),
  /** What the event does with places nobody claimed: refunded to the captain, or back to sale. */
  nao_resgatadas: z.enum(['devolver', 'liberar']),
  encerrado_em: z.string().nullable(),
  /** Refunded to the captain when it closed, in reais. */
  devolvido: z.number(),
});

export type TeamPlacesBatch = z.infer<typeof TeamPlacesBatchSchema>;

/** A captain's team in "Minha conta": the code, the invite path and who joined. */
export const MyTeamSchema = TeamPublicSchema.extend({
  id: z.number(),
  /** The registration page the invite opens (with the code), or the events list for a season's team. */
  convite: z.string(),
  criada_em: z.string(),
  membros: z.array(TeamMemberSchema),
  /** The places the captain bought, each with the link members claim them with (`/equipes/vagas/<token>`). */
  vagas: z.array(TeamPlacesBatchSchema.extend({ link: z.string() })),
  /**
   * Places the organiser reserved for the team at an opening (docs/decisions/0076), still valid: members
   * register with the code without a turn or a draw while some are left.
   */
  cotas: z.array(
    z.object({
      evento: z.string(),
      categoria: z.string(),
      vagas: z.number(),
      usadas: z.number(),
      ate: z.string().nullable(),
    }),
  ),
  /** The people the captain invited from a list (docs/decisions/0075), and whether each confirmed. */
  convites: z.array(
    z.object({
      nome: z.string(),
      /** Masked: the captain typed it, the person has not confirmed it to them. */
      email: z.string(),
      situacao: z.enum(['pendente', 'confirmado']),
      enviado_em: z.string(),
    }),
  ),
});
export type MyTeam = z.infer<typeof MyTeamSchema>;

/** The back office's list of an event's teams. */
export const PainelTeamSchema = z.object({
  id: z.number(),
  nome: z.string(),
  codigo: z.string(),
  /** Null: a season's team, listed under every event its members run. */
  evento_id: z.number().nullable(),
  aberta: z.boolean(),
  capitao: z.object({ nome: z.string(), email: z.string() }).nullable(),
  criada_em: z.string(),
  membros: z.array(
    z.object({
      inscricao: z.number(),
      nome: z.string(),
      categorias: z.array(z.string()),
      pago_centavos: z.number(),
      kit_retirado: z.boolean(),
      /** Claimed from the places the captain bought (docs/decisions/0073). */
      vaga_da_equipe: z.boolean(),
    }),
  ),
  /** The places the captain bought for this event (docs/decisions/0073). */
  vagas: z.array(TeamPlacesBatchSchema),
});
export type PainelTeam = z.infer<typeof PainelTeamSchema>;

/** A member's kit as the desk sees it for the team's pickup (docs/decisions/0067, later). */
export const DeskTeamMemberSchema = z.object({
  inscricao: z.number(),
  nome: z.string(),
  categorias: z.array(z.string()),
  /**
   * `pronto`: handed with the team's kits; `retirado`: out already (`retirada` says by whom);
   * `sem_autorizacao`: the runner did not let the team collect it; `recusado`: the event's rules say only
   * the runner (`motivo`).
   */
  situacao: z.enum(['pronto', 'retirado', 'sem_autorizacao', 'recusado']),
  motivo: z.string().nullable(),
  retirada: z
    .object({ em: z.string(), por: z.string(), retirado_por_nome: z.string().nullable() })
    .nullable(),
});

/** A team's kits at the desk: who is ready to go with the team's collector, and the item to bring. */
export const DeskTeamSchema = z.object({
  id: z.number(),
  nome: z.string(),
  codigo: z.string(),
  capitao: z.string().nullable(),
  item: PickupItemSchema.nullable(),
  membros: z.array(DeskTeamMemberSchema),
});
export type DeskTeam = z.infer<typeof DeskTeamSchema>;

/** The event's teams at the desk, to pick one. */
export const DeskTeamListSchema = z.array(
  z.object({
    id: z.number(),
    nome: z.string(),
    codigo: z.string(),
    membros: z.number(),
    prontos: z.number(),
  }),
);
export type DeskTeamList = z.infer<typeof DeskTeamListSchema>;

/** The team's kits handed to one person: named on each pickup; the item per kit where the event asks it. */
export const DeskTeamPickupSchema = z.object({
  evento: IdSchema,
  retirado_por_nome: z
    .string({ error: 'Informe o nome de quem retira os kits.' })
    .trim()
    .min(3, 'Informe o nome de quem retira os kits.')
    .max(120, 'Use no máximo 120 caracteres.'),
  /** How much of the event's item came with each kit; absent or null: none. */
  item_quantidade_por_kit: PickupItemQuantitySchema.nullable().optional(),
});
export type DeskTeamPickup = z.input<typeof DeskTeamPickupSchema>;

export const DeskTeamPickedSchema = z.object({ entregues: z.number(), equipe: DeskTeamSchema });

/** What a claim link shows before the member fills in their data: which team, race and how many left. */
export const TeamClaimViewSchema = z.object({
  equipe: z.string(),
  evento: z.object({ id: z.number(), nome: z.string() }),
  categoria: z.object({ id: z.number(), nome: z.string() }),
  disponiveis: z.number(),
  prazo: z.string(),
  /** False once the deadline passed or the captain closed it. */
  aberto: z.boolean(),
  /** The share of the place the team paid, in percent (docs/decisions/0079). */
  percentual: z.number(),
  /** What the member pays to claim (the rest of the place), in reais; 0: nothing to pay. */
  a_pagar: z.number(),
});
export type TeamClaimView = z.infer<typeof TeamClaimViewSchema>;

/**
 * A claim of a place the team paid only part of (docs/decisions/0079): the registration charge's draft
 * (`finalidade: 'inscricao'`), paid by Pix or card like any registration.
 */
export const TeamClaimPaidDraftSchema = z.object({
  vaga_equipe: TeamClaimTokenSchema,
  participante: z.record(z.string(), z.unknown()),
});
export type TeamClaimPaidDraft = z.infer<typeof TeamClaimPaidDraftSchema>;

export const TeamClaimedSchema = z.object({ inscricao_id: z.number() });

/** A captain's list of members to invite: a CSV with the columns "Nome" and "E-mail" (Excel pt-BR or not). */
export const TeamInviteImportSchema = z.object({
  arquivo: z
    .string({ error: 'Envie o arquivo com a lista.' })
    .min(1, 'Envie o arquivo com a lista.')
    .max(200_000, 'Arquivo grande demais: envie no máximo 200 KB.'),
});
export const TeamInviteImportedSchema = z.object({
  /** Invitations sent now. */
  convidados: z.number(),
  /** Addresses this team had invited already (not sent again). */
  ja_convidados: z.number(),
});

/** What the invitation's link shows to the person invited. */
export const TeamInviteViewSchema = z.object({
  equipe: z.string(),
  evento: z.string().nullable(),
  capitao: z.string().nullable(),
  nome: z.string(),
  situacao: z.enum(['pendente', 'confirmado']),
  /** Where to register with the team's code, once confirmed. */
  convite: z.string().nullable(),
});
export type TeamInviteView = z.infer<typeof TeamInviteViewSchema>;
export const TeamInviteAnswerSchema = z.object({ aceito: z.boolean() });
export const TeamInviteTokenSchema = teamLinkToken('Convite inválido.');

/**
 * Places of one distance the organiser reserves for a named team at an opening (docs/decisions/0076):
 * the team's members, by its code, register without a waiting-room turn or a lottery draw until they
 * are used or the quota ends (its date, or `encerrar`); never fewer places than the members used.
 */
export const TeamQuotaInputSchema = z.object({
  /** The team's join code (the captain gives it; the back office's teams page shows it). */
  codigo: TeamCodeSchema,
  categoria: IdSchema,
  vagas: z
    .number({ error: 'Informe quantas vagas reservar.' })
    .int('Informe um número inteiro de vagas.')
    .min(0, 'Informe 0 ou mais vagas.')
    .max(5000, 'Reserve no máximo 5000 vagas por equipe.'),
  /** When the unused places go back to the public; null or absent: when the organiser ends it. */
  ate: z.iso.datetime({ offset: true, error: 'Informe data e hora válidas.' }).nullable().optional(),
  /** Ends the reserve now: its unused places go back to the public; what members used stays theirs. */
  encerrar: z.boolean().optional(),
});
export type TeamQuotaInput = z.input<typeof TeamQuotaInputSchema>;

/** A team's quota as the back office sees it: places reserved, used by members, until when. */
export const PainelTeamQuotaSchema = z.object({
  id: z.number(),
  equipe: z.object({ id: z.number(), nome: z.string(), codigo: z.string() }),
  categoria: z.object({ id: z.number(), nome: z.string() }),
  vagas: z.number(),
  usadas: z.number(),
  ate: z.string().nullable(),
  /** Still reserving its unused places (not ended by its date). */
  vigente: z.boolean(),
});
export type PainelTeamQuota = z.infer<typeof PainelTeamQuotaSchema>;
