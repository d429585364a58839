import { z } from '../zod.ts';
import { ProductCategorySchema } from './catalog.ts';
import { CouponCodeSchema } from './coupon-code.ts';
import { FinalidadeSchema } from './payments.ts';
import { isRealIsoDate } from './registrations.ts';

/**
 * Discount coupons (cupons de desconto) on the wire: the code a buyer types, the preview the checkout
 * shows before paying, the refusals, and the back office's coupon form (`/api/painel/cupons/`).
 */

/** `POST /api/cupons/validar/`: the coupon and the draft it would pay for (as sent to pagar-pix). */
export const CouponPreviewRequestSchema = z.object({
  cupom: CouponCodeSchema,
  finalidade: FinalidadeSchema,
  pedido: z.unknown().optional(),
  inscricao: z.unknown().optional(),
});
export type CouponPreviewRequest = z.input<typeof CouponPreviewRequestSchema>;

/** The server's price with the coupon, in reais: what the charge will be created for. */
export const CouponPreviewSchema = z.object({
  cupom: z.string(),
  /** What the coupon takes off. */
  desconto: z.number(),
  /** The total before the coupon (the 60+ half price, when better, is already in it). */
  total_sem_desconto: z.number(),
  /** What will be charged (Pix; card interest is added on top of it). */
  total: z.number(),
  /** "10% em produtos da loja", "R$ 20,00 na inscrição". */
  descricao: z.string(),
});
export type CouponPreview = z.infer<typeof CouponPreviewSchema>;

export const CouponKindSchema = z.enum(['percentual', 'fixo']);
export type CouponKind = z.infer<typeof CouponKindSchema>;
export const CouponScopeSchema = z.enum(['loja', 'corridas']);
export type CouponScope = z.infer<typeof CouponScopeSchema>;

const optionalDate = z
  .string()
  .refine(isRealIsoDate, 'Use uma data válida (aaaa-mm-dd).')
  .nullable()
  .optional()
  .transform((v) => v ?? null);
const optionalLimit = z
  .number()
  .int('Use um número inteiro.')
  .min(1, 'Use ao menos 1, ou deixe em branco para sem limite.')
  .max(1_000_000)
  .nullable()
  .optional()
  .transform((v) => v ?? null);
const ids = z.array(z.number().int().positive()).max(200).default([]);

/** The back office's coupon form. Money in reais; dates are store days (America/Fortaleza), inclusive. */
export const CouponInputSchema = z
  .object({
    codigo: CouponCodeSchema.pipe(
      z
        .string()
        .min(3, 'Use de 3 a 40 caracteres.')
        .regex(/^[A-Z0-9_-]+$/, 'Use letras sem acento, números, - e _.'),
    ),
    descricao: z.string().trim().max(200).default(''),
    tipo: CouponKindSchema,
    /** Percent (1–100) when `percentual`; reais when `fixo`. */
    valor: z.number({ error: 'Informe o valor.' }).positive('Informe um valor maior que zero.').max(100_000),
    valido_de: optionalDate,
    valido_ate: optionalDate,
    usos_max: optionalLimit,
    usos_por_cpf: optionalLimit,
    usos_por_conta: optionalLimit,
    valor_minimo: z
      .number()
      .min(0)
      .max(1_000_000)
      .nullable()
      .optional()
      .transform((v) => v || null),
    escopo: CouponScopeSchema,
    /** Shop coupons: only these product categories (empty: every product). */
    categorias_produto: z.array(ProductCategorySchema).max(10).default([]),
    /** Race coupons: only these events and/or event categories (empty: every one). */
    eventos: ids,
    categorias_evento: ids,
    ativo: z.boolean().default(true),
  })
  .superRefine((v, ctx) => {
    if (v.tipo === 'percentual' && (v.valor > 100 || !Number.isInteger(v.valor)))
      ctx.addIssue({ code: 'custom', path: ['valor'], message: 'Use um percentual inteiro de 1 a 100.' });
    if (v.tipo === 'fixo' && Math.round(v.valor * 100) !== Number((v.valor * 100).toFixed(2)))
      ctx.addIssue({ code: 'custom', path: ['valor'], message: 'Use no máximo dois decimais.' });
    if (v.valido_de && v.valido_ate && v.valido_ate < v.valido_de)
      ctx.addIssue({ code: 'custom', path: ['valido_ate'], message: 'O fim vem antes do início.' });
    if (v.escopo === 'loja' && (v.eventos.length > 0 || v.categorias_evento.length > 0))
      ctx.addIssue({ code: 'custom', path: ['eventos'], message: 'Cupom da loja não escolhe eventos.' });
    if (v.escopo === 'corridas' && v.categorias_produto.length > 0)
      ctx.addIssue({
        code: 'custom',
        path: ['categorias_produto'],
        message: 'Cupom de corridas não escolhe categorias de produto.',
      });
  });
export type CouponInput = z.input<typeof CouponInputSchema>;
export type CouponFields = z.output<typeof CouponInputSchema>;

/** A coupon as the back office lists it, with its uses. */
export const PainelCouponSchema = z.object({
  id: z.number().int(),
  codigo: z.string(),
  descricao: z.string(),
  tipo: CouponKindSchema,
  valor: z.number(),
  valido_de: z.string().nullable(),
  valido_ate: z.string().nullable(),
  usos_max: z.number().int().nullable(),
  usos_por_cpf: z.number().int().nullable(),
  usos_por_conta: z.number().int().nullable(),
  valor_minimo: z.number().nullable(),
  escopo: CouponScopeSchema,
  categorias_produto: z.array(ProductCategorySchema),
  eventos: z.array(z.number().int()),
  categorias_evento: z.array(z.number().int()),
  ativo: z.boolean(),
  /** Paid purchases that used it, and charges still open holding a use. */
  usos_confirmados: z.number().int(),
  usos_reservados: z.number().int(),
  /** Money taken off by the confirmed uses, in reais. */
  desconto_total: z.number(),
  criado_em: z.string(),
});
export type PainelCoupon = z.infer<typeof PainelCouponSchema>;
export const PainelCouponListSchema = z.array(PainelCouponSchema);
