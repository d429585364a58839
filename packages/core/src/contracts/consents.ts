/**
 * The consent texts the forms show, each with a version stored beside the time it was given (LGPD
 * art. 8: the controller proves consent). A changed text gets a new version; what was accepted
 * before keeps its own.
 */
export interface ConsentText {
  version: string;
  text: string;
}

/**
 * Opt-in to WhatsApp messages, at checkout and at registration (docs/decisions/0045). Replying PARAR
 * (or SAIR, STOP) revokes it for that number (docs/decisions/0050).
 */
export const WHATSAPP_CONSENT: ConsentText = {
  version: 'whatsapp-2026-11-26',
  text:
    'Quero receber pelo WhatsApp, no telefone informado, o código Pix, a confirmação com o QR code da ' +
    'retirada do kit, lembretes da retirada e atualizações da entrega. Posso desistir a qualquer ' +
    'momento respondendo PARAR no WhatsApp ou pelo contato da loja.',
};

/**
 * Consent to the PCD answer, health data (LGPD art. 11 I: specific and highlighted consent): what it
 * is used for and that it is erased after the event.
 */
export const PCD_CONSENT: ConsentText = {
  version: 'pcd-2026-11-25',
  text:
    'Autorizo o uso da informação de que sou pessoa com deficiência (dado de saúde) somente para a ' +
    'categoria PCD e a acessibilidade do evento. Ela é vista apenas pela organização do evento e ' +
    'apagada depois dele.',
};
