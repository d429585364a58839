import type { Env } from '../../config/env.ts';
import { createCorreiosProvider } from './correios.provider.ts';
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
    });
  }
  return createTabelaProvider();
}
