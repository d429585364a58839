import { z } from 'zod';
import { isNfeAccessKey } from '../nfe-key.ts';

export { isNfeAccessKey };

export const NFE_KEY_MESSAGE = 'Chave da NF-e inválida: são 44 dígitos, o último é o dígito verificador.';

const NfeKeySchema = z
  .string()
  .trim()
  .transform((v) => v.replace(/\D/g, ''))
  .refine(isNfeAccessKey, NFE_KEY_MESSAGE);

/** "Gerar etiquetas": the orders whose labels staff buy, each with its NF-e key when known. */
export const LabelPurchaseSchema = z.object({
  pedidos: z
    .array(
      z.object({
        id: z.number().int().positive(),
        chave_nfe: NfeKeySchema.optional(),
      }),
    )
    .min(1, 'Escolha ao menos um pedido.'),
});
export type LabelPurchase = z.input<typeof LabelPurchaseSchema>;

/** Each order's outcome: bought (now or before), being bought by someone else, or refused and why. */
export const LabelResultSchema = z.object({
  pedido: z.number().int(),
  situacao: z.enum(['comprada', 'em_andamento', 'erro']),
  codigo_rastreio: z.string().nullable(),
  erro: z.string().nullable(),
});
export type LabelResult = z.infer<typeof LabelResultSchema>;

export const LabelPurchaseResultSchema = z.object({ resultados: z.array(LabelResultSchema) });
export type LabelPurchaseResult = z.infer<typeof LabelPurchaseResultSchema>;

/** "Imprimir etiquetas": order ids separated by commas, as the list's selection sends them. */
export const LabelPrintQuerySchema = z.object({
  pedidos: z
    .string()
    .regex(/^\d+(,\d+)*$/, 'Informe os números dos pedidos separados por vírgula.')
    .transform((v) => [...new Set(v.split(',').map(Number))]),
});

/** Where the parcel stands, as the buyer is told (and e-mailed). */
export const TRACKING_STATE_LABEL = {
  aguardando_postagem: 'aguardando postagem',
  postado: 'postado',
  saiu_para_entrega: 'saiu para entrega',
  entregue: 'entregue',
} as const;

/**
 * An order's shipping label as staff see it on the order page: bought, cancelled with the order, or
 * still bought because the provider refused to cancel it (`cancelamento_recusado` says why).
 */
export const PainelLabelSchema = z.object({
  situacao: z.enum(['comprando', 'comprada', 'cancelada']),
  transportadora: z.string(),
  codigo_rastreio: z.string().nullable(),
  comprada_em: z.string().nullable(),
  cancelada_em: z.string().nullable(),
  cancelamento_recusado: z.string().nullable(),
});
export type PainelLabel = z.infer<typeof PainelLabelSchema>;
