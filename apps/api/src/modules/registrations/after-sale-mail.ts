import { formatIsoDateBR, formatStoreDateTime } from '@passada/core/calendar';
import { companyIdentityLine } from '@passada/core/company';
import { maskCpf } from '@passada/core/documents';
import { formatBRL } from '@passada/core/money';
import type { Env } from '../../config/env.ts';
import type { MailMessage } from '../../providers/mail/index.ts';

type MailEnv = Pick<Env, 'STORE_NAME'>;

/** To the new runner: the link to take over a registration (docs/decisions/0041). */
export function transferInviteMail(input: {
  env: MailEnv;
  transfer: {
    registrationId: number;
    fromName: string;
    toName: string;
    toEmail: string;
    feeCents: number;
    expiresAt: Date;
  };
  eventName: string;
  link: string;
}): MailMessage {
  const { env, transfer: t, eventName, link } = input;
  const fee =
    t.feeCents > 0
      ? `A taxa de transferência do evento é de ${formatBRL(t.feeCents)}.`
      : 'Não há taxa de transferência.';
  return {
    to: t.toEmail,
    subject: `${env.STORE_NAME}: uma inscrição em ${eventName} foi transferida para você`,
    text: [
      `Olá, ${t.toName}!`,
      '',
      `${t.fromName} transferiu para você a inscrição nº ${t.registrationId} em ${eventName}.`,
      'Para concluir, abra o link abaixo, preencha os seus dados, aceite o termo de responsabilidade e pague o que houver a pagar:',
      link,
      '',
      fee,
      'Se você tiver 60 anos ou mais no dia da prova, a meia-entrada vale; se a inscrição foi paga com meia-entrada e você não tiver direito a ela, a diferença é cobrada.',
      `O link vale até ${formatStoreDateTime(t.expiresAt)}.`,
      '',
      'Se você não esperava este e-mail, ignore-o.',
    ].join('\n'),
  };
}

/** To the previous holder: the registration now belongs to the new runner, and the old QR is void. */
export function transferDoneMail(input: {
  env: MailEnv;
  to: { name: string; email: string };
  registrationId: number;
  eventName: string;
  newHolder: { fullName: string; cpf: string };
}): MailMessage {
  const { env, to, registrationId, eventName, newHolder } = input;
  return {
    to: to.email,
    subject: `${env.STORE_NAME}: inscrição nº ${registrationId} transferida`,
    text: [
      `Olá, ${to.name}!`,
      '',
      `A transferência da sua inscrição nº ${registrationId} em ${eventName} para ${newHolder.fullName} (CPF ${maskCpf(newHolder.cpf)}) foi concluída.`,
      'O QR code que você recebeu não vale mais para a retirada do kit; a nova pessoa recebeu o dela.',
      '',
      'Dúvidas? Responda a este e-mail.',
    ].join('\n'),
  };
}

/** To the participant: the personal link to see, cancel or transfer their registration. */
export function participantLinkMail(input: {
  env: MailEnv;
  registration: { id: number; fullName: string; email: string };
  url: string;
}): MailMessage {
  const { env, registration, url } = input;
  return {
    to: registration.email,
    subject: `${env.STORE_NAME}: o link da sua inscrição nº ${registration.id}`,
    text: [
      `Olá, ${registration.fullName}!`,
      '',
      'Por este link você vê a sua inscrição e, dentro das regras do evento, pode cancelá-la ou transferi-la para outra pessoa:',
      url,
      '',
      'O link é pessoal: não o compartilhe. Os links enviados antes deste não valem mais.',
    ].join('\n'),
  };
}

/** The waitlist's e-mails (docs/decisions/0042): joining, with the position, and an offer held until a time. */
export function waitlistMail(input: {
  env: MailEnv;
  kind: 'entrou' | 'oferta';
  entry: { fullName: string; email: string; offerExpiresAt: Date | null };
  event: { name: string; startDate: string; time: string };
  categoryName: string;
  position: number | null;
  manage: string;
}): MailMessage {
  const { env, kind, entry, event, categoryName, manage } = input;
  const when = entry.offerExpiresAt ? formatStoreDateTime(entry.offerExpiresAt) : '';
  const lines =
    kind === 'entrou'
      ? [
          `Olá, ${entry.fullName}!`,
          '',
          `Você entrou na lista de espera de ${event.name} (${categoryName}), na posição ${input.position ?? '-'}.`,
          'Quando uma vaga for liberada, ela será oferecida por e-mail a quem estiver em primeiro na fila.',
          '',
          `Veja sua posição ou saia da lista: ${manage}`,
        ]
      : [
          `Olá, ${entry.fullName}!`,
          '',
          `Uma vaga em ${event.name} (${categoryName}) foi liberada e está reservada para você até ${when}.`,
          'Para ficar com ela, faça a inscrição e o pagamento dentro desse prazo; depois dele, a vaga passa ao próximo da fila.',
          '',
          `Aceitar a vaga: ${manage}`,
        ];
  return {
    to: entry.email,
    subject:
      kind === 'entrou'
        ? `${env.STORE_NAME}: você está na lista de espera de ${event.name}`
        : `${env.STORE_NAME}: uma vaga em ${event.name} está reservada para você`,
    text: [
      ...lines,
      '',
      `Evento: ${event.name}, ${formatIsoDateBR(event.startDate)} às ${event.time}`,
      '',
      companyIdentityLine(),
    ].join('\n'),
  };
}
