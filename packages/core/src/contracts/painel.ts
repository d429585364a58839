import { z } from '../zod.ts';
import { ProductCategorySchema } from './catalog.ts';

/** The back office's contracts (`/api/painel/`): staff, audit, products, stock, check-in. */

export const StaffRoleSchema = z.enum(['admin', 'operador']);
export type StaffRole = z.infer<typeof StaffRoleSchema>;

export const StaffSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  role: StaffRoleSchema,
  totp_enabled: z.boolean(),
  active: z.boolean(),
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
});
export type StaffLogin = z.input<typeof StaffLoginSchema>;

export const StaffSessionSchema = z.object({
  token: z.string(),
  staff: StaffSchema,
  /** True when PAINEL_REQUIRE_2FA is on and this person still has to turn it on. */
  precisa_ativar_2fa: z.boolean(),
});

export const StaffMeSchema = z.object({ staff: StaffSchema, precisa_ativar_2fa: z.boolean() });

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

export const NewStaffSchema = z.object({
  email: z.email('E-mail inválido.').max(254),
  name: z.string().trim().min(2, 'Informe o nome.').max(120),
  role: StaffRoleSchema,
  password: PasswordSchema,
});
export type NewStaff = z.input<typeof NewStaffSchema>;

export const StaffPatchSchema = z.object({
  role: StaffRoleSchema.optional(),
  active: z.boolean().optional(),
});

export const AuditEntrySchema = z.object({
  id: z.number().int(),
  staff_email: z.string(),
  action: z.string(),
  entity: z.string(),
  entity_id: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  at: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;
export const AuditPageSchema = z.object({
  results: z.array(AuditEntrySchema),
  count: z.number().int(),
});
export const AuditQuerySchema = z.object({
  entity: z.string().max(40).optional(),
  page: z.coerce.number().int().min(1).default(1),
});

/** Product fields staff edit; price in reais as everywhere on the wire. */
export const ProductInputSchema = z.object({
  name: z.string().trim().min(2, 'Informe o nome.').max(120),
  description: z.string().trim().min(1, 'Informe a descrição.').max(5000),
  price: z.coerce
    .number({ error: 'Informe o preço.' })
    .positive('O preço deve ser maior que zero.')
    .max(100_000, 'Preço alto demais.'),
  category: ProductCategorySchema,
  aparecer_home: z.boolean().default(false),
  oculto: z.boolean().default(false),
  weight_grams: z.coerce.number().int().min(1).max(30_000).default(300),
  color_ids: z.array(z.number().int().positive()).max(30).default([]),
  size_ids: z.array(z.number().int().positive()).max(30).default([]),
});
export type ProductInput = z.input<typeof ProductInputSchema>;
export const ProductPatchSchema = ProductInputSchema.partial();

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
});

export const PainelProductSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  price: z.number(),
  category: ProductCategorySchema,
  aparecer_home: z.boolean(),
  oculto: z.boolean(),
  weight_grams: z.number().int(),
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

export const NewColorSchema = z.object({
  name: z.string().trim().min(2, 'Informe o nome da cor.').max(40),
  hex: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'Use o formato #rrggbb.'),
});
export const NewSizeSchema = z.object({
  name: z.string().trim().min(1, 'Informe o tamanho.').max(20),
  sort_order: z.number().int().min(0).max(1000).default(100),
});

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
  reason: StockReasonSchema,
  note: z.string(),
  staff_email: z.string().nullable(),
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
  categorias: z.array(z.object({ id: z.number().int(), nome: z.string(), dia: z.string() })),
  total: z.number(),
  criado_em: z.string(),
  retirada: CheckinInfoSchema,
  /** Age group on the event day. */
  faixa_etaria: z.string(),
  /** Half price (60+) applied: check a document at kit pickup. */
  meia_entrada: z.boolean(),
  tamanho_camisa: z.string().nullable(),
  equipe: z.string().nullable(),
  pcd: z.boolean(),
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
    metodo: z.enum(['pix', 'cartao']),
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

/** A check-in by the QR code's text (`PASSADA-INSCRICAO:<número>`) or by the registration number. */
export const CheckinRequestSchema = z
  .object({
    codigo: z.string().trim().max(100).optional(),
    inscricao: z
      .number()
      .int('Informe o número da inscrição.')
      .positive('Informe o número da inscrição.')
      .optional(),
  })
  .refine((v) => v.codigo || v.inscricao, { message: 'Leia o QR code ou informe o número da inscrição.' });

const IsoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use aaaa-mm-dd.');

/** An event as staff write it; dates of the event come from its days. Prices in reais. */
export const EventInputSchema = z
  .object({
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
    /** Kit shirt sizes; absent keeps the stored ones. A size keeps its id (and its reservations). */
    kit_tamanhos: z
      .array(
        z.object({
          id: z.number().int().positive().optional(),
          tamanho: z.string().trim().min(1, 'Informe o tamanho.').max(20),
          quantidade_disponivel: z.number().int().min(0, 'Quantidade inválida.').max(100_000),
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
                quantidade_disponivel: z.number().int().min(0, 'Vagas inválidas.').max(100_000),
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
  })
  .superRefine((e, ctx) => {
    const dates = e.dias_evento.map((d) => d.data);
    if (new Set(dates).size !== dates.length)
      ctx.addIssue({ code: 'custom', path: ['dias_evento'], message: 'Cada dia aparece uma vez.' });
    const first = [...dates].sort()[0];
    if (first && e.prazo_inscricao > first)
      ctx.addIssue({
        code: 'custom',
        path: ['prazo_inscricao'],
        message: 'O prazo termina até o primeiro dia do evento.',
      });
  });
export type EventInput = z.input<typeof EventInputSchema>;

/**
 * An event as the back office edits it (`GET /api/painel/events/{id}/`): the fields of EventInputSchema
 * as stored, so the form sends them back unchanged: each category's own price (not the lot in force),
 * its lots, the kit sizes with their ids, the event's own termo (empty when it uses the standard one) and
 * its uploaded image (empty when it shows the generated poster).
 */
export type PainelEvent = z.output<typeof EventInputSchema> & {
  id: number;
  imagem_evento: string;
  kit_tamanhos: Array<{ id: number; tamanho: string; quantidade_disponivel: number }>;
  kit_local_retirada: string;
  kit_horarios_retirada: string;
  termo_responsabilidade: string;
  oferece_pcd: boolean;
};
