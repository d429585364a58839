import { formatIsoDateBR } from '@passada/core/calendar';
import { companyIdentityLine } from '@passada/core/company';
import { maskCpf } from '@passada/core/documents';
import { formatRegistrationPrice } from '@passada/core/events';
import { formatBRL } from '@passada/core/money';
import { escapeXml } from '@passada/core/text';
import type { Env } from '../../config/env.ts';
import type { MailMessage } from '../../providers/mail/index.ts';
import type { EventRow } from '../events/events.service.ts';
import type { RegistrationRow } from './registrations.repository.ts';

/** Under the QR code: it is the proof at kit pickup, so whoever holds a copy can take the kit. */
const QR_IS_PERSONAL =
  'Este QR code é pessoal e comprova a inscrição na retirada do kit: não o publique nem o compartilhe.';

type MailEvent = Pick<EventRow, 'id' | 'name' | 'startDate' | 'time' | 'kitPickupPlace' | 'kitPickupHours'>;
type Contact = { email: string; fullName: string };

const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * The confirmation e-mails of a registration: the participant's, and the account holder's when they
 * registered someone else. Each carries the signed kit-pickup QR as an attachment shown by Content-ID
 * (Gmail and others do not show `data:` images).
 */
export function registrationConfirmationMails(input: {
  event: MailEvent;
  registration: Pick<
    RegistrationRow,
    | 'id'
    | 'fullName'
    | 'cpf'
    | 'email'
    | 'couponCode'
    | 'discountCents'
    | 'totalCents'
    | 'kitSize'
    | 'seniorDiscount'
    | 'team'
    | 'teamBatchId'
  >;
  categories: string[];
  account: Contact | null;
  /** The kit-pickup ticket as a PNG. */
  qrPng: Buffer;
  /** The participant's own link to cancel or transfer (docs/decisions/0041): only in their e-mail. */
  participantLink?: string | null;
}): MailMessage[] {
  const { event, registration, account } = input;
  const lines = [
    `Evento: ${event.name}`,
    `Data: ${formatIsoDateBR(event.startDate)} às ${event.time}`,
    `Participante: ${registration.fullName} (CPF ${maskCpf(registration.cpf)})`,
    `Categorias: ${input.categories.join(', ')}`,
    ...(registration.couponCode
      ? [`Desconto (cupom ${registration.couponCode}): −${formatBRL(registration.discountCents)}`]
      : []),
    // A team's prepaid place (docs/decisions/0073): the team paid it, or a share and the runner the rest.
    registration.teamBatchId !== null && registration.team
      ? registration.totalCents > 0
        ? `Valor: ${formatBRL(registration.totalCents)} (a sua parte; a equipe ${registration.team} pagou o restante)`
        : `Valor: pago pela equipe ${registration.team}`
      : `Valor: ${formatRegistrationPrice(registration.totalCents)}`,
    `Inscrição nº ${registration.id}`,
    ...(registration.kitSize ? [`Camisa: ${registration.kitSize}`] : []),
    ...(registration.seniorDiscount
      ? ['Meia-entrada (60+): apresente um documento com foto na retirada do kit.']
      : []),
    ...(event.kitPickupPlace ? [`Retirada do kit: ${event.kitPickupPlace}`] : []),
    ...event.kitPickupHours
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean),
  ];
  const subject = `Inscrição confirmada: ${event.name}`;
  const recipients: Array<{ to: string; text: string[]; action?: { label: string; url: string } }> = [
    {
      to: registration.email,
      // The personal link is the shop's button in the HTML part, the address itself in the text part.
      ...(input.participantLink
        ? { action: { label: 'Cancelar ou transferir a inscrição', url: input.participantLink } }
        : {}),
      text: [
        `Olá, ${registration.fullName}!`,
        '',
        'Sua inscrição está confirmada.',
        '',
        ...lines,
        ...(input.participantLink
          ? [
              '',
              'Para cancelar ou transferir a inscrição, dentro das regras do evento (link pessoal):',
              input.participantLink,
            ]
          : []),
      ],
    },
  ];
  if (account && !sameAddress(account.email, registration.email))
    recipients.push({
      to: account.email,
      text: [
        `Olá, ${account.fullName}!`,
        '',
        `A inscrição que você fez para ${registration.fullName} está confirmada.`,
        '',
        ...lines,
      ],
    });
  const ticket = {
    filename: `inscricao-${registration.id}-qrcode.png`,
    content: input.qrPng,
    contentType: 'image/png',
    cid: `qrcode-inscricao-${registration.id}@passada`,
  };
  const html = (text: string[]) =>
    [
      ...text.map((line) => `<p style="margin:0 0 8px;">${escapeXml(line) || '&nbsp;'}</p>`),
      `<p>Apresente este QR code na retirada do kit:</p><p><img src="cid:${ticket.cid}" alt="QR code da inscrição nº ${registration.id}" width="200" height="200" style="background:#ffffff;padding:8px;"></p>`,
      `<p>${escapeXml(QR_IS_PERSONAL)}</p>`,
    ].join('\n');
  return recipients.map((r) => ({
    to: r.to,
    subject,
    text: [...r.text, '', `O QR code da retirada do kit segue anexo. ${QR_IS_PERSONAL}`].join('\n'),
    html: html(r.action ? r.text.filter((line) => line !== r.action!.url) : r.text),
    ...(r.action ? { action: r.action } : {}),
    attachments: [ticket],
  }));
}

/**
 * The e-mails telling people a registration was cancelled: the participant, and the account holder
 * when someone else. On the direct path they say how the money comes back; a registration cancelled
 * with its order only tells the participant (the buyer gets the order's e-mail with the refund), and
 * nobody when the participant is the buyer.
 */
export function registrationCancelledMails(input: {
  env: Pick<Env, 'STORE_NAME' | 'publicUrl'>;
  event: Pick<EventRow, 'id' | 'name' | 'startDate' | 'time'>;
  registration: Pick<
    RegistrationRow,
    'id' | 'fullName' | 'cpf' | 'email' | 'orderId' | 'cancelReason' | 'totalCents' | 'teamBatchId'
  >;
  account: Contact | null;
  charge: { amountCents: number; method: string } | null;
  refund: { amountCents: number } | null;
  /**
   * One participant of an order cancelled alone (docs/decisions/0041): told like a direct registration,
   * with the share of the order that comes back.
   */
  alone?: { refundCents: number } | null;
  /** What went back to whoever else paid for it (before a transfer): not the holder's money. */
  toOthersCents?: number;
}): MailMessage[] {
  const { env, event, registration, account, charge, refund, alone } = input;
  const toOthers = input.toOthersCents ?? 0;
  const inOrder = registration.orderId !== null && !alone;
  const amount = formatBRL(refund?.amountCents ?? charge?.amountCents ?? registration.totalCents);
  // A fee kept by the event's rules (docs/decisions/0035): the e-mail says what comes back.
  const whole =
    !refund || !charge || refund.amountCents === charge.amountCents ? 'do valor integral de ' : 'de ';
  // Nothing was paid for it (a free registration, or a cart of total zero): nothing to return.
  const nothingPaid = charge?.amountCents === 0 && toOthers === 0;
  const money = alone
    ? alone.refundCents > 0
      ? [
          `Pedimos a devolução de ${formatBRL(alone.refundCents)}, a parte desta inscrição no pedido nº ${registration.orderId}, pelo mesmo meio de pagamento.`,
        ]
      : ['Pelas regras de cancelamento do evento, não há valor a devolver.']
    : nothingPaid
      ? [
          registration.teamBatchId !== null
            ? 'A vaga foi paga pela equipe: não há valor a devolver a você. Enquanto a equipe puder usar as vagas, ela volta para a equipe.'
            : 'Esta inscrição era gratuita: não há valor a devolver.',
        ]
      : !refund && !inOrder
        ? [
            toOthers > 0
              ? 'Nada do que foi devolvido foi pago por você.'
              : 'Pelas regras de cancelamento do evento, não há valor a devolver.',
          ]
        : inOrder
          ? [`O pagamento do pedido nº ${registration.orderId} será devolvido a quem o pagou.`]
          : charge?.method === 'cartao'
            ? [
                `Pedimos à operadora o estorno ${whole}${amount} no mesmo cartão de crédito.`,
                'O estorno aparece na fatura do cartão em até duas faturas, conforme o banco emissor.',
              ]
            : [
                `Pedimos a devolução ${whole}${amount} por Pix, para a conta de onde ele saiu.`,
                'A devolução costuma chegar em poucos minutos e pode levar até 1 dia útil, conforme o seu banco.',
              ];
  const details = [
    `Evento: ${event.name}`,
    `Data: ${formatIsoDateBR(event.startDate)} às ${event.time}`,
    `Participante: ${registration.fullName} (CPF ${maskCpf(registration.cpf)})`,
    `Inscrição nº ${registration.id}`,
    ...(registration.cancelReason ? [`Motivo: ${registration.cancelReason}`] : []),
    '',
    'A vaga e a camisa do kit foram liberadas, e o QR code desta inscrição não vale mais para a retirada do kit.',
    ...money,
    ...(toOthers > 0
      ? [`O restante, ${formatBRL(toOthers)}, volta a quem o pagou, pelo mesmo meio de pagamento.`]
      : []),
    '',
    `Dúvidas? Responda a este e-mail. Acompanhe em ${env.publicUrl}/eventos/register/${event.id}/ja-me-inscrevi.`,
    '',
    companyIdentityLine(),
  ];
  const subject = `${env.STORE_NAME}: inscrição nº ${registration.id} cancelada`;
  const recipients = [
    {
      to: registration.email,
      text: [
        `Olá, ${registration.fullName}!`,
        '',
        `Sua inscrição em ${event.name} foi cancelada.`,
        '',
        ...details,
      ],
    },
  ];
  if (!inOrder && account && !sameAddress(account.email, registration.email))
    recipients.push({
      to: account.email,
      text: [
        `Olá, ${account.fullName}!`,
        '',
        `A inscrição que você fez para ${registration.fullName} em ${event.name} foi cancelada.`,
        '',
        ...details,
      ],
    });
  // In an order, the account holder paid and gets the order's own e-mail; only another participant is told here.
  if (inOrder && account && sameAddress(account.email, registration.email)) return [];
  return recipients.map((r) => ({ to: r.to, subject, text: r.text.join('\n') }));
}

/**
 * A cancelled registration's e-mail to someone who paid for it and no longer holds it (the original
 * payer of a transferred registration): the part of their payment that comes back to them.
 */
export function registrationCancelledPayerMail(input: {
  env: Pick<Env, 'STORE_NAME'>;
  event: Pick<EventRow, 'name' | 'startDate' | 'time'>;
  registration: Pick<RegistrationRow, 'id'>;
  payer: Contact;
  refund: { amountCents: number; method: string };
}): MailMessage {
  const { env, event, registration, payer, refund } = input;
  const amount = formatBRL(refund.amountCents);
  return {
    to: payer.email,
    subject: `${env.STORE_NAME}: inscrição nº ${registration.id} cancelada — devolução de ${amount}`,
    text: [
      `Olá, ${payer.fullName}!`,
      '',
      `A inscrição nº ${registration.id} em ${event.name} (${formatIsoDateBR(event.startDate)} às ${event.time}), que você pagou e depois foi transferida, foi cancelada.`,
      '',
      refund.method === 'cartao'
        ? `Pedimos à operadora o estorno de ${amount}, a sua parte do que foi pago, no mesmo cartão de crédito.`
        : `Pedimos a devolução de ${amount}, a sua parte do que foi pago, por Pix, para a conta de onde ele saiu.`,
      '',
      companyIdentityLine(),
    ].join('\n'),
  };
}
