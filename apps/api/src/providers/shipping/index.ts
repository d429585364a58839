import type { Env } from '../../config/env.ts';
import { createCorreiosProvider } from './correios.provider.ts';
import { createCorreiosLabelProvider } from './correios-labels.provider.ts';
import type { LabelProvider } from './label.provider.ts';
import { createMelhorEnvioProvider } from './melhorenvio.provider.ts';
import { createOfflineLabelProvider } from './offline-labels.provider.ts';
import type { ShippingProvider } from './shipping.provider.ts';
import { createTabelaProvider } from './tabela.provider.ts';

/** Tabela (offline, the default) or the Correios contract API, by SHIPPING_PROVIDER (docs/architecture.md §6). */
export function createShippingProvider(env: Env): ShippingProvider {
  if (env.SHIPPING_PROVIDER === 'correios') {
    return createCorreiosProvider({
      baseUrl: env.CORREIOS_API_URL,
      user: env.CORREIOS_USER ?? '',
      accessCode: env.CORREIOS_ACCESS_CODE ?? '',
      postingCard: env.CORREIOS_POSTING_CARD ?? '',
      ...(env.CORREIOS_REVERSA_ADMIN_CODE
        ? {
            reversa: {
              url: env.CORREIOS_REVERSA_URL,
              user: env.CORREIOS_REVERSA_USER ?? '',
              password: env.CORREIOS_REVERSA_PASSWORD ?? '',
              administrativeCode: env.CORREIOS_REVERSA_ADMIN_CODE,
              serviceCode: env.CORREIOS_REVERSA_SERVICE ?? '',
              postingCard: env.CORREIOS_POSTING_CARD ?? '',
            },
          }
        : {}),
    });
  }
  return createTabelaProvider();
}

/**
 * Shipping labels: offline (the default, the demo's), Melhor Envio, or the Correios contract's
 * pré-postagem, by LABEL_PROVIDER (docs/decisions/0044, 0049).
 */
export function createLabelProvider(env: Env): LabelProvider {
  if (env.LABEL_PROVIDER === 'correios') {
    return createCorreiosLabelProvider({
      baseUrl: env.CORREIOS_API_URL,
      user: env.CORREIOS_USER ?? '',
      accessCode: env.CORREIOS_ACCESS_CODE ?? '',
      postingCard: env.CORREIOS_POSTING_CARD ?? '',
      services: { PAC: env.CORREIOS_SERVICE_PAC, SEDEX: env.CORREIOS_SERVICE_SEDEX },
    });
  }
  if (env.LABEL_PROVIDER === 'melhorenvio') {
    return createMelhorEnvioProvider({
      baseUrl: env.MELHOR_ENVIO_API_URL,
      token: env.MELHOR_ENVIO_TOKEN ?? '',
      userAgent: env.MELHOR_ENVIO_USER_AGENT,
    });
  }
  return createOfflineLabelProvider();
}
