import type { Env } from '../../config/env.ts';
import { createEfiProvider, type EfiOptions } from './efi.provider.ts';
import type { PaymentsProvider } from './payments.provider.ts';
import { createSimulatedProvider } from './simulado.provider.ts';

export * from './payments.provider.ts';

export function createPaymentsProvider(env: Env, efiOptions: EfiOptions = {}): PaymentsProvider {
  return env.PAYMENTS === 'efi' ? createEfiProvider(env, efiOptions) : createSimulatedProvider(env);
}
export { redactProviderPayload } from './redact-provider-payload.ts';
