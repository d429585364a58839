/**
 * CEP (Brazilian postal code) helpers and the state-by-range table (docs/brazil.md, "CEP and
 * shipping"). The table is what shipping prices and address checks use offline.
 */

export const UFS = [
  'AC',
  'AL',
  'AP',
  'AM',
  'BA',
  'CE',
  'DF',
  'ES',
  'GO',
  'MA',
  'MT',
  'MS',
  'MG',
  'PA',
  'PB',
  'PR',
  'PE',
  'PI',
  'RJ',
  'RN',
  'RS',
  'RO',
  'RR',
  'SC',
  'SP',
  'SE',
  'TO',
] as const;
export type UF = (typeof UFS)[number];

export function isUF(value: string): value is UF {
  return (UFS as readonly string[]).includes(value);
}

/** [first, last, UF] over the 8-digit CEP as a number. */
const RANGES: ReadonlyArray<readonly [number, number, UF]> = [
  [1000000, 19999999, 'SP'],
  [20000000, 28999999, 'RJ'],
  [29000000, 29999999, 'ES'],
  [30000000, 39999999, 'MG'],
  [40000000, 48999999, 'BA'],
  [49000000, 49999999, 'SE'],
  [50000000, 56999999, 'PE'],
  [57000000, 57999999, 'AL'],
  [58000000, 58999999, 'PB'],
  [59000000, 59999999, 'RN'],
  [60000000, 63999999, 'CE'],
  [64000000, 64999999, 'PI'],
  [65000000, 65999999, 'MA'],
  [66000000, 68899999, 'PA'],
  [68900000, 68999999, 'AP'],
  [69000000, 69299999, 'AM'],
  [69300000, 69399999, 'RR'],
  [69400000, 69899999, 'AM'],
  [69900000, 69999999, 'AC'],
  [70000000, 72799999, 'DF'],
  [72800000, 72999999, 'GO'],
  [73000000, 73699999, 'DF'],
  [73700000, 76799999, 'GO'],
  [76800000, 76999999, 'RO'],
  [77000000, 77999999, 'TO'],
  [78000000, 78899999, 'MT'],
  [79000000, 79999999, 'MS'],
  [80000000, 87999999, 'PR'],
  [88000000, 89999999, 'SC'],
  [90000000, 99999999, 'RS'],
];

/** Digits only: "60.165-121" → "60165121". */
export function normalizeCep(value: string): string {
  return value.replace(/\D/g, '');
}

/** "60165121" → "60165-121". */
export function formatCep(value: string): string {
  const d = normalizeCep(value);
  return d.length === 8 ? `${d.slice(0, 5)}-${d.slice(5)}` : value;
}

/** The state a CEP belongs to, or null when it is malformed or unassigned (00000000–00999999). */
export function stateForCep(value: string): UF | null {
  const d = normalizeCep(value);
  if (d.length !== 8 || d !== value.replace(/[\s.-]/g, '')) return null;
  const n = Number(d);
  for (const [first, last, uf] of RANGES) {
    if (n >= first && n <= last) return uf;
  }
  return null;
}

export function isValidCep(value: string): boolean {
  return stateForCep(value) !== null;
}

export type Region = 'N' | 'NE' | 'CO' | 'SE' | 'S';

const REGION: Record<UF, Region> = {
  AC: 'N',
  AP: 'N',
  AM: 'N',
  PA: 'N',
  RO: 'N',
  RR: 'N',
  TO: 'N',
  AL: 'NE',
  BA: 'NE',
  CE: 'NE',
  MA: 'NE',
  PB: 'NE',
  PE: 'NE',
  PI: 'NE',
  RN: 'NE',
  SE: 'NE',
  DF: 'CO',
  GO: 'CO',
  MT: 'CO',
  MS: 'CO',
  ES: 'SE',
  MG: 'SE',
  RJ: 'SE',
  SP: 'SE',
  PR: 'S',
  RS: 'S',
  SC: 'S',
};

export function regionOf(uf: UF): Region {
  return REGION[uf];
}
