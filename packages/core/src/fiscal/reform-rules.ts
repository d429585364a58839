import type { IsoDate } from '../calendar.ts';
import { formatIsoDateBR } from '../calendar.ts';
import type { IbsCbsRates, RateE4 } from './ibs-cbs.ts';

/**
 * The fiscal rules of the tax reform as data, per regime and per date (docs/decisions/0059): when the
 * NF-e must carry the IBSCBS group, the rates of each year, the classification a sale of apparel
 * carries, the national NFS-e's service code, and what each city's NFS-e requires.
 * Sources: LC 214/2025 (arts. 343–348), NT 2025.002-RTC v1.20–v1.34 (NF-e/NFC-e), the NFS-e Padrão
 * Nacional's DPS layout, and Focus NFe's city guides.
 */

/** The NF-e's CRT: 1 Simples Nacional, 2 Simples over the sub-limit, 3 regime normal, 4 MEI. */
export type Crt = 1 | 2 | 3 | 4;

export const CRT_OF_REGIME = { simples_nacional: 1, simples_excesso: 2, regime_normal: 3, mei: 4 } as const;
export type FiscalRegime = keyof typeof CRT_OF_REGIME;

/**
 * From which date (of issue, store calendar) an NF-e must carry the IBSCBS group: the regime normal from
 * 05/01/2026 (NT 2025.002-RTC v1.20, production schedule), Simples Nacional, its sub-limit excess and
 * MEI from 2027 (LC 214/2025, art. 348; their layout in a later technical note).
 */
export const IBS_CBS_REQUIRED_FROM: Record<Crt, IsoDate> = {
  1: '2027-01-01',
  2: '2027-01-01',
  3: '2026-01-05',
  4: '2027-01-01',
};

export function ibsCbsRequired(crt: Crt, issuedOn: IsoDate): boolean {
  return issuedOn >= IBS_CBS_REQUIRED_FROM[crt];
}

/**
 * The rates of the transition, by year of issue, as the law fixes them: 2026 IBS 0.1 % for the state and
 * 0 for the city (LC 214/2025, art. 343) and CBS 0.9 % (art. 346); 2027 and 2028 IBS 0.05 % + 0.05 %
 * (art. 344). The CBS of 2027 on is its reference rate (less 0.1 point in 2027 and 2028, art. 347), which
 * the law does not fix: a resolution of the Senado Federal does (art. 349, computed as art. 353 says), so
 * it is null here and staff enter the 2027 rate, with its source, on the fiscal screen
 * (`fiscal_settings.cbs_2027_rate`, docs/decisions/0059, later). A nota of a year whose CBS is unknown
 * stops with the reason.
 */
export const IBS_CBS_RATES: ReadonlyArray<{
  from: IsoDate;
  until: IsoDate;
  rates: { ibsUf: number; ibsMun: number; cbs: number | null };
}> = [
  { from: '2026-01-01', until: '2026-12-31', rates: { ibsUf: 1000, ibsMun: 0, cbs: 9000 } },
  { from: '2027-01-01', until: '2027-12-31', rates: { ibsUf: 500, ibsMun: 500, cbs: null } },
  { from: '2028-01-01', until: '2028-12-31', rates: { ibsUf: 500, ibsMun: 500, cbs: null } },
];

/** The first day the CBS rate staff enter (the Senate's rate of 2027) applies, and the last. */
export const CBS_2027 = { from: '2027-01-01', until: '2027-12-31' } as const;

/**
 * The rates in force on a date, or null when they are not known (before 2026, 2028 on, or 2027 while
 * `cbs2027` — the rate staff entered from the Senate's resolution — is null).
 */
export function ibsCbsRatesOn(day: IsoDate, cbs2027: RateE4 | null = null): IbsCbsRates | null {
  const row = IBS_CBS_RATES.find((r) => day >= r.from && day <= r.until);
  if (!row) return null;
  const cbs = row.rates.cbs ?? (day >= CBS_2027.from && day <= CBS_2027.until ? cbs2027 : null);
  if (cbs === null) return null;
  return { ibsUf: row.rates.ibsUf, ibsMun: row.rates.ibsMun, cbs };
}

/** Why a nota of `day` stops for want of rates (the erro reason staff read), in Portuguese. */
export function missingRatesReason(day: IsoDate): string {
  const year = day.slice(0, 4);
  const base = `A nota não foi emitida: as alíquotas de IBS e CBS de ${year} ainda não estão na tabela da loja`;
  return day >= CBS_2027.from && day <= CBS_2027.until
    ? `${base}: informe a alíquota da CBS de 2027, fixada por resolução do Senado Federal (LC 214/2025, art. 349), com a fonte, em Configurações fiscais e tente emitir de novo.`
    : `${base}.`;
}

/**
 * SEFAZ's rejections for the group (NT 2025.002-RTC): the group missing, or a rate other than the year's.
 */
export const IBS_CBS_REJECTIONS = {
  '1115': 'Rejeição: IBS/CBS não informado',
  '1026': 'Rejeição: Alíquota do IBS da UF deve ser igual a 0,1% para documento emitido em 2026',
  '1027': 'Rejeição: Alíquota do IBS da UF deve ser igual a 0,05% para documento emitido em 2027 e 2028',
  '1036': 'Rejeição: Alíquota do IBS do Município deve ser igual a 0 para documento emitido em 2026',
  '1037': 'Rejeição: Alíquota da CBS deve ser igual a 0,9% para documento emitido em 2026',
} as const;

/**
 * The IBS/CBS classification a sale of apparel carries unless staff set another on the rule: CST 000
 * ("tributação integral") with cClassTrib 000001 ("situações tributadas integralmente pelo IBS e CBS").
 */
export const DEFAULT_IBS_CBS_CST = '000';
export const DEFAULT_IBS_CBS_CLASS = '000001';

/**
 * The registrations' service on the NFS-e's `IBSCBS` group (NT 004 of the NFS-e Padrão Nacional, DPS
 * `IBSCBS/valores/trib/gIBSCBS`): the same full taxation as a sale of goods, CST 000 / cClassTrib 000001.
 * The group goes on the NFS-e for the same regimes and dates as on the NF-e (`ibsCbsRequired`) and at the
 * same rates of the year (`ibsCbsRatesOn`), on the registration's value (docs/decisions/0059, later).
 */
export const REGISTRATION_IBS_CBS = {
  situation: DEFAULT_IBS_CBS_CST,
  classification: DEFAULT_IBS_CBS_CLASS,
  /**
   * `cIndOp` (Anexo VII "IndOp_IBSCBS" v1.03.00 of the NFS-e Padrão Nacional): 030102, a service
   * "integralmente fruído presencialmente por pessoa física" (LC 214/2025, art. 11, III) at a place other
   * than the supplier's establishment — the runner takes part at the event's venue, whose city is the
   * DPS's place of incidence (docs/decisions/0059, later).
   */
  operationIndicator: '030102',
} as const;

/**
 * Anexo VIII of the NFS-e Padrão Nacional ("Correlação entre Item de Serv., NBS, cClassTrib e cIndOp"),
 * as data: the `cIndOp` of a service keyed by its NBS (9 digits, no dots). The annex's rows for item 12.11
 * could not be read from the sources at hand (docs/decisions/0059, "Later (2026-12-03)"), so no row is
 * written from memory: a registration whose NBS has no row here keeps the Anexo VII reading above
 * (`REGISTRATION_IBS_CBS.operationIndicator`, 030102). Add the annex's row here, with its version, once read.
 */
export const OPERATION_INDICATOR_BY_NBS: Readonly<Record<string, string>> = {};

/** The registration nota's `cIndOp`: the NBS's row of Anexo VIII, else the Anexo VII reading (030102). */
export function registrationOperationIndicator(
  nbs: string,
  table: Readonly<Record<string, string>> = OPERATION_INDICATOR_BY_NBS,
): string {
  const key = nbs.replace(/\D/g, '');
  return table[key] ?? REGISTRATION_IBS_CBS.operationIndicator;
}

/**
 * `cIndOp` of a sale of apparel on the NF-e (Anexo VII v1.03.00, codes of LC 214/2025, art. 11, I): 010103,
 * "não presencial, com entrega ou disponibilização em endereço fornecido" — the place of the operation is
 * the recipient's address the nota carries. Optional on the NF-e (NT 2025.002-RTC, B25d: required only for
 * 010104 and 010105); sent so the place is explicit.
 */
export const SALE_OPERATION_INDICATOR = '010103';

/**
 * The registrations' service in the NFS-e Padrão Nacional: `cTribNac` 12.11.01 (item 12.11 of LC 116,
 * "competições esportivas ou de destreza física ou intelectual", national breakdown 01). The tax is due
 * where the event takes place (LC 116, art. 3º), so the DPS's `cLocIncid` is the event's city.
 */
export const REGISTRATION_NATIONAL_SERVICE_CODE = '121101';

/** What a city's NFS-e requires beyond the national layout (Focus NFe's city guides, "Campos importantes"). */
export interface CityNfseRule {
  /** IBGE code, 7 digits. */
  cityCode: string;
  city: string;
  uf: string;
  /** The taker's address (street, number, district, city's IBGE code, CEP). */
  takerAddress: boolean;
  /** The shop's CNAE. */
  cnae: boolean;
  /** The city's own tax code of the service (código tributário do município). */
  municipalCode: boolean;
  /** The NBS code of the service. */
  nbs: boolean;
}

/** Any city not listed: the national layout's own required fields (cTribNac, cLocIncid). */
export const NFSE_NATIONAL_RULE: Omit<CityNfseRule, 'cityCode' | 'city' | 'uf'> = {
  takerAddress: false,
  cnae: false,
  municipalCode: false,
  nbs: false,
};

export const NFSE_CITY_RULES: readonly CityNfseRule[] = [
  {
    cityCode: '2408102',
    city: 'Natal',
    uf: 'RN',
    takerAddress: true,
    cnae: false,
    municipalCode: false,
    nbs: true,
  },
  {
    cityCode: '2504009',
    city: 'Campina Grande',
    uf: 'PB',
    takerAddress: true,
    cnae: true,
    municipalCode: true,
    nbs: false,
  },
  {
    cityCode: '4313409',
    city: 'Novo Hamburgo',
    uf: 'RS',
    takerAddress: true,
    cnae: true,
    municipalCode: true,
    nbs: false,
  },
  {
    cityCode: '4202305',
    city: 'Biguaçu',
    uf: 'SC',
    takerAddress: true,
    cnae: false,
    municipalCode: false,
    nbs: false,
  },
  {
    cityCode: '4307708',
    city: 'Esteio',
    uf: 'RS',
    takerAddress: true,
    cnae: true,
    municipalCode: false,
    nbs: false,
  },
];

export function nfseRuleFor(cityCode: string): Omit<CityNfseRule, 'cityCode' | 'city' | 'uf'> {
  return NFSE_CITY_RULES.find((r) => r.cityCode === cityCode) ?? NFSE_NATIONAL_RULE;
}

/** One step of the transition as staff read it on the fiscal screen. */
export interface ReformStage {
  from: IsoDate;
  crts: readonly Crt[];
  text: string;
}

export const REFORM_STAGES: readonly ReformStage[] = [
  {
    from: '2026-01-01',
    crts: [1, 2, 3, 4],
    text: 'NFS-e no padrão nacional: código de tributação nacional (cTribNac), NBS onde a prefeitura exige e local de incidência pelo código IBGE',
  },
  {
    from: '2026-01-05',
    crts: [3],
    text: 'NF-e com o grupo IBS/CBS em cada item e o total IBSCBSTot: CBS 0,90 %, IBS da UF 0,10 %, IBS do município 0 % (NT 2025.002-RTC; sem o grupo, rejeição 1115)',
  },
  {
    from: '2027-01-01',
    crts: [1, 2, 4],
    text: 'NF-e com o grupo IBS/CBS também no Simples Nacional e no MEI (LC 214/2025, art. 348)',
  },
  {
    from: '2027-01-01',
    crts: [1, 2, 3, 4],
    text: 'IBS da UF 0,05 % e do município 0,05 %; CBS pela alíquota de referência',
  },
];

/** The stages in force for a regime on `today`, and the next ones with the date they start. */
export function reformScheduleFor(
  crt: Crt,
  today: IsoDate,
): { current: ReformStage[]; next: { from: IsoDate; label: string; stages: ReformStage[] } | null } {
  const mine = REFORM_STAGES.filter((s) => s.crts.includes(crt));
  const current = mine.filter((s) => s.from <= today);
  const upcoming = mine.filter((s) => s.from > today).sort((a, b) => a.from.localeCompare(b.from));
  const first = upcoming[0];
  return {
    current,
    next: first
      ? {
          from: first.from,
          label: formatIsoDateBR(first.from),
          stages: upcoming.filter((s) => s.from === first.from),
        }
      : null,
  };
}
