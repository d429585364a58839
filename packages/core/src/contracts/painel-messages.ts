import { isValidPhone, normalizePhone } from '../phone.ts';
import { z } from '../zod.ts';

/** The back office's messages: previews, the record of what was sent, WhatsApp opt-outs. */

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

/**
 * `GET|PUT|DELETE /api/painel/mensagens/logo/`: the logo in the e-mails' header (docs/decisions/0045,
 * later): `personalizado` once staff sent one, and the address the e-mails show (`url`, on the shop).
 */
export const MailLogoSchema = z.object({ personalizado: z.boolean(), url: z.string() });
export type MailLogo = z.infer<typeof MailLogoSchema>;
