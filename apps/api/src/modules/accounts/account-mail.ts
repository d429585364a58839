import { formatStoreDateTime } from '@passada/core/calendar';
import type { Env } from '../../config/env.ts';
import type { MailMessage } from '../../providers/mail/index.ts';
import type { NoticeKind } from './users.repository.ts';

type MailEnv = Pick<Env, 'STORE_NAME'>;

/** What a mail carrying a one-time link needs. */
interface OneTimeLinkInput {
  env: MailEnv;
  to: string;
  name: string;
  link: string;
  ttlMinutes: number;
}

/** Greeting, why the mail came, the link on a line of its own, then what to do if it was not the reader. */
function oneTimeLinkMail(
  input: OneTimeLinkInput,
  subject: string,
  body: string[],
  closing: string,
): MailMessage {
  return {
    to: input.to,
    subject: `${input.env.STORE_NAME}: ${subject}`,
    text: [`Olá, ${input.name}!`, '', ...body, '', input.link, '', closing].join('\n'),
  };
}

export function passwordResetMail(input: OneTimeLinkInput): MailMessage {
  const { env } = input;
  return oneTimeLinkMail(
    input,
    'redefinição de senha',
    [
      `Recebemos um pedido para redefinir a senha da sua conta na ${env.STORE_NAME}.`,
      `Para criar uma nova senha, abra o link abaixo. Ele vale por ${input.ttlMinutes} minutos e pode ser usado uma única vez:`,
    ],
    'Se você não fez este pedido, ignore este e-mail: sua senha continua a mesma.',
  );
}

/**
 * The one-time sign-in link of an attempt that had the right password but was blocked (too many failures
 * from its address or on its account). Whoever typed the password may not be the owner: the mail says so.
 */
export function loginLinkMail(input: OneTimeLinkInput): MailMessage {
  const { env } = input;
  return oneTimeLinkMail(
    input,
    'seu link de acesso',
    [
      `A senha da sua conta na ${env.STORE_NAME} foi digitada corretamente, mas a entrada foi bloqueada ` +
        'por excesso de tentativas erradas vindas da mesma rede ou nesta conta.',
      `Para entrar, abra o link abaixo. Ele vale por ${input.ttlMinutes} minutos e pode ser usado uma única vez; ` +
        'depois disso, este navegador poderá entrar com a senha mesmo durante o bloqueio:',
    ],
    'Se não foi você, alguém conhece a sua senha: troque-a agora em "Esqueci minha senha".',
  );
}

/** "ana@example.com" → "a**@example.com": enough for the owner to recognise, little for anyone else. */
function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}${'*'.repeat(Math.max(local.length - 1, 2))}@${domain}`;
}

/**
 * The notice of a security change, sent to the address the account had then. Its link is a password
 * reset: with a new password the owner signs every other device out and can put the e-mail back.
 */
export function accountNoticeMail(input: {
  env: MailEnv;
  kind: NoticeKind;
  to: string;
  name: string;
  newEmail: string;
  at: Date;
  link: string;
  ttlHours: number;
}): MailMessage {
  const { env } = input;
  const when = formatStoreDateTime(input.at);
  const what =
    input.kind === 'email_changed'
      ? `o e-mail da sua conta na ${env.STORE_NAME} foi trocado para ${maskEmail(input.newEmail)}`
      : `a senha da sua conta na ${env.STORE_NAME} foi alterada`;
  return {
    to: input.to,
    subject:
      input.kind === 'email_changed'
        ? `${env.STORE_NAME}: o e-mail da sua conta foi alterado`
        : `${env.STORE_NAME}: sua senha foi alterada`,
    text: [
      `Olá, ${input.name}!`,
      '',
      `Em ${when}, ${what}.`,
      '',
      'Se foi você, não precisa fazer nada.',
      `Se não foi você, redefina sua senha agora pelo link abaixo (vale por ${input.ttlHours} horas): ` +
        'todos os aparelhos conectados à conta serão desconectados e você poderá corrigir o e-mail em "Dados pessoais".',
      '',
      input.link,
    ].join('\n'),
  };
}

/**
 * The link that confirms the account's e-mail (docs/decisions/0057): until it is opened, nothing given
 * with this address without an account (waitlists, lotteries, transfers) is shown in or erased with the
 * account.
 */
export function emailConfirmationMail(input: Omit<OneTimeLinkInput, 'ttlMinutes'> & { ttlHours: number }) {
  const { env } = input;
  return oneTimeLinkMail(
    { ...input, ttlMinutes: input.ttlHours * 60 },
    'confirme o seu e-mail',
    [
      `Para confirmar que este e-mail é seu e usá-lo na sua conta da ${env.STORE_NAME}, abra o link abaixo.`,
      `Ele vale por ${input.ttlHours} horas e pode ser usado uma única vez:`,
    ],
    'Se você não criou esta conta nem mudou o e-mail dela, ignore este e-mail: nada será ligado a este endereço.',
  );
}
