import { z } from '../zod.ts';

/** The back office's staff: roles and permissions, accounts, two-step sign-in, the audit log. */

/**
 * Preset roles of the back office (docs/product.md §6, docs/decisions/0032-permissions-per-action.md).
 * `operador` is the role accounts had before the presets: kept, with the powers it always had.
 */
export const STAFF_ROLES = ['admin', 'gerente', 'financeiro', 'estoque', 'checkin', 'operador'] as const;
export const StaffRoleSchema = z.enum(STAFF_ROLES, { error: 'Escolha um perfil.' });
export type StaffRole = z.infer<typeof StaffRoleSchema>;

/** How the pages name each role. */
export const STAFF_ROLE_LABELS: Record<StaffRole, string> = {
  admin: 'Administrador',
  gerente: 'Gerente',
  financeiro: 'Financeiro',
  estoque: 'Estoque',
  checkin: 'Check-in (voluntário)',
  operador: 'Operador',
};

/**
 * What a back-office route needs. Every route declares one (or a list, any of which lets it through:
 * `config.painel.permission`); the server's guard refuses the others with 403 `sem_permissao`, and the
 * pages ask `staffCan` to hide menus, pages and buttons.
 */
export const PainelPermissionSchema = z.enum([
  /** Products, prices, colours, sizes and photos: create and edit. */
  'catalogo',
  /** Stock moves, their history and low stock (reads the product list too). */
  'estoque',
  /** Orders: list, detail, separate, ship, deliver (reads events' registrations too). */
  'pedidos',
  /** Cancel a registration or an order and return its payment (Pix or card). */
  'devolver_pagamento',
  /** Events: create and edit, see their participants and export them. */
  'eventos',
  /** Race-day kit pickup; the `checkin` role only for the events assigned to it. */
  'checkin',
  'cupons',
  /** The dashboard's sales figures and reports. */
  'relatorios',
  /** Staff accounts and the audit log. */
  'equipe',
  /** Customers' personal data: search, their orders, LGPD export and erasure. */
  'clientes',
  /**
   * The proofs of special prices (student IDs, teachers', PCD documents: health data, LGPD art. 11):
   * the review queue and its files (docs/decisions/0068).
   */
  'comprovantes',
]);
export type PainelPermission = z.infer<typeof PainelPermissionSchema>;

export const PAINEL_PERMISSION_LABELS: Record<PainelPermission, string> = {
  catalogo: 'Catálogo e preços',
  estoque: 'Estoque',
  pedidos: 'Pedidos',
  devolver_pagamento: 'Cancelamentos e devoluções',
  eventos: 'Eventos',
  checkin: 'Check-in',
  cupons: 'Cupons',
  relatorios: 'Relatórios',
  equipe: 'Equipe e registro de alterações',
  clientes: 'Clientes (dados pessoais)',
  comprovantes: 'Comprovantes de preço especial (dados de saúde)',
};

/** The permission table of the presets (docs/product.md §6 shows it; the matrix test reads it). */
export const ROLE_PERMISSIONS: Record<StaffRole, readonly PainelPermission[]> = {
  admin: PainelPermissionSchema.options,
  gerente: [
    'catalogo',
    'estoque',
    'pedidos',
    'eventos',
    'checkin',
    'cupons',
    'relatorios',
    'clientes',
    'comprovantes',
  ],
  financeiro: ['pedidos', 'devolver_pagamento', 'relatorios', 'clientes'],
  estoque: ['estoque', 'pedidos'],
  checkin: ['checkin'],
  operador: ['estoque', 'pedidos', 'checkin', 'relatorios'],
};

/** Roles that check in only the events assigned to each person (`staff_events`); the others, every event. */
export const EVENT_SCOPED_ROLES: readonly StaffRole[] = ['checkin'];

/**
 * Who sees the PCD answer (health data, LGPD art. 11): the event's organisers and the kit desk; the
 * orders roles see registrations without it.
 */
export const HEALTH_DATA_PERMISSIONS: readonly PainelPermission[] = ['eventos', 'checkin'];

/**
 * Who sees a participant's whole CPF, birth date, e-mail, phone and emergency contact, and exports them
 * (docs/product.md §6: participants and their export belong to who runs events). Sales and the kit desk
 * see the name and the CPF masked as the orders show it (LGPD art. 6 III).
 */
export const PERSONAL_DATA_PERMISSIONS: readonly PainelPermission[] = ['eventos'];

/** Whether `role` may do what needs `permission` (or, given a list, any of them). */
export function staffCan(
  role: StaffRole,
  permission: PainelPermission | readonly PainelPermission[],
): boolean {
  const wanted: readonly PainelPermission[] = typeof permission === 'string' ? [permission] : permission;
  return wanted.some((p) => ROLE_PERMISSIONS[role].includes(p));
}

export const StaffSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  role: StaffRoleSchema,
  totp_enabled: z.boolean(),
  active: z.boolean(),
  /** The events a `checkin` volunteer may check in (ids); empty for the other roles. */
  eventos: z.array(z.number().int()),
});
export type Staff = z.infer<typeof StaffSchema>;

/** A TOTP code: six digits, spaces allowed as authenticator apps show them. */
const TotpCodeSchema = z
  .string()
  .transform((v) => v.replace(/\s/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'O código tem 6 dígitos.'));

export const StaffLoginSchema = z.object({
  email: z.string().trim().min(1, 'Informe o e-mail.').max(254),
  password: z.string().min(1, 'Informe a senha.').max(128),
  codigo: TotpCodeSchema.optional(),
  /** One of the one-time codes given when two-step sign-in was turned on, instead of `codigo`. */
  codigo_recuperacao: z.string().trim().min(1, 'Informe o código de recuperação.').max(40).optional(),
});
export type StaffLogin = z.input<typeof StaffLoginSchema>;

export const StaffSessionSchema = z.object({
  token: z.string(),
  staff: StaffSchema,
  /** True when PAINEL_REQUIRE_2FA is on and this person still has to turn it on. */
  precisa_ativar_2fa: z.boolean(),
});

export const StaffMeSchema = z.object({
  staff: StaffSchema,
  precisa_ativar_2fa: z.boolean(),
  /** Recovery codes not yet used (0 when two-step sign-in is off). */
  codigos_recuperacao_restantes: z.number().int(),
});

/** Shown once, when two-step sign-in is turned on or the codes are made again; only hashes are kept. */
export const RecoveryCodesSchema = z.object({ codigos_recuperacao: z.array(z.string()) });

/** `POST /auth/2fa/enable/`: the account, and its recovery codes. */
export const TotpEnabledSchema = StaffSchema.extend(RecoveryCodesSchema.shape);

export const TotpSetupSchema = z.object({
  secret: z.string(),
  otpauth_url: z.string(),
  /** PNG data URL of the QR code for the authenticator app. */
  qr_code: z.string(),
});

export const TotpCodeBodySchema = z.object({ codigo: TotpCodeSchema });

const PasswordSchema = z
  .string()
  .min(8, 'A senha deve ter pelo menos 8 caracteres.')
  .max(128, 'A senha deve ter no máximo 128 caracteres.');

/** `POST /auth/password/`: one's own password; the current one is required. */
export const OwnPasswordChangeSchema = z.object({
  senha_atual: z.string().min(1, 'Informe a senha atual.').max(128),
  nova_senha: PasswordSchema,
});
export type OwnPasswordChange = z.input<typeof OwnPasswordChangeSchema>;

/** `POST /staff/:id/password/`: an admin sets someone else's password. */
export const StaffPasswordResetSchema = z.object({ password: PasswordSchema });

/** The events assigned to a check-in volunteer (ids), no repeats. */
const StaffEventsSchema = z
  .array(z.number().int().positive(), { error: 'Escolha os eventos.' })
  .max(200)
  .transform((ids) => [...new Set(ids)]);

export const NewStaffSchema = z.object({
  email: z.email('E-mail inválido.').max(254),
  name: z.string().trim().min(2, 'Informe o nome.').max(120),
  role: StaffRoleSchema,
  password: PasswordSchema,
  eventos: StaffEventsSchema.optional(),
});
export type NewStaff = z.input<typeof NewStaffSchema>;

export const StaffPatchSchema = z.object({
  role: StaffRoleSchema.optional(),
  active: z.boolean().optional(),
  /** Replaces the events a check-in volunteer is assigned to. */
  eventos: StaffEventsSchema.optional(),
});

export const AuditEntrySchema = z.object({
  id: z.number().int(),
  staff_email: z.string(),
  action: z.string(),
  entity: z.string(),
  entity_id: z.string().nullable(),
  /** The record the line is about, named as people name it: "Estoque de Camiseta Sertão · Azul · M". */
  alvo: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  /** What changed, field by field, as people read it (core's auditChanges). */
  alteracoes: z.array(z.object({ campo: z.string(), antes: z.string(), depois: z.string() })),
  at: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;
export const AuditPageSchema = z.object({
  results: z.array(AuditEntrySchema),
  count: z.number().int(),
});
const AuditDaySchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use aaaa-mm-dd.')
  .optional();

/** `GET /audit/`: filters by who (part of the e-mail), what (the kind of record and the change) and when. */
export const AuditQuerySchema = z
  .object({
    entity: z.string().max(40).optional(),
    action: z.string().max(60).optional(),
    staff: z.string().trim().max(254).optional(),
    /** First and last day, store calendar (America/Fortaleza), both included. */
    desde: AuditDaySchema,
    ate: AuditDaySchema,
    page: z.coerce.number().int().min(1).default(1),
  })
  .refine((q) => !q.desde || !q.ate || q.desde <= q.ate, {
    message: 'A data final vem depois da inicial.',
    path: ['ate'],
  });
export type AuditQuery = z.input<typeof AuditQuerySchema>;

/** The kinds of record the audit log names (`entity`), as the filter offers them. */
export const AUDIT_ENTITY_LABELS: Record<string, string> = {
  equipe: 'Equipe',
  produto: 'Produto',
  estoque: 'Estoque',
  cor: 'Cor',
  tamanho: 'Tamanho',
  evento: 'Evento',
  inscricao: 'Inscrição',
  pedido: 'Pedido',
  cupom: 'Cupom',
  cliente: 'Cliente',
  fiscal: 'Configurações fiscais',
  nota: 'Nota fiscal',
};
