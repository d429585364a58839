/**
 * The message templates the shop sends on WhatsApp. Outside the 24-hour service window a business
 * may only start a conversation with a template Meta approved beforehand, so each one here must be
 * created with this exact name, language `pt_BR`, category UTILITY (MARKETING where it says so) and this body in WhatsApp Manager
 * before `WHATSAPP_PROVIDER=cloud` is turned on (docs/operations.md). `{{n}}` are the body parameters,
 * in order; the provider sends them as `components[type=body].parameters`.
 */
export const WHATSAPP_TEMPLATES = {
  /** The Pix code of a charge just created, to pay from the phone. */
  pix_codigo: {
    body: 'Olá, {{1}}! Segue o Pix copia e cola de {{2}} para {{3}}. Ele vale até {{4}}:\n\n{{5}}\n\nDepois de pagar, a confirmação chega por aqui e por e-mail.',
    parameters: ['nome', 'valor', 'o que paga', 'validade', 'código Pix copia e cola'],
  },
  /** A registration confirmed, with the link to the page that shows the kit-pickup QR code. */
  inscricao_confirmada: {
    body: 'Olá, {{1}}! Sua inscrição nº {{2}} em {{3}} ({{4}}) está confirmada. O QR code da retirada do kit está em {{5}} (informe o seu CPF). Ele é pessoal: não o compartilhe.',
    parameters: ['nome', 'número da inscrição', 'evento', 'data', 'link da consulta'],
  },
  /** Sent `WHATSAPP_KIT_REMINDER_DAYS` days before the event. */
  retirada_kit_lembrete: {
    body: 'Olá, {{1}}! {{2}} é em {{3}}. Retire o seu kit em {{4}}: {{5}}. Leve o QR code da inscrição nº {{6}} ou um documento com foto.',
    parameters: ['nome', 'evento', 'data', 'local', 'horários', 'número da inscrição'],
  },
  /** A finisher's result published, with the link to their page (places and the certificate). */
  resultado_publicado: {
    body: 'Olá, {{1}}! O resultado da {{2}} foi publicado: {{3}}, tempo líquido {{4}}. Sua colocação e o certificado estão em {{5}}',
    parameters: ['nome', 'evento', 'prova', 'tempo líquido', 'link da página do resultado'],
  },
  /** Staff refused the proof of a special price (docs/decisions/0068): why, and what the runner may do. */
  comprovante_recusado: {
    body: 'Olá, {{1}}! O comprovante do preço especial {{2}} da inscrição nº {{3}} em {{4}} não foi aceito: {{5}}. Você pode manter a inscrição pelo preço do lote, pagando a diferença de {{6}} com Pix, ou cancelar com devolução integral, até a largada. Pague ou cancele em {{7}}',
    parameters: ['nome', 'preço especial', 'número da inscrição', 'evento', 'motivo', 'diferença', 'link'],
  },
  /** An order moved (packed, shipped with tracking, delivered) or its delivery was updated. */
  pedido_atualizado: {
    body: 'Olá, {{1}}! Pedido nº {{2}}: {{3}}. Acompanhe em {{4}}',
    parameters: ['nome', 'número do pedido', 'o que mudou', 'link'],
  },
  /**
   * A cart left unpaid (docs/decisions/0084), once, to an account that asked for reminders by WhatsApp.
   * Category MARKETING in WhatsApp Manager (a reminder to buy is not a transaction's update).
   */
  lembrete_carrinho: {
    body: 'Olá, {{1}}! Você deixou {{2}} no carrinho da {{3}}. Preços e estoque são os de agora, e o carrinho não reserva as peças. Continue em {{4}}. Para não receber mais, responda PARAR.',
    parameters: ['nome', 'o que ficou no carrinho', 'loja', 'link do carrinho'],
    category: 'MARKETING',
  },
  /** A registration left unpaid (docs/decisions/0084), once; MARKETING as the cart's. */
  lembrete_inscricao: {
    body: 'Olá, {{1}}! Sua inscrição em {{2}} ficou sem pagamento e não foi feita. {{3}} Inscreva-se em {{4}}. Para não receber mais, responda PARAR.',
    parameters: ['nome', 'evento', 'preço de hoje', 'link da inscrição'],
    category: 'MARKETING',
  },
} as const satisfies Record<string, { body: string; parameters: readonly string[]; category?: 'MARKETING' }>;

export type WhatsAppTemplateName = keyof typeof WHATSAPP_TEMPLATES;

/** The text the person reads: the approved body with the parameters in place. */
export function renderTemplate(name: WhatsAppTemplateName, parameters: string[]): string {
  return WHATSAPP_TEMPLATES[name].body.replace(
    /\{\{(\d+)\}\}/g,
    (_, n: string) => parameters[Number(n) - 1] ?? '',
  );
}

/**
 * A parameter as the Cloud API accepts it: no line breaks or tabs and never more than four spaces in a
 * row (error 132018), at most 1024 characters here (the whole body may not pass 1024 either).
 */
export function templateParameter(value: string): string {
  return value
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/ {2,}/g, ' ')
    .trim()
    .slice(0, 1024);
}
