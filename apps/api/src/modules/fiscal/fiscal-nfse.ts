import { addDays, dateInTimeZone, type IsoDate, STORE_TIME_ZONE } from '@passada/core/calendar';
import type { CompanyTaker } from '@passada/core/contracts/teams';
import { isValidCpf } from '@passada/core/documents';
import { ibsCbsOfNota } from '@passada/core/fiscal/ibs-cbs';
import {
  CRT_OF_REGIME,
  ibsCbsRatesOn,
  ibsCbsRequired,
  missingRatesReason,
  nfseRuleFor,
  REGISTRATION_IBS_CBS,
  registrationOperationIndicator,
} from '@passada/core/fiscal/reform-rules';
import type { NfseInput, NfseTaker } from '../../providers/invoicing/index.ts';
import { ibgeCityCode } from './city-codes.ts';
import * as repo from './fiscal.repository.ts';
import { fiscalAddressOf } from './fiscal-address.ts';
import type { Built, FiscalContext } from './fiscal-context.ts';
import { ibsCbsGroup } from './fiscal-nfe.ts';
import * as sale from './fiscal-sale.read-model.ts';
import { emitterOf, emitterProblems, nfseNational } from './fiscal-settings.ts';

/**
 * Building a registration's NFS-e, or an event's month's (docs/decisions/0049), from the registrations
 * and the settings (the national layout's codes, docs/decisions/0059); what is missing is the reason.
 */

/**
 * The NFS-e's competência (the DPS's `dCompet`): the day the service is taxed. A registration's own nota
 * is issued when it is paid, so its day of issue (store calendar); a month's nota, the last day of its
 * month, so December's registrations invoiced on 1 January keep December's rules and rates.
 */
export function nfseCompetence(doc: Pick<repo.DocumentRow, 'issuedAt' | 'period'>): IsoDate {
  if (!doc.period) return dateInTimeZone(doc.issuedAt, STORE_TIME_ZONE);
  const [y, m] = doc.period.split('-').map(Number) as [number, number];
  const next = m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
  return addDays(next, -1);
}

/**
 * The service's IBS and CBS (docs/decisions/0059, later): the NF-e's rule and function on the nota's
 * value, as one item with neither freight nor discount. Null when the shop's regime and the competência
 * do not ask for the group; a year whose rates are not in the table stops the nota.
 */
export function serviceIbsCbs(
  s: Pick<repo.SettingsRow, 'regime' | 'cbs2027Rate'>,
  competence: IsoDate,
  amountCents: number,
): { ok: true; group: NfseInput['ibsCbs'] } | { ok: false; reason: string } {
  if (!ibsCbsRequired(CRT_OF_REGIME[s.regime], competence)) return { ok: true, group: null };
  const rates = ibsCbsRatesOn(competence, s.cbs2027Rate);
  if (!rates) return { ok: false, reason: missingRatesReason(competence) };
  const t = ibsCbsOfNota([{ totalCents: amountCents }], rates).totals;
  return {
    ok: true,
    group: ibsCbsGroup(
      { situation: REGISTRATION_IBS_CBS.situation, classification: REGISTRATION_IBS_CBS.classification },
      t,
      rates,
    ),
  };
}

/**
 * The NFS-e every builder sends, from what is particular to it (the taker, the text, the city of
 * incidence, the amount): what is missing stops it, then the competência and the reform's IBS/CBS.
 */
function nfseOf(
  s: repo.SettingsRow,
  doc: repo.DocumentRow,
  codes: { nationalCode: string; nbs: string },
  problems: string[],
  part: Pick<NfseInput, 'taker' | 'description' | 'incidenceCityCode' | 'amountCents'>,
): Built<NfseInput> {
  if (problems.length) return { ok: false, reason: `A nota não foi emitida: ${problems.join('; ')}.` };
  const competence = nfseCompetence(doc);
  const taxed = serviceIbsCbs(s, competence, part.amountCents);
  if (!taxed.ok) return taxed;
  return {
    ok: true,
    input: {
      ref: doc.ref,
      issuedAt: doc.issuedAt,
      number: doc.number,
      emitter: emitterOf(s),
      serviceCode: s.nfseServiceCode,
      ...nfseNational(s, codes),
      ...part,
      competence,
      ibsCbs: taxed.group,
      ...(taxed.group
        ? { operationIndicator: registrationOperationIndicator(nfseNational(s, codes).nbs) }
        : {}),
    },
  };
}

/**
 * A month's NFS-e of an event: the registrations it covers less those cancelled before it is issued
 * (they leave it), no identified taker. Null when every one of them was cancelled.
 */
export async function buildMonthNfse(
  ctx: FiscalContext,
  doc: repo.DocumentRow,
): Promise<Built<NfseInput> | null> {
  const { db } = ctx;
  const s = await repo.settings(db);
  const place = await sale.eventPlace(db, doc.eventId!);
  const codes = { nationalCode: place?.nationalCode ?? '', nbs: place?.nbs ?? '' };
  const problems = emitterProblems(s, [], 'nfse', codes);
  const links = await sale.linksOf(db, doc.id);
  const cancelled = links.filter((l) => l.cancelledAt);
  await repo.unlinkRegistrations(
    db,
    cancelled.map((l) => l.registrationId),
  );
  const kept = links.filter((l) => !l.cancelledAt);
  if (!kept.length) return null;
  const amountCents = kept.reduce((sum, l) => sum + l.amountCents, 0);
  if (amountCents !== doc.amountCents) await repo.updateDocument(db, doc.id, { amountCents }, 'pendente');
  const name = (await sale.eventName(db, doc.eventId!)) ?? `evento ${doc.eventId}`;
  const [y, m] = doc.period!.split('-');
  return nfseOf(s, doc, codes, problems, {
    taker: null,
    incidenceCityCode: place ? (ibgeCityCode(place.city, place.state) ?? s.cityCode) : s.cityCode,
    description: `Inscrições no evento ${name}, competência ${m}/${y}: ${kept.length} inscrição(ões) paga(s), nº ${kept.map((l) => l.registrationId).join(', ')}.`,
    amountCents,
  });
}

export async function buildNfse(ctx: FiscalContext, doc: repo.DocumentRow): Promise<Built<NfseInput>> {
  const { db } = ctx;
  const s = await repo.settings(db);
  const r = await sale.registrationForNota(db, doc.registrationId!);
  if (!r) return { ok: false, reason: 'Inscrição não encontrada.' };
  // The event's own service codes, where staff gave it some (docs/decisions/0059, later).
  const codes = { nationalCode: r.eventNationalCode, nbs: r.eventNbs };
  const problems = emitterProblems(s, [], 'nfse', codes);
  if (!isValidCpf(r.cpf)) problems.push('o CPF do participante é inválido');
  // The taker's address: the paying order's delivery address, where there is one.
  const takerAddress = r.orderAddress ? fiscalAddressOf(r.orderAddress) : null;
  if (nfseRuleFor(s.cityCode).takerAddress && !takerAddress?.cityCode)
    problems.push(
      `a prefeitura de ${s.city} exige o endereço do tomador, e a inscrição não tem um endereço completo`,
    );
  return nfseOf(s, doc, codes, problems, {
    taker: { name: r.fullName, cpf: r.cpf, email: r.email, address: takerAddress },
    incidenceCityCode: ibgeCityCode(r.eventCity, r.eventState) ?? s.cityCode,
    description: `Inscrição nº ${r.id} no evento ${r.eventName}, participante ${r.fullName}.`,
    amountCents: r.totalCents,
  });
}

/** The company a captain's purchase named for its nota (the charge's draft, checked when it was made). */
export function companyOf(draft: unknown): CompanyTaker | null {
  const company = (draft as { empresa?: CompanyTaker } | null)?.empresa;
  return company?.cnpj ? company : null;
}

/** A team's places bought in one payment (docs/decisions/0077): the company's NFS-e, or one without taker. */
export async function buildTeamPlacesNfse(
  ctx: FiscalContext,
  doc: repo.DocumentRow,
): Promise<Built<NfseInput>> {
  const s = await repo.settings(ctx.db);
  const t = await sale.teamPlacesForNota(ctx.db, doc.teamBatchId!);
  if (!t) return { ok: false, reason: 'Compra de vagas de equipe não encontrada.' };
  const codes = { nationalCode: t.eventNationalCode, nbs: t.eventNbs };
  const problems = emitterProblems(s, [], 'nfse', codes);
  const company = companyOf(t.draft);
  const taker: NfseTaker | null = company
    ? {
        name: company.razao_social,
        cnpj: company.cnpj,
        email: company.email,
        address: fiscalAddressOf({ ...company.endereco, full_name: company.razao_social, phone: '' }),
      }
    : null;
  if (taker && nfseRuleFor(s.cityCode).takerAddress && !taker.address?.cityCode)
    problems.push(
      `a prefeitura de ${s.city} exige o endereço do tomador, e o da empresa não foi reconhecido`,
    );
  return nfseOf(s, doc, codes, problems, {
    taker,
    incidenceCityCode: ibgeCityCode(t.eventCity, t.eventState) ?? s.cityCode,
    description: `${t.quantity} inscrições da equipe ${t.teamName} no evento ${t.eventName} (${t.categoryName}), ${t.sharePercent < 100 ? `${t.sharePercent}% de cada uma (o restante pago pelo corredor)` : 'pagas'} em uma compra (nº ${t.id})${doc.amountCents < t.amountCents ? `; valor mantido depois de devolvidas ${t.unclaimedAtClose ?? 0} vagas não usadas` : ''}.`,
    amountCents: doc.amountCents,
  });
}
