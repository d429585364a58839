import type { Env } from '../config/env.ts';
import { type CepProvider, createCepProvider } from './cep/index.ts';
import { createInvoicingProvider, type InvoicingProvider } from './invoicing/index.ts';
import { createMailProvider, type MailProvider } from './mail/index.ts';
import { createPaymentsProvider, type PaymentsProvider } from './payments/index.ts';
import { createLabelProvider, createShippingProvider } from './shipping/index.ts';
import type { LabelProvider } from './shipping/label.provider.ts';
import type { ShippingProvider } from './shipping/shipping.provider.ts';
import { createMediaStorage, type MediaStorage } from './storage/index.ts';
import { createWhatsAppProvider, type WhatsAppProvider } from './whatsapp/index.ts';

/**
 * Outside services behind one interface each, chosen by environment, with an offline default that is
 * a real implementation (docs/architecture.md §6).
 */
export interface Providers {
  mail: MailProvider;
  shipping: ShippingProvider;
  /** Shipping labels and their tracking (docs/decisions/0044). */
  labels: LabelProvider;
  cep: CepProvider;
  payments: PaymentsProvider;
  /** Uploaded photos: local disk or an S3-compatible bucket. */
  media: MediaStorage;
  /** NF-e and NFS-e: the offline demo issuer or Focus NFe. */
  invoicing: InvoicingProvider;
  /** WhatsApp template messages to people who opted in: an outbox folder or Meta's Cloud API. */
  whatsapp: WhatsAppProvider;
}

export function createProviders(env: Env): Providers {
  return {
    mail: createMailProvider(env),
    shipping: createShippingProvider(env),
    labels: createLabelProvider(env),
    cep: createCepProvider(env),
    payments: createPaymentsProvider(env),
    media: createMediaStorage(env),
    invoicing: createInvoicingProvider(env),
    whatsapp: createWhatsAppProvider(env),
  };
}
