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
/**
 * The PCD document of a special price (docs/decisions/0068) is health data too (LGPD art. 11 I): sent
 * only with this consent, apart from the PCD answer's.
 */
export const PCD_PROOF_CONSENT: ConsentText = {
  version: 'pcd-comprovante-2026-12-04',
  text:
    'Autorizo o uso do documento que comprova a deficiência (dado de saúde) somente para conferir o ' +
    'preço especial. Ele é visto apenas pela equipe autorizada da organização e apagado depois do evento.',
};

export const PCD_CONSENT: ConsentText = {
  version: 'pcd-2026-11-25',
  text:
    'Autorizo o uso da informação de que sou pessoa com deficiência (dado de saúde) somente para a ' +
    'categoria PCD e a acessibilidade do evento. Ela é vista apenas pela organização do evento e ' +
    'apagada depois dele.',
};
