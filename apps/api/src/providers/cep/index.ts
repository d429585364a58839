import type { Env } from '../../config/env.ts';

// biome-ignore lint/suspicious/noEmptyInterface: designed with the cep module
export interface CepProvider {}

export function createCepProvider(_env: Env): CepProvider {
  return {};
}
