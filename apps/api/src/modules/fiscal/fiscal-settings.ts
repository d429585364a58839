import { dateInTimeZone, STORE_TIME_ZONE } from '@passada/core/calendar';
import type {
  FiscalSettings,
  FiscalSettingsSave,
  ProductFiscal,
  ReformRules,
} from '@passada/core/contracts/fiscal';
import { formatRate, formatRateBR, parseRateBR } from '@passada/core/fiscal/ibs-cbs';
import {
  CBS_2027,
  CRT_OF_REGIME,
  ibsCbsRatesOn,
  ibsCbsRequired,
  NFSE_CITY_RULES,
  nfseRuleFor,
  reformScheduleFor,
} from '@passada/core/fiscal/reform-rules';
import type { Db, Tx } from '../../db/client.ts';
import { conflict } from '../../plugins/errors.ts';
import type { Emitter } from '../../providers/invoicing/index.ts';
import * as repo from './fiscal.repository.ts';
import { type FiscalContext, type Kind, STALE_FISCAL_SETTINGS } from './fiscal-context.ts';

/**
 * The shop's fiscal settings (read, versioned save), a product's NCM and origin, the reform's rules in
 * force (docs/decisions/0059), and what the notas take from the settings: the emitter, what is missing.
 */

export function settingsToWire(s: repo.SettingsRow, rules: repo.TaxRuleRow[]): FiscalSettings {
  return {
    cnpj: s.cnpj,
    inscricao_estadual: s.ie,
    inscricao_municipal: s.im,
    razao_social: s.legalName,
    regime: s.regime,
    logradouro: s.street,
    numero: s.number,
    bairro: s.district,
    municipio: s.city,
    codigo_municipio: s.cityCode,
    uf: s.uf,
    cep: s.cep,
    codigo_servico_nfse: s.nfseServiceCode,
    serie_nfe: s.nfeSeries,
    codigo_tributacao_nacional: s.nfseNationalCode,
    nbs: s.nfseNbs,
    cnae: s.cnae,
    codigo_tributario_municipio: s.nfseMunicipalCode,
    cbs_2027: s.cbs2027Rate === null ? '' : formatRate(s.cbs2027Rate).replace('.', ','),
    cbs_2027_fonte: s.cbs2027Source,
    regras: rules.map((r) => ({
      destino: r.destination,
      cfop: r.cfop,
      situacao_icms: r.icmsSituation,
      situacao_pis: r.pisSituation,
      situacao_cofins: r.cofinsSituation,
      situacao_ibs_cbs: r.ibsCbsSituation,
      classificacao_ibs_cbs: r.ibsCbsClass,
    })),
    versao: s.version,
  };
}

export async function readSettings(ctx: FiscalContext, conn: Db | Tx = ctx.db): Promise<FiscalSettings> {
  return settingsToWire(await repo.settings(conn), await repo.taxRules(conn));
}

export async function saveSettings(ctx: FiscalContext, tx: Tx, body: FiscalSettingsSave) {
  const current = await repo.lockSettings(tx);
  if (current.version !== body.versao) throw conflict(STALE_FISCAL_SETTINGS, 'versao_desatualizada');
  const before = settingsToWire(current, await repo.taxRules(tx));
  const row = await repo.updateSettings(tx, {
    cnpj: body.cnpj,
    ie: body.inscricao_estadual,
    im: body.inscricao_municipal,
    legalName: body.razao_social,
    regime: body.regime,
    street: body.logradouro,
    number: body.numero,
    district: body.bairro,
    city: body.municipio,
    cityCode: body.codigo_municipio,
    uf: body.uf,
    cep: body.cep,
    nfseServiceCode: body.codigo_servico_nfse,
    nfeSeries: body.serie_nfe,
    nfseNationalCode: body.codigo_tributacao_nacional,
    nfseNbs: body.nbs,
    cnae: body.cnae,
    nfseMunicipalCode: body.codigo_tributario_municipio,
    cbs2027Rate: body.cbs_2027 ? parseRateBR(body.cbs_2027) : null,
    cbs2027Source: body.cbs_2027 ? body.cbs_2027_fonte : '',
    version: current.version + 1,
    updatedAt: ctx.now(),
  });
  await repo.replaceTaxRules(
    tx,
    body.regras.map((r) => ({
      destination: r.destino,
      cfop: r.cfop,
      icmsSituation: r.situacao_icms,
      pisSituation: r.situacao_pis,
      cofinsSituation: r.situacao_cofins,
      ibsCbsSituation: r.situacao_ibs_cbs,
      ibsCbsClass: r.classificacao_ibs_cbs,
    })),
  );
  return { before, after: settingsToWire(row, await repo.taxRules(tx)) };
}

/** The reform's rules for the shop's regime on the store's today (docs/decisions/0059). */
export async function reformRules(ctx: FiscalContext): Promise<ReformRules> {
  const s = await repo.settings(ctx.db);
  const today = dateInTimeZone(ctx.now(), STORE_TIME_ZONE);
  const crt = CRT_OF_REGIME[s.regime];
  const schedule = reformScheduleFor(crt, today);
  const rates = ibsCbsRatesOn(today, s.cbs2027Rate);
  return {
    regime: s.regime,
    crt,
    hoje: today,
    em_vigor: schedule.current.map((r) => ({ desde: r.from, regra: r.text })),
    proximas: schedule.next
      ? { a_partir_de: schedule.next.from, regras: schedule.next.stages.map((r) => r.text) }
      : null,
    aliquotas:
      rates && ibsCbsRequired(crt, today)
        ? {
            ibs_uf: formatRateBR(rates.ibsUf),
            ibs_mun: formatRateBR(rates.ibsMun),
            cbs: formatRateBR(rates.cbs),
          }
        : null,
    aviso: cbs2027Warning(today, s.cbs2027Rate),
    nfse_cidades: NFSE_CITY_RULES.map((c) => ({
      municipio: c.city,
      uf: c.uf,
      codigo_municipio: c.cityCode,
      endereco_tomador: c.takerAddress,
      cnae: c.cnae,
      codigo_municipal: c.municipalCode,
      nbs: c.nbs,
    })),
  };
}

export async function productFiscal(ctx: FiscalContext, productId: number): Promise<ProductFiscal | null> {
  const [row] = await repo.productFiscalOf(ctx.db, [productId]);
  return row ? { ncm: row.ncm, origem: row.origin } : null;
}

/** What is missing or wrong in the shop's settings, as staff read it. */
export function emitterProblems(
  s: repo.SettingsRow,
  rules: repo.TaxRuleRow[],
  kind: Kind,
  event: EventServiceCodes = NO_EVENT_CODES,
): string[] {
  const problems: string[] = [];
  if (!s.cnpj || !s.legalName || !s.uf || !s.cityCode || !s.cep || !s.street)
    problems.push(
      'os dados da empresa (CNPJ, razão social, endereço) não foram preenchidos em Configurações fiscais',
    );
  if (kind !== 'nfse') {
    if (!s.ie) problems.push('falta a inscrição estadual da empresa');
    for (const d of ['interna', 'interestadual'] as const)
      if (!rules.some((r) => r.destination === d))
        problems.push(
          `falta a regra de CFOP e tributação "${d === 'interna' ? 'dentro do estado' : 'para outro estado'}"`,
        );
  } else {
    if (!s.im) problems.push('falta a inscrição municipal da empresa');
    if (!s.nfseServiceCode) problems.push('falta o código do serviço das inscrições (NFS-e)');
    const codes = nfseNational(s, event);
    if (!codes.nationalCode)
      problems.push('falta o código de tributação nacional (cTribNac) do serviço das inscrições');
    // The fields the emitter's city asks for beyond the national layout (docs/decisions/0059).
    const rule = nfseRuleFor(s.cityCode);
    if (rule.nbs && !codes.nbs) problems.push(`a prefeitura de ${s.city} exige o código NBS do serviço`);
    if (rule.cnae && !s.cnae) problems.push(`a prefeitura de ${s.city} exige o CNAE da empresa`);
    if (rule.municipalCode && !s.nfseMunicipalCode)
      problems.push(`a prefeitura de ${s.city} exige o código tributário do município do serviço`);
  }
  return problems;
}

/** An event's own NFS-e codes; '' uses the settings' (docs/decisions/0059, later). */
export interface EventServiceCodes {
  nationalCode: string;
  nbs: string;
}
const NO_EVENT_CODES: EventServiceCodes = { nationalCode: '', nbs: '' };

/**
 * The NFS-e Padrão Nacional's codes of the registrations' service (docs/decisions/0059): the event's
 * national service code and NBS where it has its own, each falling back to the settings' (later).
 */
export const nfseNational = (s: repo.SettingsRow, event: EventServiceCodes = NO_EVENT_CODES) => ({
  nationalCode: event.nationalCode || s.nfseNationalCode,
  nbs: event.nbs || s.nfseNbs,
  cnae: s.cnae,
  municipalCode: s.nfseMunicipalCode,
});

export function emitterOf(s: repo.SettingsRow): Emitter {
  return {
    cnpj: s.cnpj,
    ie: s.ie,
    im: s.im,
    name: s.legalName,
    regime: s.regime,
    address: {
      street: s.street,
      number: s.number,
      district: s.district,
      city: s.city,
      cityCode: s.cityCode,
      uf: s.uf,
      cep: s.cep,
    },
  };
}

/**
 * The fiscal screen's warning while the CBS rate of 2027 is missing: ahead of 1 January 2027 every regime
 * owes the IBS/CBS group from that day (LC 214/2025, art. 348) at a CBS rate only the Senate's resolution
 * fixes (art. 349), so every nota of 2027 would stop; during 2027, they are stopping.
 */
function cbs2027Warning(today: string, rate: number | null): string | null {
  if (rate !== null || today > CBS_2027.until) return null;
  const how =
    'A alíquota é fixada por resolução do Senado Federal (LC 214/2025, art. 349): informe-a abaixo, em "Alíquota da CBS de 2027", com a fonte.';
  return today < CBS_2027.from
    ? `Falta a alíquota da CBS de 2027: sem ela, a partir de 01/01/2027 as notas fiscais param (em 2027 todos os regimes levam IBS e CBS, LC 214/2025, art. 348). ${how}`
    : `As notas fiscais de 2027 estão paradas: falta a alíquota da CBS de 2027. ${how}`;
}
