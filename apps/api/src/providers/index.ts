import type { Env } from '../config/env.ts';
import { type CepProvider, createCepProvider } from './cep/index.ts';
import { createMailProvider, type MailProvider } from './mail/index.ts';
import { createPaymentsProvider, type PaymentsProvider } from './payments/index.ts';
import { createShippingProvider } from './shipping/index.ts';
import type { ShippingProvider } from './shipping/shipping.provider.ts';
import { createMediaStorage, type MediaStorage } from './storage/index.ts';

/**
 * Outside services behind one interface each, chosen by environment, with an offline default that is
 * a real implementation (docs/architecture.md §6).
 */
export interface Providers {
  mail: MailProvider;
  shipping: ShippingProvider;
  cep: CepProvider;
  payments: PaymentsProvider;
  /** Uploaded photos: local disk or an S3-compatible bucket. */
  media: MediaStorage;
}

export function createProviders(env: Env): Providers {
  return {
    mail: createMailProvider(env),
    shipping: createShippingProvider(env),
    cep: createCepProvider(env),
    payments: createPaymentsProvider(env),
    media: createMediaStorage(env),
  };
}
