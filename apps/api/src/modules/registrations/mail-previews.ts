import type { MailPreview } from '../../providers/mail/index.ts';
import {
  participantLinkMail,
  referralRebateMail,
  transferDoneMail,
  transferInviteMail,
  waitlistMail,
} from './after-sale-mail.ts';
import { checkinTicketQr } from './checkin-token.ts';
import { registrationCancelledMails, registrationConfirmationMails } from './registration-mail.ts';

/**
 * Signs the demo ticket only: a preview's QR must never open a real registration at the kit desk,
 * so it is not signed with CHECKIN_TOKEN_SECRET.
 */
const PREVIEW_SECRET = 'previa-das-mensagens-nao-vale-na-retirada-do-kit';

const event = {
  id: 7,
  name: 'Corrida do Sol Nascente',
  startDate: '2026-12-13',
  time: '05:30',
  kitPickupPlace: 'Loja Passada, Av. Beira Mar, 100, Fortaleza',
  kitPickupHours: 'Sexta, 11/12: 10h às 19h\nSábado, 12/12: 9h às 17h',
};
const registration = {
  id: 3021,
  eventId: 7,
  fullName: 'João Exemplo',
  cpf: '40364478829',
  email: 'joao@example.com',
  couponCode: 'CORRIDA20',
  discountCents: 2000,
  totalCents: 10990,
  kitSize: 'M',
  seniorDiscount: false,
  orderId: null,
  cancelReason: 'Pedido do participante',
  team: null,
  teamBatchId: null,
};
const account = { email: 'maria@example.com', fullName: 'Maria Exemplo' };

/** The demo registration's ticket, signed with the preview secret. */
export async function previewTicketPng(): Promise<Buffer> {
  const qr = await checkinTicketQr(PREVIEW_SECRET, {
    registrationId: registration.id,
    eventId: event.id,
    nonce: 'previa-sem-valor-na-retirada',
  });
  return Buffer.from(qr.slice(qr.indexOf(',') + 1), 'base64');
}

/** The registrations module's e-mails with demo data, as the jobs build them (docs/decisions/0045). */
export const registrationMailPreviews: MailPreview[] = [
  {
    kind: 'inscricao.confirmada',
    label: 'Inscrição confirmada (com o QR da retirada do kit)',
    build: async (env) =>
      registrationConfirmationMails({
        event,
        registration,
        categories: ['10 km', 'Masculino 30–39'],
        account,
        qrPng: await previewTicketPng(),
        participantLink: `${env.publicUrl}/inscricoes/link/exemplo-de-link`,
      }),
  },
  {
    kind: 'inscricao.cancelada',
    label: 'Inscrição cancelada (Pix devolvido)',
    build: (env) =>
      registrationCancelledMails({
        env,
        event,
        registration,
        account,
        charge: { amountCents: 10990, method: 'pix' },
        refund: { amountCents: 10990 },
      }),
  },
  {
    kind: 'inscricao.transferencia-convite',
    label: 'Transferência: convite à nova pessoa',
    build: (env) => [
      transferInviteMail({
        env,
        transfer: {
          registrationId: registration.id,
          fromName: registration.fullName,
          toName: 'Ana Exemplo',
          toEmail: 'ana@example.com',
          feeCents: 2000,
          expiresAt: new Date('2026-12-01T15:00:00Z'),
        },
        eventName: event.name,
        link: `${env.publicUrl}/inscricoes/transferencia/exemplo-de-link`,
      }),
    ],
  },
  {
    kind: 'inscricao.transferida',
    label: 'Transferência concluída (a quem transferiu)',
    build: (env) => [
      transferDoneMail({
        env,
        to: { name: registration.fullName, email: registration.email },
        registrationId: registration.id,
        eventName: event.name,
        newHolder: { fullName: 'Ana Exemplo', cpf: '52998224725' },
      }),
    ],
  },
  {
    kind: 'inscricao.indicacao',
    label: 'Indicação: devolução paga (a quem indicou)',
    build: (env) => [
      referralRebateMail({
        env,
        to: { name: registration.fullName, email: registration.email },
        registrationId: registration.id,
        eventName: event.name,
        rebateCents: 2198,
      }),
    ],
  },
  {
    kind: 'inscricao.link-pessoal',
    label: 'Link pessoal da inscrição',
    build: (env) => [
      participantLinkMail({
        env,
        registration: { id: registration.id, fullName: registration.fullName, email: registration.email },
        url: `${env.publicUrl}/inscricoes/link/exemplo-de-link`,
      }),
    ],
  },
  ...(['entrou', 'oferta'] as const).map(
    (kind): MailPreview => ({
      kind: `lista-espera.${kind}`,
      label: kind === 'entrou' ? 'Lista de espera: entrada' : 'Lista de espera: vaga oferecida',
      build: (env) => [
        waitlistMail({
          env,
          kind,
          entry: {
            fullName: 'Ana Exemplo',
            email: 'ana@example.com',
            offerExpiresAt: kind === 'oferta' ? new Date('2026-12-02T15:00:00Z') : null,
          },
          event,
          categoryName: '10 km',
          position: 3,
          manage: `${env.publicUrl}/eventos/lista-espera/exemplo-de-link`,
        }),
      ],
    }),
  ),
];
