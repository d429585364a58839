import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Env } from '../../config/env.ts';
import { ensurePrivateDir, writePrivateFile } from '../../ops/private-files.ts';
import { brandedMail, type MailBrand } from './layout.ts';
import type { MailMessage, MailProvider } from './mail.provider.ts';

export { type MailBrand, textToHtml } from './layout.ts';
export type { MailAttachment, MailMessage, MailPreview, MailProvider } from './mail.provider.ts';

const DEFAULT_BRAND: MailBrand = { storeName: 'Passada', publicUrl: 'http://localhost:3000' };

/** Writes each message as an RFC 822 `.eml` file under `dir`, built by nodemailer's stream transport. */
export function createOutboxMailer(dir: string, from: string, brand = DEFAULT_BRAND): MailProvider {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    name: 'outbox',
    async send(message: MailMessage) {
      const info = await transport.sendMail({ from, ...(await brandedMail(message, brand)) });
      // Each message holds a customer's address and data: 0700/0600 whatever the umask.
      await ensurePrivateDir(dir);
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(dir, `${stamp}-${Math.random().toString(36).slice(2, 8)}.eml`);
      await writePrivateFile(file, info.message as Buffer);
    },
  };
}

export function createSmtpMailer(url: string, from: string, brand = DEFAULT_BRAND): MailProvider {
  const transport = nodemailer.createTransport(url);
  return {
    name: 'smtp',
    async send(message: MailMessage) {
      await transport.sendMail({ from, ...(await brandedMail(message, brand)) });
    },
  };
}

export function createMailProvider(env: Env): MailProvider {
  const brand = { storeName: env.STORE_NAME, publicUrl: env.publicUrl };
  return env.MAIL_PROVIDER === 'smtp' && env.SMTP_URL
    ? createSmtpMailer(env.SMTP_URL, env.MAIL_FROM, brand)
    : createOutboxMailer(path.join(env.dataDir, 'outbox'), env.MAIL_FROM, brand);
}
