import { getMunicipalities } from '@brazilian-utils/brazilian-utils/get-municipalities';
import { isUF } from '@passada/core/cep';
import { stripAccents } from '@passada/core/text';

/**
 * The IBGE code (7 digits) of a city from its name and state, as the CEP lookup and the address form give
 * them: the NF-e's `cMun`, the NFS-e's taker city and place of incidence (docs/decisions/0059). The
 * municipalities are IBGE's own list as `@brazilian-utils/brazilian-utils` ships it (offline); names are
 * compared without accents, case, punctuation or repeated spaces ("Olho d'Água" = "OLHO D AGUA").
 */
const byState = new Map<string, Map<string, string>>();

const key = (name: string) =>
  stripAccents(name)
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim();

export function ibgeCityCode(city: string, uf: string): string | null {
  const state = uf.trim().toUpperCase();
  if (!isUF(state)) return null;
  let names = byState.get(state);
  if (!names) {
    names = new Map(getMunicipalities(state).map((m) => [key(m.name), m.code]));
    byState.set(state, names);
  }
  return names.get(key(city)) ?? null;
}
