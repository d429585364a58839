import type { Env } from '../../config/env.ts';
import { efiCardMethods } from './efi-cards.ts';
import { createEfiClient, type EfiOptions } from './efi-client.ts';
import { efiPixMethods } from './efi-pix.ts';
import type { PaymentsProvider } from './payments.provider.ts';

export { type EfiOptions, loadEfiCertificate } from './efi-client.ts';

/**
 * Efí Bank: API Pix (OAuth2 client credentials over mutual TLS with the account certificate) and
 * the charges API for cards (OAuth2 with Basic credentials only) (docs/brazil.md, "API Pix" and
 * "Card payments through Efí").
 */
export function createEfiProvider(env: Env, options: EfiOptions = {}): PaymentsProvider {
  const client = createEfiClient(env, options);
  return {
    name: 'efi',
    ...efiPixMethods(env, client),
    ...efiCardMethods(client, options.now ?? Date.now),
  };
}
