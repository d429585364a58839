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
      'Olá!',
      '',
      `A inscrição nº ${t.registrationId} em ${eventName} está sendo transferida para quem usa este e-mail, a pedido de quem a tem hoje (nome na inscrição: ${t.fromName}).`,
      'Para concluir, abra o link abaixo, preencha os seus dados, aceite o termo de responsabilidade e pague o que houver a pagar:',
      link,
      '',
      fee,
      'Se você tiver 60 anos ou mais no dia da prova, a meia-entrada vale; se a inscrição foi paga com meia-entrada e você não tiver direito a ela, a diferença é cobrada.',
      'Um preço especial (estudante, professor, PCD, lista do organizador) é de quem o comprovou: se a inscrição foi paga com um, a diferença para o preço do lote é cobrada.',
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

/**
 * To the participant (and the account that bought, when someone else): the registration's distance or
 * shirt size changed, with what was paid, kept or comes back (docs/decisions/0056).
 */
export function registrationChangedMail(input: {
  env: MailEnv;
  to: { name: string; email: string };
  registration: { id: number; fullName: string };
  eventName: string;
  change: { kind: string; detail: unknown; feeCents: number; refundCents: number };
}): MailMessage {
  const { env, to, registration, eventName, change } = input;
  const d = (change.detail ?? {}) as Record<string, unknown>;
  const distance = change.kind === 'troca_distancia';
  const ruleDifference = change.kind === 'diferenca_preco';
  const what = ruleDifference
    ? `A diferença do preço especial${typeof d.regra === 'string' ? ` (${d.regra})` : ''} da inscrição nº ${registration.id} (${registration.fullName}) em ${eventName} foi paga: a inscrição continua válida, pelo preço do lote.`
    : distance
      ? `A distância da inscrição nº ${registration.id} (${registration.fullName}) em ${eventName} foi trocada${typeof d.para_nome === 'string' ? ` para ${d.para_nome}` : ''}.`
      : `O tamanho da camisa da inscrição nº ${registration.id} (${registration.fullName}) em ${eventName} foi trocado de ${String(d.de ?? '-')} para ${String(d.para ?? '-')}.`;
  const paidByCharge = typeof d.cobranca === 'number';
  const money = [
    change.feeCents > 0
      ? paidByCharge
        ? `Valor pago${ruleDifference ? '' : ' pela troca'}: ${formatBRL(change.feeCents)}.`
        : `Taxa de troca retida da diferença: ${formatBRL(change.feeCents)}.`
      : '',
    change.refundCents > 0
      ? `Valor devolvido: ${formatBRL(change.refundCents)}, pelo mesmo meio do pagamento.`
      : '',
  ].filter(Boolean);
  return {
    to: to.email,
    subject: `${env.STORE_NAME}: inscrição nº ${registration.id} alterada`,
    text: [
      `Olá, ${to.name}!`,
      '',
      what,
      ...money,
      distance || ruleDifference
        ? 'O QR code de retirada do kit continua o mesmo.'
        : 'Retire o kit com o novo tamanho.',
      '',
      'Se você não pediu esta troca, responda a este e-mail.',
      '',
      companyIdentityLine(),
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

/**
 * To the address given when joining a waitlist with a CPF already registered in the category or
 * already in its line (docs/decisions/0056): the answer on screen is the same for everyone, the truth
 * goes only here. Nothing the person typed is repeated.
 */
export function waitlistKnownMail(input: {
  env: MailEnv;
  to: string;
  why: 'inscrito' | 'na_fila';
  event: string;
  category: string;
}): MailMessage {
  const { env, to, why, event, category } = input;
  return {
    to,
    subject: `${env.STORE_NAME}: pedido de lista de espera de ${event}`,
    text: [
      'Olá!',
      '',
      `Recebemos um pedido para entrar na lista de espera de ${event} (${category}) com este e-mail.`,
      why === 'inscrito'
        ? 'O CPF informado já está inscrito nesta categoria, então não entrou na lista de espera.'
        : 'O CPF informado já está na lista de espera desta categoria: o lugar na fila continua o mesmo, e o link para acompanhá-lo foi enviado quando ele entrou.',
      'Nada foi alterado. Se não foi você quem pediu, ignore este e-mail.',
      '',
      companyIdentityLine(),
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

/**
 * To the runner and the buyer: staff refused the proof of the special price (docs/decisions/0068), why,
 * and what they may do on the registration's page: pay the difference to the lot's price by Pix and
 * keep the place, or cancel with everything back.
 */
export function proofRefusedMail(input: {
  env: MailEnv;
  to: string;
  registrationId: number;
  runnerName: string;
  eventName: string;
  ruleName: string;
  reason: string;
  differenceCents: number;
  page: string;
}): MailMessage {
  const { env, to } = input;
  return {
    to,
    subject: `${env.STORE_NAME}: o comprovante de ${input.ruleName} não foi aceito`,
    text: [
      'Olá!',
      '',
      `O comprovante enviado para o preço especial «${input.ruleName}» da inscrição nº ${input.registrationId} (${input.runnerName}) em ${input.eventName} não foi aceito pela organização.`,
      `Motivo: ${input.reason}`,
      '',
      `A inscrição continua reservada para você. Na mesma página (${input.page}), até a largada, você pode:`,
      `- mantê-la pelo preço do lote: a diferença é de ${formatBRL(input.differenceCents)}, paga com Pix em "Pagar a diferença";`,
      '- ou cancelá-la com a devolução integral do que foi pago.',
      'Quem se inscreveu por outra pessoa também pode usar o link da inscrição enviado ao participante.',
    ].join('\n'),
  };
}

/** To a runner whose referral link earned the event's rebate (docs/decisions/0086). */
export function referralRebateMail(input: {
  env: MailEnv;
  to: { name: string; email: string };
  registrationId: number;
  eventName: string;
  rebateCents: number;
}): MailMessage {
  const { env, to, registrationId, eventName, rebateCents } = input;
  return {
    to: to.email,
    subject: `${env.STORE_NAME}: sua indicação rendeu ${formatBRL(rebateCents)} de volta`,
    text: [
      `Olá, ${to.name}!`,
      '',
      `As inscrições pagas pelo seu link de indicação em ${eventName} chegaram ao número do evento: ${formatBRL(rebateCents)} da sua inscrição nº ${registrationId} estão voltando na forma de pagamento usada (Pix para a conta que pagou; no cartão, como estorno na fatura).`,
      'A devolução aparece em "Minha conta", em "Pagamentos", e a inscrição continua valendo como antes.',
      '',
      'Obrigado por trazer mais gente para correr com a gente!',
    ].join('\n'),
  };
}
