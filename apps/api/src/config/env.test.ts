import { describe, expect, it } from 'vitest';
import { EnvError, loadEnv } from './env.ts';

/** What a production process sets at the least; each test removes one setting. */
const production = {
  NODE_ENV: 'production',
  PAYMENTS: 'simulado',
  MAIL_PROVIDER: 'outbox',
  CHECKIN_TOKEN_SECRET: 'k'.repeat(48),
  SEED_DEMO_DATA: 'false',
};

function failure(source: Record<string, string | undefined>): EnvError {
  try {
    loadEnv(source);
  } catch (err) {
    if (err instanceof EnvError) return err;
    throw err;
  }
  throw new Error('loadEnv accepted the environment');
}

describe('loadEnv in production', () => {
  it('starts when payments and mail are chosen explicitly', () => {
    const env = loadEnv(production);
    expect(env.PAYMENTS).toBe('simulado');
    expect(env.MAIL_PROVIDER).toBe('outbox');
  });

  it('refuses to start without PAYMENTS, naming it', () => {
    const error = failure({ ...production, PAYMENTS: undefined });
    expect(error.message).toContain('PAYMENTS: obrigatório quando NODE_ENV=production');
    expect(error.message).not.toContain('MAIL_PROVIDER');
  });

  it('refuses to start without MAIL_PROVIDER, naming it; an empty value counts as unset', () => {
    const error = failure({ ...production, MAIL_PROVIDER: '' });
    expect(error.message).toContain('MAIL_PROVIDER: obrigatório quando NODE_ENV=production');
    expect(error.message).not.toContain('PAYMENTS');
  });

  it('refuses to start without SEED_DEMO_DATA: an empty production database is never filled by default', () => {
    const error = failure({ ...production, SEED_DEMO_DATA: undefined });
    expect(error.message).toContain('SEED_DEMO_DATA: obrigatório quando NODE_ENV=production');
    expect(loadEnv({ ...production, SEED_DEMO_DATA: 'true' }).SEED_DEMO_DATA).toBe(true);
  });

  it('names each when none is set', () => {
    const error = failure({ NODE_ENV: 'production' });
    expect(error.message).toMatch(/PAYMENTS: .*\n.*MAIL_PROVIDER: .*\n.*SEED_DEMO_DATA: /);
  });

  it('refuses to start without its own secret for the kit-pickup QR codes', () => {
    expect(failure({ ...production, CHECKIN_TOKEN_SECRET: undefined }).message).toContain(
      'CHECKIN_TOKEN_SECRET: obrigatório quando NODE_ENV=production',
    );
    // The development default is public: tickets signed with it could be printed by anyone.
    const dev = loadEnv({ NODE_ENV: 'development' }).CHECKIN_TOKEN_SECRET;
    expect(failure({ ...production, CHECKIN_TOKEN_SECRET: dev }).message).toContain(
      'CHECKIN_TOKEN_SECRET: o valor de desenvolvimento não vale em produção',
    );
    expect(failure({ ...production, CHECKIN_TOKEN_SECRET: 'curto' }).message).toContain(
      'CHECKIN_TOKEN_SECRET: mínimo de 32 caracteres',
    );
    expect(failure({ ...production, CHECKIN_TOKEN_SECRET: 'curto' }).message).not.toContain('curto');
  });

  it('keeps the defaults outside production', () => {
    const env = loadEnv({ NODE_ENV: 'development' });
    expect(env.PAYMENTS).toBe('simulado');
    expect(env.MAIL_PROVIDER).toBe('outbox');
  });
});

describe('loadEnv: photo storage', () => {
  it('keeps photos on the local disk by default', () => {
    expect(loadEnv({ NODE_ENV: 'development' }).MEDIA_STORAGE).toBe('local');
  });

  it('refuses MEDIA_STORAGE=s3 without the bucket and its key, naming each', () => {
    const error = failure({ MEDIA_STORAGE: 's3', S3_ACCESS_KEY_ID: 'AKIA' });
    expect(error.message).toContain('S3_BUCKET: obrigatório quando MEDIA_STORAGE=s3');
    expect(error.message).toContain('S3_SECRET_ACCESS_KEY: obrigatório quando MEDIA_STORAGE=s3');
    expect(error.message).not.toContain('S3_ACCESS_KEY_ID');
  });
});
