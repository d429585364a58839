import type { MailPreview } from '../../providers/mail/index.ts';
import { accountNoticeMail, loginLinkMail, passwordResetMail } from './account-mail.ts';

const to = 'maria@example.com';
const name = 'Maria Exemplo';

/** The accounts module's e-mails with demo data; the links lead nowhere (docs/decisions/0045). */
export const accountMailPreviews: MailPreview[] = [
  {
    kind: 'conta.redefinir-senha',
    label: 'Redefinição de senha',
    build: (env) => [
      passwordResetMail({
        env,
        to,
        name,
        link: `${env.publicUrl}/login/redefinir-senha?token=exemplo`,
        ttlMinutes: 60,
      }),
    ],
  },
  {
    kind: 'conta.link-de-acesso',
    label: 'Link de acesso (entrada bloqueada)',
    build: (env) => [
      loginLinkMail({ env, to, name, link: `${env.publicUrl}/login/link?token=exemplo`, ttlMinutes: 15 }),
    ],
  },
  {
    kind: 'conta.email-alterado',
    label: 'Aviso: e-mail da conta alterado',
    build: (env) => [
      accountNoticeMail({
        env,
        kind: 'email_changed',
        to,
        name,
        newEmail: 'maria.nova@example.com',
        at: new Date('2026-11-25T13:00:00Z'),
        link: `${env.publicUrl}/login/redefinir-senha?token=exemplo`,
        ttlHours: 72,
      }),
    ],
  },
  {
    kind: 'conta.senha-alterada',
    label: 'Aviso: senha alterada',
    build: (env) => [
      accountNoticeMail({
        env,
        kind: 'password_changed',
        to,
        name,
        newEmail: to,
        at: new Date('2026-11-25T13:00:00Z'),
        link: `${env.publicUrl}/login/redefinir-senha?token=exemplo`,
        ttlHours: 72,
      }),
    ],
  },
];
