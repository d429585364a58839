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

/**
 * [first, last, city] of the state capitals' CEP ranges (Correios' faixas de CEP): the one city the
 * offline lookup can name, so an address in a capital gets its city filled without a CEP service.
 */
const CAPITALS: ReadonlyArray<readonly [number, number, string]> = [
  [1000000, 5999999, 'São Paulo'],
  [8000000, 8499999, 'São Paulo'],
  [20000000, 23799999, 'Rio de Janeiro'],
  [29000000, 29099999, 'Vitória'],
  [30000000, 31999999, 'Belo Horizonte'],
  [40000000, 42599999, 'Salvador'],
  [49000000, 49098999, 'Aracaju'],
  [50000000, 52999999, 'Recife'],
  [57000000, 57099999, 'Maceió'],
  [58000000, 58099999, 'João Pessoa'],
  [59000000, 59099999, 'Natal'],
  [60000000, 61599999, 'Fortaleza'],
  [64000000, 64099999, 'Teresina'],
  [65000000, 65099999, 'São Luís'],
  [66000000, 66999999, 'Belém'],
  [68900000, 68914999, 'Macapá'],
  [69000000, 69099999, 'Manaus'],
  [69300000, 69339999, 'Boa Vista'],
  [69900000, 69920999, 'Rio Branco'],
  [70000000, 72799999, 'Brasília'],
  [73000000, 73699999, 'Brasília'],
  [74000000, 74899999, 'Goiânia'],
  [76800000, 76834999, 'Porto Velho'],
  [77000000, 77249999, 'Palmas'],
  [78000000, 78109999, 'Cuiabá'],
  [79000000, 79124999, 'Campo Grande'],
  [80000000, 82999999, 'Curitiba'],
  [88000000, 88099999, 'Florianópolis'],
  [90000000, 91999999, 'Porto Alegre'],
];

/** The state capital a CEP belongs to, or null outside the capitals' ranges (the table knows no other city). */
export function capitalForCep(value: string): string | null {
  if (!stateForCep(value)) return null;
  const n = Number(normalizeCep(value));
  return CAPITALS.find(([first, last]) => n >= first && n <= last)?.[2] ?? null;
}
