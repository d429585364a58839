import type { Env } from '../../config/env.ts';

// biome-ignore lint/suspicious/noEmptyInterface: designed with the payments module
export interface PaymentsProvider {}

export function createPaymentsProvider(_env: Env): PaymentsProvider {
  return {};
}
