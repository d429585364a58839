import { z } from '../zod.ts';
import { IdSchema } from './common.ts';
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

/** A captain's team in "Minha conta": the code, the invite path and who joined. */
export const MyTeamSchema = TeamPublicSchema.extend({
  id: z.number(),
  /** The registration page the invite opens (with the code), or the events list for a season's team. */
  convite: z.string(),
  criada_em: z.string(),
  membros: z.array(TeamMemberSchema),
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
    }),
  ),
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
