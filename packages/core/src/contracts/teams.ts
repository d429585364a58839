import { z } from 'zod';

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
  evento: z.number().int().positive().nullable(),
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
