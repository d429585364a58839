import { capitalForCep, isUF, stateForCep } from '@passada/core/cep';
import type { CepLookup } from '@passada/core/contracts/accounts';
import type { Env } from '../../config/env.ts';

/**
 * Looks up a CEP for the address form. `local` (default, offline) knows the state from the CEP-range
 * table, and the city when the CEP is in a state capital's range; `viacep` also fills street, neighbourhood and city, and falls back to the table when ViaCEP
 * does not know the CEP or cannot be reached (decision 0007).
 */
export interface CepProvider {
  readonly name: 'local' | 'viacep';
  /** `cep` is 8 digits; answers null when the CEP is outside every known range. */
  lookup(cep: string): Promise<CepLookup | null>;
}

export function createLocalCepProvider(): CepProvider {
  return {
    name: 'local',
    async lookup(cep) {
      const state = stateForCep(cep);
      if (!state) return null;
      const city = capitalForCep(cep);
      return city ? { cep, state, city } : { cep, state };
    },
  };
}

interface ViaCepAnswer {
  erro?: boolean | string;
  logradouro?: string;
  bairro?: string;
  localidade?: string;
  uf?: string;
}

export function createViaCepProvider(baseUrl: string, timeoutMs = 5000): CepProvider {
  const local = createLocalCepProvider();
  return {
    name: 'viacep',
    async lookup(cep) {
      const fallback = await local.lookup(cep);
      if (!fallback) return null;
      let answer: ViaCepAnswer;
      try {
        const res = await fetch(new URL(`/ws/${cep}/json/`, baseUrl), {
          headers: { accept: 'application/json' },
          signal: AbortSignal.timeout(timeoutMs),
        });
        if (!res.ok) return fallback;
        answer = (await res.json()) as ViaCepAnswer;
      } catch {
        // Offline or slow: the state from the table still lets the person fill the rest by hand.
        return fallback;
      }
      if (answer.erro === true || answer.erro === 'true') return fallback;
      const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
      const uf = text(answer.uf);
      return {
        cep,
        state: uf && isUF(uf) ? uf : fallback.state,
        city: text(answer.localidade),
        street: text(answer.logradouro),
        neighborhood: text(answer.bairro),
      };
    },
  };
}

export function createCepProvider(env: Env): CepProvider {
  return env.CEP_PROVIDER === 'viacep' ? createViaCepProvider(env.VIACEP_URL) : createLocalCepProvider();
}
