import type { Env } from '../../config/env.ts';

// biome-ignore lint/suspicious/noEmptyInterface: designed with the shipping module
export interface ShippingProvider {}

export function createShippingProvider(_env: Env): ShippingProvider {
  return {};
}
