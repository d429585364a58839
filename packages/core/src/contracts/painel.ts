import { isValidPhone, normalizePhone } from '../phone.ts';
import { z } from '../zod.ts';
import { ProductCategorySchema } from './catalog.ts';

/** The back office's contracts (`/api/painel/`): staff, audit, products, stock, check-in. */

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
};

/** The permission table of the presets (docs/product.md §6 shows it; the matrix test reads it). */
export const ROLE_PERMISSIONS: Record<StaffRole, readonly PainelPermission[]> = {
  admin: PainelPermissionSchema.options,
  gerente: ['catalogo', 'estoque', 'pedidos', 'eventos', 'checkin', 'cupons', 'relatorios', 'clientes'],
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

/**
 * The version of a record a back-office form was opened with (`versao` on the wire): GET sends it, a
 * save sends it back, and a save whose version is no longer the stored one is refused with 409
 * `versao_desatualizada` (docs/decisions/0025-edit-versions-and-money-roles.md).
 */
export const EditVersionSchema = z
  .number({ error: 'Recarregue a página: falta a versão do registro que você abriu.' })
  .int()
  .positive();

/** The code of the 409 a save from a stale form gets; the forms offer to reload on it. */
export const STALE_VERSION_CODE = 'versao_desatualizada';

/** Product fields staff edit, without defaults: a PATCH changes only what it sends. Price in reais. */
const ProductFieldsSchema = z.object({
  name: z.string().trim().min(2, 'Informe o nome.').max(120),
  description: z.string().trim().min(1, 'Informe a descrição.').max(5000),
  price: z.coerce
    .number({ error: 'Informe o preço.' })
    .positive('O preço deve ser maior que zero.')
    .max(100_000, 'Preço alto demais.'),
  category: ProductCategorySchema,
  aparecer_home: z.boolean(),
  oculto: z.boolean(),
  weight_grams: z.coerce.number().int().min(1).max(30_000),
  color_ids: z.array(z.number().int().positive()).max(30),
  size_ids: z.array(z.number().int().positive()).max(30),
});

/** A new product: what is not sent starts at its default. */
export const ProductInputSchema = ProductFieldsSchema.extend({
  aparecer_home: ProductFieldsSchema.shape.aparecer_home.default(false),
  oculto: ProductFieldsSchema.shape.oculto.default(false),
  weight_grams: ProductFieldsSchema.shape.weight_grams.default(300),
  color_ids: ProductFieldsSchema.shape.color_ids.default([]),
  size_ids: ProductFieldsSchema.shape.size_ids.default([]),
});
export type ProductInput = z.input<typeof ProductInputSchema>;

/**
 * An edit: only the fields sent change (no default fills one that was not sent), and `versao` is the
 * version the form read. Stock is never part of it: it changes through /stock/ with a reason.
 */
export const ProductPatchSchema = ProductFieldsSchema.partial().extend({ versao: EditVersionSchema });
export type ProductPatch = z.input<typeof ProductPatchSchema>;

/**
 * An uploaded photo is `processando` until its resized copies exist (a few seconds; the shop does not
 * show it yet), then `pronta`; `falhou` when they could not be made.
 */
export const PhotoStatusSchema = z.enum(['processando', 'pronta', 'falhou']);
export type PhotoStatus = z.infer<typeof PhotoStatusSchema>;

/** An uploaded photo's state, answered by the upload and by `GET /api/painel/photos/:id/`. */
export const PainelPhotoSchema = z.object({
  id: z.number().int(),
  /** Its 800 px WebP, where the shop shows it once `pronta`. */
  url: z.string(),
  status: PhotoStatusSchema,
});
export type PainelPhoto = z.infer<typeof PainelPhotoSchema>;

export const PainelImageSchema = z.object({
  id: z.number().int(),
  position: z.number().int(),
  url: z.string(),
  status: PhotoStatusSchema,
  /** `srcset` candidates of the uploaded photo (empty for generated pictures). */
  srcset_webp: z.string(),
  srcset_avif: z.string(),
  /** The shop's `<img alt>` for it (empty: the product's name). */
  alt: z.string(),
  /** The colour it shows, one of the product's (null: any). */
  color_id: z.number().int().nullable(),
});

/** `PATCH /products/:id/images/:imageId/`: a photo's alt text and colour. */
export const ImagePatchSchema = z.object({
  alt: z.string().trim().max(200, 'O texto alternativo tem no máximo 200 caracteres.'),
  color_id: z.number().int().positive().nullable(),
});
export type ImagePatch = z.input<typeof ImagePatchSchema>;

/** `GET /products/?busca=`: the back office's list, by words of the name (accents and case aside). */
export const PainelProductsQuerySchema = z.object({ busca: z.string().trim().max(100).optional() });

export const PainelProductSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  price: z.number(),
  category: ProductCategorySchema,
  aparecer_home: z.boolean(),
  oculto: z.boolean(),
  weight_grams: z.number().int(),
  /** The version a save must send back (EditVersionSchema); stock changes do not change it. */
  versao: z.number().int(),
  images: z.array(PainelImageSchema),
  stock: z.array(
    z.object({
      color: z.object({ id: z.number().int(), name: z.string(), hex: z.string() }),
      size: z.object({ id: z.number().int(), name: z.string() }),
      quantity: z.number().int(),
    }),
  ),
});
export type PainelProduct = z.infer<typeof PainelProductSchema>;

export const ImageOrderSchema = z.object({ ids: z.array(z.number().int().positive()).min(1).max(19) });

/** A colour's or size's name: letters, digits, spaces and hyphens, one space between words. */
const optionName = (what: string, min: number, max: number) =>
  z
    .string()
    .transform((v) => v.trim().replace(/\s+/g, ' '))
    .pipe(
      z
        .string()
        .min(min, `Informe o nome ${what}.`)
        .max(max, `O nome ${what} tem no máximo ${max} caracteres.`)
        .regex(/^[\p{L}\p{N}][\p{L}\p{N} /-]*$/u, `Use letras, números, espaços e hífen no nome ${what}.`),
    );

export const NewColorSchema = z.object({
  name: optionName('da cor', 2, 40),
  hex: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'Use o formato #rrggbb.'),
});
export type NewColor = z.input<typeof NewColorSchema>;
export const NewSizeSchema = z.object({
  name: optionName('do tamanho', 1, 20),
  sort_order: z.number().int().min(0).max(1000).default(100),
});
export type NewSize = z.input<typeof NewSizeSchema>;

/**
 * The version of a list edited as a whole (the home's featured products, its banners): a fingerprint of
 * the list as read, sent back with the save; another person's save in between is 409 `versao_desatualizada`.
 */
const ListVersionSchema = z.string({ error: 'Recarregue a página: falta a versão da lista.' }).min(1).max(64);

/** The home page's featured products, in order (`GET`/`PUT /home/featured/`). */
export const FeaturedSchema = z.object({ versao: z.string(), ids: z.array(z.number().int()) });
export const FeaturedUpdateSchema = z.object({
  versao: ListVersionSchema,
  ids: z
    .array(z.number().int().positive())
    .max(60, 'No máximo 60 produtos em destaque.')
    .refine((ids) => new Set(ids).size === ids.length, 'Cada produto entra uma vez.'),
});
export type FeaturedUpdate = z.input<typeof FeaturedUpdateSchema>;

/** Where a banner leads: a path of the shop ("/eventos") or an https address. */
const BannerLinkSchema = z
  .string()
  .trim()
  .min(1, 'Informe o link.')
  .max(300)
  .regex(/^(\/(?!\/)\S*|https:\/\/\S+)$/, 'Use um caminho da loja (/eventos) ou um endereço https://.');

export const PainelBannerSchema = z.object({
  /** An uploaded photo's address (from `POST /home/banners/image/`) or one of the shop's images. */
  imagem: z
    .string()
    .trim()
    .regex(/^\/(?!\/)\S+$/, 'Envie a imagem do banner.')
    .max(300),
  texto: z.string().trim().min(3, 'Descreva a imagem do banner.').max(160),
  link: BannerLinkSchema,
});
export type PainelBanner = z.infer<typeof PainelBannerSchema>;

export const BannersSchema = z.object({ versao: z.string(), banners: z.array(PainelBannerSchema) });
export const BannersUpdateSchema = z.object({
  versao: ListVersionSchema,
  banners: z.array(PainelBannerSchema).max(8, 'No máximo 8 banners.'),
});
export type BannersUpdate = z.input<typeof BannersUpdateSchema>;

export const StockReasonSchema = z.enum(['entrada', 'venda_balcao', 'avaria', 'inventario'], {
  error: 'Escolha o motivo: entrada, venda balcão, avaria ou inventário.',
});
export type StockReason = z.infer<typeof StockReasonSchema>;

export const STOCK_REASON_LABELS: Record<StockReason, string> = {
  entrada: 'Entrada',
  venda_balcao: 'Venda balcão',
  avaria: 'Avaria',
  inventario: 'Inventário',
};

/**
 * Every kind of stock movement: the staff reasons above plus what the shop writes itself (opening
 * balance, a charge's hold, its sale, its release, a cancellation, a return). The sum of a colour ×
 * size's movements is its stock (docs/decisions/0033-stock-ledger-and-daily-orders.md).
 */
export const STOCK_MOVEMENT_KINDS = [
  'entrada',
  'venda_balcao',
  'avaria',
  'inventario',
  'saldo_inicial',
  'reserva',
  'venda',
  'liberacao',
  'cancelamento',
  'devolucao',
  'troca_reserva',
  'troca_liberacao',
] as const satisfies readonly [StockReason, ...string[]];
export const StockMovementKindSchema = z.enum(STOCK_MOVEMENT_KINDS);
export type StockMovementKind = z.infer<typeof StockMovementKindSchema>;

export const STOCK_MOVEMENT_LABELS: Record<StockMovementKind, string> = {
  ...STOCK_REASON_LABELS,
  saldo_inicial: 'Saldo inicial',
  reserva: 'Reserva (pagamento criado)',
  venda: 'Venda (reserva paga)',
  liberacao: 'Liberação (pagamento expirado ou recusado)',
  cancelamento: 'Cancelamento',
  devolucao: 'Devolução',
  troca_reserva: 'Troca (unidade reservada para o cliente)',
  troca_liberacao: 'Troca recusada ou vencida (unidade liberada)',
};

/**
 * `ajustar` adds a signed amount (the safe choice while checkouts run); `definir` sets the counted
 * quantity, the inventory case.
 */
export const StockChangeSchema = z.object({
  product_id: z.number().int().positive(),
  color_id: z.number().int().positive(),
  size_id: z.number().int().positive(),
  modo: z.enum(['ajustar', 'definir']),
  quantidade: z.number().int().min(-100_000).max(100_000),
  motivo: StockReasonSchema,
  observacao: z.string().trim().max(300).default(''),
});
export type StockChange = z.input<typeof StockChangeSchema>;

export const StockMovementSchema = z.object({
  id: z.number().int(),
  delta: z.number().int(),
  quantity_after: z.number().int(),
  reason: StockMovementKindSchema,
  note: z.string(),
  staff_email: z.string().nullable(),
  /** The order the movement belongs to, when there is one (a hold links to it once it is paid). */
  order_id: z.number().int().nullable(),
  at: z.string(),
});

export const StockComboQuerySchema = z.object({
  product_id: z.coerce.number().int().positive(),
  color_id: z.coerce.number().int().positive(),
  size_id: z.coerce.number().int().positive(),
});

export const LowStockQuerySchema = z.object({ limite: z.coerce.number().int().min(0).max(1000).default(3) });

export const LowStockItemSchema = z.object({
  product_id: z.number().int(),
  product_name: z.string(),
  color: z.string(),
  color_id: z.number().int(),
  size: z.string(),
  size_id: z.number().int(),
  quantity: z.number().int(),
});

export const ParticipantQuerySchema = z.object({
  categoria: z.coerce.number().int().positive().optional(),
  dia: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use aaaa-mm-dd.')
    .optional(),
  busca: z.string().trim().max(100).optional(),
  /** `pendente`: kit not picked up and registration standing; `cancelada`: cancelled by staff. */
  status: z.enum(['retirado', 'pendente', 'cancelada']).optional(),
});
export type ParticipantQuery = z.infer<typeof ParticipantQuerySchema>;

export const CheckinInfoSchema = z.object({ at: z.string(), staff_name: z.string() }).nullable();

export const PainelParticipantSchema = z.object({
  id: z.number().int(),
  evento: z.number().int(),
  nome_completo: z.string(),
  cpf: z.string(),
  data_nascimento: z.string(),
  genero: z.string(),
  email: z.string(),
  numero_contato: z.string(),
  cidade: z.string(),
  estado: z.string(),
  categorias: z.array(
    z.object({
      id: z.number().int(),
      nome: z.string(),
      dia: z.string(),
      /** The bib staff assigned for this race, or null before they do. */
      numero_peito: z.number().int().nullable().default(null),
    }),
  ),
  total: z.number(),
  criado_em: z.string(),
  retirada: CheckinInfoSchema,
  /** Age group on the event day. */
  faixa_etaria: z.string(),
  /** Half price (60+) applied: check a document at kit pickup. */
  meia_entrada: z.boolean(),
  tamanho_camisa: z.string().nullable(),
  equipe: z.string().nullable(),
  /** Null for a member whose role does not see health data (HEALTH_DATA_PERMISSIONS). */
  pcd: z.boolean().nullable(),
  contato_emergencia: z.object({ nome: z.string(), telefone: z.string() }).nullable(),
  /** The shop order that paid for it (a cart), or null on the direct path. */
  pedido_id: z.number().int().nullable().default(null),
  /** Set once staff cancelled it: it holds no place, shirt nor category, and its kit is not handed out. */
  cancelamento: z.object({ em: z.string(), motivo: z.string().nullable() }).nullable().default(null),
});
export type PainelParticipant = z.infer<typeof PainelParticipantSchema>;

export const CategoryCountSchema = z.object({
  id: z.number().int(),
  nome: z.string(),
  dia: z.string(),
  inscritos: z.number().int(),
  retirados: z.number().int(),
  vagas_restantes: z.number().int(),
});

/** One registration as its back-office page shows it: the person, the payment and whether it can be cancelled. */
export const PainelRegistrationDetailSchema = z.object({
  inscricao: PainelParticipantSchema,
  evento: z.object({ id: z.number().int(), nome: z.string() }),
  pagamento: z.object({
    txid: z.string(),
    metodo: z.enum(['pix', 'cartao', 'gratuito']),
    status: z.string(),
    /** What the charge took, in reais (interest included): what a cancellation returns. */
    valor: z.number(),
    devolucao: z.object({ status: z.string(), valor: z.number(), motivo: z.string() }).nullable(),
  }),
  /**
   * Every registration a cancellation would cancel: the charge is returned whole, so all it paid
   * for (on the direct path, this one only).
   */
  cancela: z.array(z.object({ id: z.number().int(), nome_completo: z.string() })),
  /** Null when staff may cancel it here; otherwise why not (paid with an order, already cancelled, kit picked up). */
  impedimento_cancelamento: z.string().nullable(),
  /** What changed after the sale (cancel, transfer, changes), oldest first (docs/decisions/0041). */
  historico: z.array(z.string()).optional(),
});
export type PainelRegistrationDetail = z.infer<typeof PainelRegistrationDetailSchema>;

export const RegistrationCancelSchema = z.object({
  motivo: z.string().trim().max(300, 'Use no máximo 300 caracteres.').optional(),
});
export type RegistrationCancel = z.input<typeof RegistrationCancelSchema>;

export const ParticipantListSchema = z.object({
  results: z.array(PainelParticipantSchema),
  contagem: z.array(CategoryCountSchema),
});

const CheckinEventSchema = z
  .number({ error: 'Abra o check-in de um evento.' })
  .int('Abra o check-in de um evento.')
  .positive('Abra o check-in de um evento.');
const RegistrationNumberSchema = z
  .number({ error: 'Informe o número da inscrição.' })
  .int('Informe o número da inscrição.')
  .positive('Informe o número da inscrição.');

/**
 * Kit pickup at the check-in screen of one event (`evento`): the registration by its QR code's text
 * (the signed ticket, docs/decisions/0026) or, after a search by name or CPF, by its number. The
 * preview answers who it is; the check-in itself is the same request sent to `/checkin/`.
 */
export const CheckinRequestSchema = z
  .object({
    evento: CheckinEventSchema,
    codigo: z.string().trim().max(200, 'Este QR code não é de uma inscrição da Passada.').optional(),
    inscricao: RegistrationNumberSchema.optional(),
  })
  .refine((v) => v.codigo || v.inscricao, {
    message: 'Leia o QR code ou busque a inscrição pelo nome ou CPF.',
    path: ['codigo'],
  });
export type CheckinRequest = z.input<typeof CheckinRequestSchema>;

/** `GET /checkin/eventos/`: the events whose check-in the member may open. */
export const CheckinEventListSchema = z.array(
  z.object({ id: z.number().int(), nome_evento: z.string(), start_data_evento: z.string() }),
);
export type CheckinEventList = z.infer<typeof CheckinEventListSchema>;

/** What staff see before handing a kit out: who it is, for which event, and whether it can go. */
export const CheckinPreviewSchema = z.object({
  participante: PainelParticipantSchema,
  evento: z.object({ id: z.number().int(), nome: z.string() }),
  /** `pode_retirar`: confirm to hand the kit out; `retirado`: already handed out; `cancelada`: never. */
  situacao: z.enum(['pode_retirar', 'retirado', 'cancelada']),
  /** Paid at the 60+ half price (Estatuto do Idoso): check a document with a photo first. */
  confira_documento: z.boolean(),
});
export type CheckinPreview = z.infer<typeof CheckinPreviewSchema>;

/**
 * Undoing a kit pickup (handed to the wrong person, scanned by mistake): the reason is mandatory and
 * audited; `retirada_em` is the pickup being undone, so a newer one is never removed unseen.
 */
export const CheckinUndoSchema = z.object({
  evento: CheckinEventSchema,
  inscricao: RegistrationNumberSchema,
  retirada_em: z.iso.datetime({ offset: true, error: 'Informe a retirada que será desfeita.' }),
  motivo: z
    .string({ error: 'Informe o motivo.' })
    .trim()
    .min(3, 'Informe o motivo (pelo menos 3 letras).')
    .max(300, 'Use no máximo 300 caracteres.'),
});
export type CheckinUndo = z.input<typeof CheckinUndoSchema>;

const IsoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use aaaa-mm-dd.');

/** Total places or shirts: what the event offers, sold ones included (never what is left). */
const Capacity = (missing: string) =>
  z.number({ error: missing }).int(missing).min(0, missing).max(100_000, 'No máximo 100.000.');

const AgeLimit = z
  .number({ error: 'Informe a idade em anos.' })
  .int('Informe a idade em anos.')
  .min(0, 'Informe a idade em anos.')
  .max(120, 'No máximo 120 anos.');

/** An event as staff write it; dates of the event come from its days. Prices in reais. */
const EventFieldsSchema = z.object({
  nome_evento: z.string().trim().min(3, 'Informe o nome do evento.').max(120),
  organizer: z.string().trim().min(2, 'Informe o organizador.').max(120),
  city: z.string().trim().min(2, 'Informe a cidade.').max(80),
  state: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2}$/, 'Use a sigla do estado (ex.: CE).')
    .transform((v) => v.toUpperCase()),
  prazo_inscricao: IsoDate,
  hora_evento: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Use hh:mm.'),
  descricao_evento: z.string().trim().min(1, 'Informe a descrição.').max(5000),
  regulamento: z.string().trim().min(1, 'Informe o regulamento.').max(50_000),
  /** URL of a photo sent to /events/image/; empty keeps (or draws) the generated poster. */
  imagem_evento: z.string().max(200).optional(),
  /**
   * Kit shirt sizes; absent keeps the stored ones. A size keeps its id (and its reservations).
   * `capacidade` is the total of shirts of the size; the server works out how many are left from it
   * and the shirts sold or held at the moment it saves.
   */
  kit_tamanhos: z
    .array(
      z.object({
        id: z.number().int().positive().optional(),
        tamanho: z.string().trim().min(1, 'Informe o tamanho.').max(20),
        capacidade: Capacity('Informe o total de camisas do tamanho.'),
      }),
    )
    .max(20)
    .optional(),
  kit_local_retirada: z.string().trim().max(300).optional(),
  kit_horarios_retirada: z.string().trim().max(1000).optional(),
  /** The event's own termo; empty uses the standard one. */
  termo_responsabilidade: z.string().trim().max(20_000).optional(),
  oferece_pcd: z.boolean().optional(),
  dias_evento: z
    .array(
      z.object({
        data: IsoDate,
        categorias: z
          .array(
            z.object({
              id: z.number().int().positive().optional(),
              nome_categoria: z.string().trim().min(1, 'Informe o nome da categoria.').max(80),
              preco_inscricao: z.number().min(0, 'Preço inválido.').max(10_000),
              /** Total places of the category, sold ones included; what is left follows from it. */
              capacidade: Capacity('Informe o total de vagas da categoria.'),
              /** Age limits on the race day; null or absent is none (absent on an edit clears it too). */
              idade_minima: AgeLimit.nullable().optional(),
              idade_maxima: AgeLimit.nullable().optional(),
              /** Price lots in order; absent keeps the stored ones, [] removes them. */
              lotes: z
                .array(
                  z.object({
                    nome: z.string().trim().min(1, 'Informe o nome do lote.').max(40),
                    preco_inscricao: z.number().min(0, 'Preço inválido.').max(10_000),
                    ate_data: IsoDate.nullable().optional(),
                    ate_inscricoes: z
                      .number()
                      .int()
                      .positive('Informe um número de inscrições.')
                      .nullable()
                      .optional(),
                  }),
                )
                .max(10)
                .optional(),
            }),
          )
          .min(1, 'Cada dia precisa de pelo menos uma categoria.'),
      }),
    )
    .min(1, 'Informe pelo menos um dia de evento.'),
});

function checkEventDates(e: z.output<typeof EventFieldsSchema>, ctx: z.RefinementCtx) {
  const dates = e.dias_evento.map((d) => d.data);
  if (new Set(dates).size !== dates.length)
    ctx.addIssue({ code: 'custom', path: ['dias_evento'], message: 'Cada dia aparece uma vez.' });
  for (const [d, day] of e.dias_evento.entries())
    for (const [k, c] of day.categorias.entries())
      if (c.idade_minima != null && c.idade_maxima != null && c.idade_minima > c.idade_maxima)
        ctx.addIssue({
          code: 'custom',
          path: ['dias_evento', d, 'categorias', k, 'idade_maxima'],
          message: 'A idade máxima não pode ser menor que a mínima.',
        });
  const first = [...dates].sort()[0];
  if (first && e.prazo_inscricao > first)
    ctx.addIssue({
      code: 'custom',
      path: ['prazo_inscricao'],
      message: 'O prazo termina até o primeiro dia do evento.',
    });
}

/** A new event (POST /api/painel/events/). */
export const EventInputSchema = EventFieldsSchema.superRefine(checkEventDates);

/** An edit (PUT /api/painel/events/{id}/): the whole form and the version it was opened with. */
export const EventUpdateSchema = EventFieldsSchema.extend({ versao: EditVersionSchema }).superRefine(
  checkEventDates,
);
export type EventUpdate = z.input<typeof EventUpdateSchema>;
export type EventInput = z.input<typeof EventInputSchema>;

/** Read-only next to a capacity in the form: how many are sold or held for a payment, and how many are left. */
interface Occupancy {
  /** Sold or held by a payment in progress (its places come back if it expires). */
  vendidas: number;
  restantes: number;
}

/**
 * An event as the back office edits it (`GET /api/painel/events/{id}/`): the fields of EventUpdateSchema
 * as stored, so the form sends them back unchanged: each category's own price (not the lot in force),
 * its lots and its total places, the kit sizes with their ids and totals, the event's own termo (empty
 * when it uses the standard one), its uploaded image (empty when it shows the generated poster) and the
 * version to send back. Sales change `vendidas`/`restantes`, never `capacidade` nor `versao`.
 */
export type PainelEvent = Omit<z.output<typeof EventFieldsSchema>, 'dias_evento' | 'kit_tamanhos'> & {
  id: number;
  versao: number;
  imagem_evento: string;
  kit_tamanhos: Array<{ id: number; tamanho: string; capacidade: number } & Occupancy>;
  kit_local_retirada: string;
  kit_horarios_retirada: string;
  termo_responsabilidade: string;
  oferece_pcd: boolean;
  /** Staff closed registrations by hand (POST /events/{id}/inscricoes/ reopens them). */
  inscricoes_fechadas: boolean;
  dias_evento: Array<{
    data: string;
    categorias: Array<
      z.output<typeof EventFieldsSchema>['dias_evento'][number]['categorias'][number] & {
        id: number;
        idade_minima: number | null;
        idade_maxima: number | null;
      } & Occupancy
    >;
  }>;
};

/** Closing or reopening an event's registrations by hand (POST /api/painel/events/{id}/inscricoes/). */
export const RegistrationsSwitchSchema = z.object({ abertas: z.boolean() });
export type RegistrationsSwitch = z.input<typeof RegistrationsSwitchSchema>;

/**
 * Assigning bibs (números de peito) to an event's standing registrations, sorted by name the pt-BR way
 * (POST /api/painel/events/{id}/numeros-de-peito/): one sequence from `inicio`, or one range per
 * category (`faixas`, each from its own first number). Every assignment replaces the earlier one.
 */
export const BibAssignmentSchema = z.discriminatedUnion('modo', [
  z.object({
    modo: z.literal('sequencia'),
    inicio: z
      .number({ error: 'Informe o primeiro número.' })
      .int()
      .min(1, 'Comece em 1 ou mais.')
      .max(999_999),
  }),
  z.object({
    modo: z.literal('categorias'),
    faixas: z
      .array(
        z.object({
          categoria: z.number().int().positive(),
          inicio: z
            .number({ error: 'Informe o primeiro número.' })
            .int()
            .min(1, 'Comece em 1 ou mais.')
            .max(999_999),
        }),
      )
      .min(1, 'Informe a faixa de pelo menos uma categoria.'),
  }),
]);
export type BibAssignment = z.input<typeof BibAssignmentSchema>;

/** What an assignment did: how many bibs per category, first and last. */
export const BibResultSchema = z.object({
  categorias: z.array(
    z.object({
      id: z.number().int(),
      nome: z.string(),
      quantidade: z.number().int(),
      primeiro: z.number().int().nullable(),
      ultimo: z.number().int().nullable(),
    }),
  ),
});
export type BibResult = z.infer<typeof BibResultSchema>;

/** Shirts to order per size, from the standing registrations' kit sizes (GET /events/{id}/camisas/). */
export const ShirtReportSchema = z.object({
  tamanhos: z.array(z.object({ tamanho: z.string(), quantidade: z.number().int() })),
  total: z.number().int(),
});
export type ShirtReport = z.infer<typeof ShirtReportSchema>;
/**
 * `POST /clientes/busca/`: a customer by part of the name or e-mail, or by CPF (digits, any
 * punctuation). A POST so the CPF travels in the body and never in a logged URL.
 */
export const CustomerSearchSchema = z.object({
  busca: z.string().trim().min(2, 'Digite pelo menos 2 letras.').max(120),
  page: z.coerce.number().int().min(1).default(1),
});
export type CustomerSearch = z.input<typeof CustomerSearchSchema>;

export const CustomerSchema = z.object({
  id: z.number().int(),
  nome: z.string(),
  email: z.string(),
  username: z.string(),
  criado_em: z.string(),
  /** Erased on request or by the person (LGPD): the row stays, anonymised. */
  excluida: z.boolean(),
});
export type Customer = z.infer<typeof CustomerSchema>;

export const CustomerPageSchema = z.object({ results: z.array(CustomerSchema), count: z.number().int() });

export const CustomerDetailSchema = z.object({
  cliente: CustomerSchema,
  pedidos: z.array(
    z.object({ id: z.number().int(), data: z.string(), status: z.string(), total: z.number() }),
  ),
  inscricoes: z.array(
    z.object({
      id: z.number().int(),
      evento: z.string(),
      participante: z.string(),
      criada_em: z.string(),
      cancelada: z.boolean(),
    }),
  ),
});
export type CustomerDetail = z.infer<typeof CustomerDetailSchema>;

/** `POST /clientes/:id/excluir/`: erasure on the person's request, with how it was asked. */
export const CustomerEraseSchema = z.object({
  motivo: z
    .string({ error: 'Informe como a pessoa pediu a exclusão.' })
    .trim()
    .min(3, 'Informe como a pessoa pediu a exclusão.')
    .max(300, 'Use no máximo 300 caracteres.'),
});

/**
 * `GET /mensagens/`: every kind of message the shop sends, rendered with demo data exactly as the
 * jobs send it (docs/decisions/0045). `html` shows images attached by Content-ID inline, for the preview.
 */
export const MessagePreviewListSchema = z.array(
  z.object({
    tipo: z.string(),
    nome: z.string(),
    mensagens: z.array(
      z.object({
        para: z.string(),
        assunto: z.string(),
        html: z.string(),
        texto: z.string(),
        anexos: z.array(z.object({ nome: z.string(), tipo: z.string() })),
      }),
    ),
  }),
);
export type MessagePreviewList = z.infer<typeof MessagePreviewListSchema>;

/** `GET /mensagens/registro/?canal=`: which channel's record to list; absent, both. */
export const MessageLogQuerySchema = z.object({
  canal: z.enum(['email', 'whatsapp'], { error: 'Canal inválido: use email ou whatsapp.' }).optional(),
});

/**
 * `GET /mensagens/registro/`: the last messages the shop tried to send (docs/decisions/0045, 0050):
 * whether each went (`situacao`), and for WhatsApp what the delivery webhook reported since
 * (`entrega`: enviada, entregue, lida or falhou, with the reason).
 */
export const MessageLogListSchema = z.array(
  z.object({
    id: z.number(),
    canal: z.enum(['email', 'whatsapp']),
    tipo: z.string(),
    para: z.string(),
    situacao: z.enum(['sent', 'failed', 'opted_out']),
    tentativas: z.number(),
    erro: z.string().nullable(),
    entrega: z.enum(['sent', 'delivered', 'read', 'failed']).nullable(),
    entrega_em: z.string().nullable(),
    erro_entrega: z.string().nullable(),
    criada_em: z.string(),
  }),
);
export type MessageLogList = z.infer<typeof MessageLogListSchema>;

/**
 * `POST /mensagens/descadastros/`: a person asked the shop, another way than writing PARAR (phone,
 * e-mail, at the counter), to receive no more WhatsApp messages (docs/decisions/0050). The number is
 * stored as the Cloud API writes it (`55` + DDD + number).
 */
export const WhatsAppOptOutCreateSchema = z.object({
  telefone: z
    .string({ error: 'Informe o número do WhatsApp.' })
    .trim()
    .refine(isValidPhone, 'Digite um telefone válido com DDD.')
    .transform((v) => `55${normalizePhone(v)}`),
  motivo: z
    .string({ error: 'Informe como a pessoa pediu.' })
    .trim()
    .min(3, 'Informe como a pessoa pediu (ao menos 3 letras).')
    .max(200, 'O motivo pode ter até 200 caracteres.'),
});
export type WhatsAppOptOutCreate = z.input<typeof WhatsAppOptOutCreateSchema>;

/** One number that receives no more WhatsApp: by its own PARAR (`whatsapp`) or recorded by staff (`equipe`). */
export const WhatsAppOptOutSchema = z.object({
  telefone: z.string(),
  pedido: z.string(),
  origem: z.enum(['whatsapp', 'equipe']),
  pedido_em: z.string(),
  registrado_por: z.string().nullable(),
});
export type WhatsAppOptOut = z.infer<typeof WhatsAppOptOutSchema>;
/** `GET /mensagens/descadastros/`: the last 200, newest first. */
export const WhatsAppOptOutListSchema = z.array(WhatsAppOptOutSchema);
export type WhatsAppOptOutList = z.infer<typeof WhatsAppOptOutListSchema>;

/** `GET /clientes/incidente.csv`: the window of a security incident, as dates (aaaa-mm-dd, store calendar). */
export const IncidentWindowSchema = z
  .object({
    desde: z.iso.date({ error: 'Informe a data de início (aaaa-mm-dd).' }),
    ate: z.iso.date({ error: 'Informe a data de fim (aaaa-mm-dd).' }),
  })
  .refine((w) => w.desde <= w.ate, { message: 'O início deve vir antes do fim.', path: ['ate'] });
