import type { Env } from '../../config/env.ts';
import { createFocusProvider, FOCUS_URLS } from './focus.provider.ts';
import type { InvoicingProvider } from './invoicing.provider.ts';
import { createOfflineInvoicingProvider } from './offline.provider.ts';

export * from './access-key.ts';
export * from './invoicing.provider.ts';

export function createInvoicingProvider(env: Env): InvoicingProvider {
  if (env.INVOICING_PROVIDER !== 'focusnfe') return createOfflineInvoicingProvider();
  return createFocusProvider({
    baseUrl: env.FOCUSNFE_URL ?? FOCUS_URLS[env.FOCUSNFE_ENVIRONMENT],
    token: env.FOCUSNFE_TOKEN ?? '',
    timeoutMs: env.FOCUSNFE_TIMEOUT_MS,
  });
}
