import { CARD_BRANDS } from '../card.ts';
import { z } from '../zod.ts';

/** What a charge pays for, as the browser names it. */
export const FinalidadeSchema = z.enum(['pedido', 'inscricao', 'troca', 'vagas_equipe']);
export type Finalidade = z.infer<typeof FinalidadeSchema>;

/** Money from the browser in reais (spec section 7); the server recomputes it and refuses a mismatch. */
const reais = z.number().positive().max(1_000_000);

const purposeFields = {
  finalidade: FinalidadeSchema,
  /** Order draft (when finalidade is 'pedido'); validated by the orders module. */
  pedido: z.unknown().optional(),
  /** Registration draft (when finalidade is 'inscricao'); validated by the events module. */
  inscricao: z.unknown().optional(),
  /** Exchange draft (when finalidade is 'troca': `{ solicitacao }`, the price difference); orders module. */
  troca: z.unknown().optional(),
  /** A captain's places for the team (when finalidade is 'vagas_equipe'); registrations module (0073). */
  vagas_equipe: z.unknown().optional(),
};

export const PixCreateRequestSchema = z.object({
  total: reais,
  descricao: z.string().max(140).optional(),
  ...purposeFields,
});
export type PixCreateRequest = z.infer<typeof PixCreateRequestSchema>;

export const PixCreateResponseSchema = z.object({
  /** PNG QR code as a data URI (`data:image/png;base64,…`), usable as an `<img src>`. */
  qrcode_base64: z.string(),
  pix_copiaecola: z.string(),
  txid: z.string(),
  /** What will be charged, in reais, as the server computed it. */
  valor: z.number(),
  /** ISO date-time after which the charge can no longer be paid. */
  expira_em: z.string(),
});
export type PixCreateResponse = z.infer<typeof PixCreateResponseSchema>;

/**
 * `POST /api/confirmar-gratuito/`: a registration or cart with nothing to pay (a free race, a 60+ half
 * price of R$ 0,01, a coupon that takes it all). `total` is what the browser showed, 0; the server
 * prices the draft again and answers 409 with `total_correto` when there is something to pay.
 */
export const FreeConfirmRequestSchema = z.object({
  total: z.number().min(0).max(1_000_000),
  ...purposeFields,
});
export type FreeConfirmRequest = z.infer<typeof FreeConfirmRequestSchema>;

/** What the free confirmation created; `txid` then answers like a paid charge's (status, order, registration). */
export const FreeConfirmResponseSchema = z.object({
  txid: z.string(),
  status: z.literal('CONCLUIDA'),
  pedido_id: z.number().int().optional(),
  inscricao_id: z.number().int().optional(),
  /** The team's places a captain's paid charge created (docs/decisions/0073). */
  vagas_equipe_id: z.number().int().optional(),
});
export type FreeConfirmResponse = z.infer<typeof FreeConfirmResponseSchema>;

export const PIX_CHARGE_STATUSES = [
  'ATIVA',
  'CONCLUIDA',
  'REMOVIDA_PELO_USUARIO_RECEBEDOR',
  'REMOVIDA_PELO_PSP',
  'EXPIRADA',
  'RECUSADA',
  /** Card pending at the provider (no answer in time, `waiting`, or `approved` not yet `paid`). */
  'EM_ANALISE',
  /** Paid, then returned to the payer: nothing was delivered. */
  'DEVOLVIDA',
  /** The provider could not create the charge; nothing was held. */
  'FALHOU',
] as const;
export type ChargeStatusName = (typeof PIX_CHARGE_STATUSES)[number];

export const TxidParamSchema = z.object({ txid: z.string().regex(/^[a-zA-Z0-9]{1,35}$/) });

export const PixStatusResponseSchema = z.object({
  status: z.enum(PIX_CHARGE_STATUSES),
  pedido_id: z.number().int().optional(),
  inscricao_id: z.number().int().optional(),
  /** The team's places a captain's paid charge created (docs/decisions/0073). */
  vagas_equipe_id: z.number().int().optional(),
  /** Why a card was refused, or why the payment was returned. */
  motivo: z.string().optional(),
  /** ISO date-time the provider stops accepting payment (Pix). */
  expira_em: z.string().optional(),
});
export type PixStatusResponse = z.infer<typeof PixStatusResponseSchema>;

export const CardPayRequestSchema = z.object({
  payment_token: z.string().min(1).max(200),
  name: z.string().min(1).max(100),
  cpf: z.string().min(11).max(18),
  phone: z.string().max(20).optional(),
  email: z.email(),
  produto: z.string().max(255).optional(),
  /** Price before interest, in reais. */
  total: reais,
  /** The per-instalment value the browser showed (centavos); informative, the server recomputes it. */
  installment: z.number().optional(),
  /** Number of instalments chosen, 1–12. */
  installments: z.number().int().min(1).max(12),
  /** The card holder's date of birth (YYYY-MM-DD); the card provider requires it. */
  birth: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Informe a data de nascimento no formato AAAA-MM-DD.'),
  ...purposeFields,
});
export type CardPayRequest = z.infer<typeof CardPayRequestSchema>;

export const CardPayResponseSchema = z.object({
  detalhes: z.object({
    data: z.object({
      /** 'paid': paid; 'em_analise': the provider has not decided yet (poll the status by `txid`). */
      status: z.string(),
      charge_id: z.string(),
      installments: z.number().int(),
      /** Each instalment, in centavos. */
      installment_value: z.number().int(),
      /** Amount charged, in centavos. */
      total: z.number().int(),
      /** installment × value / 100, in reais (spec section 9). */
      preco_juros: z.number(),
    }),
  }),
  pedido_id: z.number().int().optional(),
  inscricao_id: z.number().int().optional(),
  /** The team's places a captain's paid charge created (docs/decisions/0073). */
  vagas_equipe_id: z.number().int().optional(),
  /** The charge, for the status route. */
  txid: z.string(),
});
export type CardPayResponse = z.infer<typeof CardPayResponseSchema>;

export const CardBrandSchema = z.enum(CARD_BRANDS);

export const InstallmentsQuerySchema = z.object({
  brand: CardBrandSchema,
  /** Total in centavos, as the card provider takes it. */
  total: z.coerce.number().int().min(300).max(100_000_000),
});

export const InstallmentOptionSchema = z.object({
  installment: z.number().int(),
  has_interest: z.boolean(),
  value: z.number().int(),
  currency: z.string(),
  interest_percentage: z.number(),
});
export const InstallmentsResponseSchema = z.object({ installments: z.array(InstallmentOptionSchema) });
export type InstallmentsResponse = z.infer<typeof InstallmentsResponseSchema>;

/** Spec section 8: the card tokenizer's error shape. */
export const CardErrorSchema = z.object({
  code: z.number().int(),
  error: z.string(),
  error_description: z.string(),
});

/** Simulated tokenizer input: what `payment-token-efi`'s setCreditCardData takes, plus the total. */
export const CardTokenRequestSchema = z.record(z.string(), z.unknown());

export const CardTokenResponseSchema = z.object({ payment_token: z.string(), card_mask: z.string() });
export type CardTokenResponse = z.infer<typeof CardTokenResponseSchema>;

/** API Pix webhook body (docs/brazil.md): deliveries may repeat and arrive out of order. */
export const PixWebhookSchema = z.object({
  pix: z
    .array(
      z.looseObject({
        endToEndId: z.string().min(1).max(64),
        txid: z.string().min(1).max(35).optional(),
        valor: z.string().optional(),
        horario: z.string().optional(),
        /** Refunds of this Pix (Efí notifies their changes this way); read back, never taken as said. */
        devolucoes: z
          .array(z.looseObject({ id: z.string().max(35).optional() }))
          .max(100)
          .optional(),
      }),
    )
    .max(100),
});
export type PixWebhook = z.infer<typeof PixWebhookSchema>;

/** `Idempotency-Key` of a card payment attempt: one per attempt, the same on a retry. */
export const IdempotencyKeySchema = z.string().min(1).max(100);

/** A charge the account should know about: pending, refused or returned (last 30 days). */
export const PaymentListItemSchema = z.object({
  txid: z.string(),
  finalidade: FinalidadeSchema,
  metodo: z.enum(['pix', 'cartao', 'gratuito']),
  status: z.enum(PIX_CHARGE_STATUSES),
  /** Reais: for a card, what the buyer chose (interest of the instalments included) once the bank told it. */
  valor: z.number(),
  /** Card: the instalments chosen. */
  parcelas: z.number().int().positive().optional(),
  criado_em: z.string(),
  motivo: z.string().optional(),
  devolucao: z
    .object({
      /** EM_PROCESSAMENTO (requested), DEVOLVIDO or NAO_REALIZADO. */
      status: z.string(),
      /** Reais. */
      valor: z.number(),
      em: z.string(),
    })
    .optional(),
});
export const PaymentListResponseSchema = z.array(PaymentListItemSchema);
export type PaymentListItem = z.infer<typeof PaymentListItemSchema>;
