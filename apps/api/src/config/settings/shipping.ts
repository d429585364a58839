import { z } from 'zod';
import { cep } from './parsers.ts';

/** Shipping and CEP: the quote, labels and their tracking, the Correios reverse logistics, the CEP lookup. */
export const shippingSettings = {
  SHIPPING_PROVIDER: z.enum(['tabela', 'correios']).default('tabela'),
  /**
   * When an exchange's new units ship (docs/decisions/0040): `recebida` once the shop received the
   * returned ones (the default), or `postada` as soon as the buyer posted them.
   */
  EXCHANGE_SHIPS_ON: z.enum(['postada', 'recebida']).default('recebida'),
  SHIPPING_ORIGIN_CEP: cep.default('60165121'),
  CORREIOS_API_URL: z.url().default('https://api.correios.com.br'),
  CORREIOS_USER: z.string().optional(),
  CORREIOS_ACCESS_CODE: z.string().optional(),
  CORREIOS_POSTING_CARD: z.string().optional(),
  /**
   * Who sells the shipping labels: `offline` (the demo's, docs/decisions/0044), `melhorenvio`, or
   * `correios` (the contract's pré-postagem with the CORREIOS_* credentials, docs/decisions/0049).
   */
  LABEL_PROVIDER: z.enum(['offline', 'melhorenvio', 'correios']).default('offline'),
  /** The contract's product codes a pré-postagem is made with (they differ between contracts). */
  CORREIOS_SERVICE_PAC: z
    .string()
    .regex(/^\d{5}$/, 'cinco dígitos')
    .default('03298'),
  CORREIOS_SERVICE_SEDEX: z
    .string()
    .regex(/^\d{5}$/, 'cinco dígitos')
    .default('03220'),
  MELHOR_ENVIO_API_URL: z.url().default('https://melhorenvio.com.br/api/v2'),
  /** The OAuth2 access token of the shop's Melhor Envio account. */
  MELHOR_ENVIO_TOKEN: z.string().optional(),
  /** Melhor Envio asks every call to name the application and a technical contact e-mail. */
  MELHOR_ENVIO_USER_AGENT: z.string().min(1).default('Passada (contato@passada.com.br)'),
  /** How often the tracking of labels bought and not yet delivered is read (cron, store time zone). */
  SHIPPING_TRACKING_CRON: z.string().min(9).default('*/30 * * * *'),
  /** Orders one "Gerar etiquetas", "Imprimir etiquetas" or "Imprimir romaneios" takes at most. */
  LABELS_MAX_PER_REQUEST: z.coerce.number().int().min(1).max(500).default(50),
  /**
   * The Correios reverse-logistics web service (docs/decisions/0040), a contract of its own: set the
   * administrative code to use it (with SHIPPING_PROVIDER=correios); unset, staff issue return codes.
   */
  CORREIOS_REVERSA_URL: z
    .url()
    .default('https://cws.correios.com.br/logisticaReversaWS/logisticaReversaService/logisticaReversaWS'),
  CORREIOS_REVERSA_USER: z.string().optional(),
  CORREIOS_REVERSA_PASSWORD: z.string().optional(),
  CORREIOS_REVERSA_ADMIN_CODE: z.string().optional(),
  CORREIOS_REVERSA_SERVICE: z.string().optional(),
  CEP_PROVIDER: z.enum(['local', 'viacep']).default('local'),
  VIACEP_URL: z.url().default('https://viacep.com.br'),
};
