import { isNfeAccessKey, nfeKeyCheckDigit } from '@passada/core/nfe-key';
/**
 * The NF-e access key (chave de acesso, Manual de Orientação do Contribuinte §5.4): 44 digits,
 * cUF(2) AAMM(2+2) CNPJ(14) mod(2) série(3) nNF(9) tpEmis(1) cNF(8) cDV(1).
 */

/** IBGE codes of the states, the key's first two digits. */
export const UF_CODES: Record<string, string> = {
  RO: '11',
  AC: '12',
  AM: '13',
  RR: '14',
  PA: '15',
  AP: '16',
  TO: '17',
  MA: '21',
  PI: '22',
  CE: '23',
  RN: '24',
  PB: '25',
  PE: '26',
  AL: '27',
  SE: '28',
  BA: '29',
  MG: '31',
  ES: '32',
  RJ: '33',
  SP: '35',
  PR: '41',
  SC: '42',
  RS: '43',
  MS: '50',
  MT: '51',
  GO: '52',
  DF: '53',
};

export interface AccessKeyParts {
  uf: string;
  /** Year and month of issue. */
  issuedAt: Date;
  cnpj: string;
  model?: '55' | '65';
  series: number;
  number: number;
  /** 1 normal issue. */
  emissionType?: number;
  /** The random code (cNF), 8 digits. */
  code: number;
}

const pad = (n: number | string, size: number) => String(n).padStart(size, '0');

export function buildAccessKey(p: AccessKeyParts): string {
  const uf = UF_CODES[p.uf.toUpperCase()];
  if (!uf) throw new Error(`UF desconhecida: ${p.uf}`);
  if (!/^[0-9A-Z]{12}\d{2}$/.test(p.cnpj)) throw new Error('CNPJ deve ter 14 posições');
  if (p.series < 0 || p.series > 999 || p.number < 1 || p.number > 999_999_999)
    throw new Error('Série ou número fora da faixa');
  // AAMM in Brasília time, the time zone of the nota's dhEmi.
  const local = new Date(p.issuedAt.getTime() - 3 * 3_600_000);
  const aamm = pad(local.getUTCFullYear() % 100, 2) + pad(local.getUTCMonth() + 1, 2);
  const body =
    uf +
    aamm +
    p.cnpj +
    (p.model ?? '55') +
    pad(p.series, 3) +
    pad(p.number, 9) +
    String(p.emissionType ?? 1) +
    pad(p.code % 100_000_000, 8);
  return body + String(nfeKeyCheckDigit(body));
}

/** Whether `key` has 44 digits, a known state and the right check digit. */
export function isValidAccessKey(key: string): boolean {
  return Object.values(UF_CODES).includes(key.slice(0, 2)) && isNfeAccessKey(key);
}

/** The key in groups of four, as the DANFE prints it. */
export function formatAccessKey(key: string): string {
  return key.replace(/(\d{4})(?=\d)/g, '$1 ');
}
