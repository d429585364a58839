import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { accountSettings } from './settings/accounts.ts';
import { backOfficeSettings } from './settings/back-office.ts';
import { dataSettings } from './settings/data.ts';
import { fiscalSettings } from './settings/fiscal.ts';
import { jobSettings } from './settings/jobs.ts';
import { messageSettings } from './settings/messages.ts';
import { DEV_CHECKIN_TOKEN_SECRET } from './settings/parsers.ts';
import { paymentSettings } from './settings/payments.ts';
import { serverSettings } from './settings/server.ts';
import { shippingSettings } from './settings/shipping.ts';

/** The repository root; relative paths in settings are taken from here, whatever the working folder. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/**
 * Every setting the server reads, parsed once at start. Nothing else reads process.env.
 * `.env.example` lists them with their defaults; each group is in its file under `settings/`, one per
 * heading of docs/settings.md (messages: mail, WhatsApp and privacy).
 */
export const EnvSchema = z
  .object({
    ...serverSettings,
    ...dataSettings,
    ...shippingSettings,
    ...messageSettings,
    ...paymentSettings,
    ...fiscalSettings,
    ...accountSettings,
    ...jobSettings,
    ...backOfficeSettings,
  })
  .superRefine((env, ctx) => {
    if (env.MAIL_PROVIDER === 'smtp' && !env.SMTP_URL) {
      ctx.addIssue({ code: 'custom', path: ['SMTP_URL'], message: 'obrigatório quando MAIL_PROVIDER=smtp' });
    }
    if (env.WHATSAPP_PROVIDER === 'cloud') {
      for (const key of ['WHATSAPP_PHONE_NUMBER_ID', 'WHATSAPP_ACCESS_TOKEN'] as const) {
        if (!env[key])
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: 'obrigatório quando WHATSAPP_PROVIDER=cloud',
          });
      }
    }
    if (env.PAYMENTS === 'efi') {
      for (const key of ['EFI_CLIENT_ID', 'EFI_CLIENT_SECRET', 'EFI_ACCOUNT_ID'] as const) {
        if (!env[key])
          ctx.addIssue({ code: 'custom', path: [key], message: 'obrigatório quando PAYMENTS=efi' });
      }
      if (!env.EFI_CERTIFICATE_PATH && !env.EFI_CERTIFICATE_BASE64)
        ctx.addIssue({
          code: 'custom',
          path: ['EFI_CERTIFICATE_PATH'],
          message: 'obrigatório quando PAYMENTS=efi (ou EFI_CERTIFICATE_BASE64)',
        });
    }
    if (Boolean(env.ADMIN_EMAIL) !== Boolean(env.ADMIN_PASSWORD)) {
      ctx.addIssue({
        code: 'custom',
        path: [env.ADMIN_EMAIL ? 'ADMIN_PASSWORD' : 'ADMIN_EMAIL'],
        message: 'ADMIN_EMAIL e ADMIN_PASSWORD vão juntos',
      });
    }
    if (env.MEDIA_STORAGE === 's3') {
      for (const key of ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
        if (!env[key])
          ctx.addIssue({ code: 'custom', path: [key], message: 'obrigatório quando MEDIA_STORAGE=s3' });
      }
    }
    if (env.LABEL_PROVIDER === 'melhorenvio' && !env.MELHOR_ENVIO_TOKEN) {
      ctx.addIssue({
        code: 'custom',
        path: ['MELHOR_ENVIO_TOKEN'],
        message: 'obrigatório quando LABEL_PROVIDER=melhorenvio',
      });
    }
    if (env.LABEL_PROVIDER === 'correios') {
      for (const key of ['CORREIOS_USER', 'CORREIOS_ACCESS_CODE', 'CORREIOS_POSTING_CARD'] as const) {
        if (!env[key])
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: 'obrigatório quando LABEL_PROVIDER=correios',
          });
      }
    }
    if (env.INVOICING_PROVIDER === 'focusnfe' && !env.FOCUSNFE_TOKEN)
      ctx.addIssue({
        code: 'custom',
        path: ['FOCUSNFE_TOKEN'],
        message: 'obrigatório quando INVOICING_PROVIDER=focusnfe',
      });
    if (env.SHIPPING_PROVIDER === 'correios') {
      for (const key of ['CORREIOS_USER', 'CORREIOS_ACCESS_CODE', 'CORREIOS_POSTING_CARD'] as const) {
        if (!env[key])
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: 'obrigatório quando SHIPPING_PROVIDER=correios',
          });
      }
    }
    if (env.CORREIOS_REVERSA_ADMIN_CODE) {
      for (const key of [
        'CORREIOS_REVERSA_USER',
        'CORREIOS_REVERSA_PASSWORD',
        'CORREIOS_REVERSA_SERVICE',
      ] as const) {
        if (!env[key])
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: 'obrigatório quando CORREIOS_REVERSA_ADMIN_CODE está definido',
          });
      }
    }
  });

export type RawEnv = z.infer<typeof EnvSchema>;
export type Env = RawEnv & { dataDir: string; webDist: string; publicUrl: string; mediaDir: string };

export class EnvError extends Error {}

/**
 * In production these must be chosen on purpose: a default would quietly run a shop whose payments are
 * simulated, whose e-mails never leave the disk, or that fills an empty database with demo data.
 */
const EXPLICIT_IN_PRODUCTION = [
  'PAYMENTS',
  'MAIL_PROVIDER',
  'SEED_DEMO_DATA',
  'CHECKIN_TOKEN_SECRET',
] as const;

/** Parses the environment; a wrong value throws an EnvError naming each bad setting. */
export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  // Empty strings count as unset, as in most .env tooling.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new EnvError(`Configuração inválida no ambiente:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  if (env.NODE_ENV === 'production') {
    const missing = EXPLICIT_IN_PRODUCTION.filter((key) => cleaned[key] === undefined);
    const lines = missing.map((key) => `  ${key}: obrigatório quando NODE_ENV=production (sem valor padrão)`);
    // The development secret is in the repository: tickets signed with it could be printed by anyone.
    if (cleaned.CHECKIN_TOKEN_SECRET === DEV_CHECKIN_TOKEN_SECRET)
      lines.push('  CHECKIN_TOKEN_SECRET: o valor de desenvolvimento não vale em produção');
    if (lines.length > 0) throw new EnvError(`Configuração inválida no ambiente:\n${lines.join('\n')}`);
  }
  const dataDir = path.resolve(repoRoot, env.DATA_DIR);
  return {
    ...env,
    dataDir,
    mediaDir: path.resolve(dataDir, env.MEDIA_DIR),
    webDist: path.resolve(repoRoot, env.WEB_DIST),
    publicUrl: env.PUBLIC_URL ?? `http://localhost:${env.PORT}`,
  };
}
