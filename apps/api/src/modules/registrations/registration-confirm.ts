import { DUPLICATE_CPF } from '@passada/core/contracts/registrations';
import type { Tx } from '../../db/client.ts';
import { CannotFulfil, type ChargeRow, isUniqueViolation } from '../payments/payments.service.ts';
import { createParticipantLinks } from './participant-link.ts';
import type { PriceRuleProofs } from './price-rule-proofs.ts';
import { registrationConfirmationMails } from './registration-mail.ts';
import * as repo from './registrations.repository.ts';
import { checkinQr, type RegistrationDraft, type RegistrationsServiceDeps } from './registrations-context.ts';
import { giveWaves } from './start-waves.ts';

/**
 * The confirm step: the registration a paid charge creates, its confirmation e-mail, and what of its
 * draft survives the LGPD clean-up.
 */
/**
 * The runner's own columns of a registration, from the participant's draft: who they are, where they
 * live, what they accepted and when, with the consents' versions (LGPD art. 8 § 2). A new registration
 * and a transfer's new holder are written from the same function. `acceptedFallback` is when the
 * termo counts as accepted for a draft that did not say (a transfer: the moment it is paid).
 */
export function holderColumns(d: RegistrationDraft, acceptedFallback: Date | null) {
  const acceptedAt = d.termsAcceptedAt ? new Date(d.termsAcceptedAt) : null;
  return {
    fullName: d.nome_completo,
    cpf: d.cpf,
    birthDate: d.data_nascimento,
    gender: d.genero,
    address: d.endereco,
    phone: d.numero_contato,
    email: d.email,
    street: d.street,
    zipCode: d.zip_code,
    state: d.state,
    city: d.city,
    neighborhood: d.neighborhood,
    team: d.team?.name ?? d.equipe ?? null,
    teamId: d.team?.id ?? null,
    teamBatchId: d.teamPlace?.batchId ?? null,
    teamTierPercent: d.teamTier?.percent ?? null,
    teamPriceBaseCents: d.teamTier?.baseCents ?? null,
    teamPickupConsentAt: d.team && d.retirada_pela_equipe ? (acceptedAt ?? acceptedFallback) : null,
    pastResultUrl: d.resultado_anterior ?? null,
    emergencyName: d.contato_emergencia_nome ?? null,
    emergencyPhone: d.contato_emergencia_telefone ?? null,
    pcd: d.pcd ?? false,
    termsVersion: d.termo_versao ?? null,
    termsAcceptedAt: acceptedAt ?? acceptedFallback,
    pcdConsentVersion: d.pcd ? (d.consentVersions?.pcd ?? null) : null,
    pcdConsentAt: d.pcd && d.consentVersions?.pcd && acceptedAt ? acceptedAt : null,
    whatsappConsentVersion: d.consentVersions?.whatsapp ?? null,
    whatsappConsentAt: d.consentVersions?.whatsapp && acceptedAt ? acceptedAt : null,
    seniorDiscount: d.senior ?? false,
  };
}

export function createConfirm(deps: RegistrationsServiceDeps, proofs: Pick<PriceRuleProofs, 'link'>) {
  const links = createParticipantLinks(deps);
  /**
   * The registration a paid charge creates for one participant, with its confirmation e-mail; throws
   * CannotFulfil when the CPF took the category meanwhile (then the whole payment is returned).
   */
  async function insertParticipant(
    tx: Tx,
    charge: ChargeRow,
    d: RegistrationDraft,
    orderId: number | null,
  ): Promise<number> {
    await repo.lockCpf(tx, d.cpf);
    const ids = d.items.map((i) => i.categoryId);
    // Another account's charge for this CPF was paid first: this payment cannot become a registration.
    if ((await repo.takenCategories(tx, d.cpf, ids)).length > 0) throw new CannotFulfil(DUPLICATE_CPF);
    const row = await repo
      .insertRegistration(
        tx,
        {
          eventId: d.evento,
          accountUserId: charge.userId,
          chargeId: charge.id,
          orderId,
          ...holderColumns(d, null),
          totalCents: d.totalCents,
          discountCents: d.coupon?.discountCents ?? 0,
          couponCode: d.coupon?.code ?? null,
          kitSize: d.kitSize ?? null,
          referredById: d.referredBy ?? null,
          createdAt: deps.now(),
        },
        d.items,
      )
      .catch((err: unknown) => {
        // The unique (category, cpf) index is the final guard against a CPF holding a category twice.
        if (isUniqueViolation(err)) throw new CannotFulfil(DUPLICATE_CPF);
        throw err;
      });
    // A price rule's proof waits for staff from now (docs/decisions/0068).
    if (d.priceRule?.proof) await proofs.link(tx, row.id, d.priceRule);
    // Each race with start waves gives the runner one by the estimate, in payment order (decision 0066).
    await giveWaves(tx, deps.events.waves, row.id, d.tempos_estimados);
    await deps.jobs.send('mail.registration-confirmation', { registrationId: row.id }, { tx });
    // A member priced by the team's tiers may take the team to a better one: earlier members' differences.
    if (d.teamTier && d.team)
      await deps.jobs.send(
        'registrations.team-tier',
        { teamId: d.team.id, eventId: d.evento },
        { tx, singletonKey: `team-tier:${d.team.id}:${d.evento}` },
      );
    // The NFS-e of the registration, issued after the commit (docs/decisions/0043).
    await deps.jobs.send('fiscal.issue-registration', { registrationId: row.id }, { tx });
    if (row.whatsappConsentAt)
      await deps.jobs.send('whatsapp.registration-confirmed', { registrationId: row.id }, { tx });
    return row.id;
  }

  /**
   * LGPD: only what accounting keeps (event, categories, prices, kit size) survives; name, CPF,
   * birth date, e-mail, phone, address, emergency contact, gender and PCD go.
   */
  const withoutPersonalData = (d: RegistrationDraft) => ({
    evento: d.evento,
    categoria_evento: d.categoria_evento,
    items: d.items,
    totalCents: d.totalCents,
    ...(d.kitSizeId !== undefined ? { kitSizeId: d.kitSizeId, kitSize: d.kitSize } : {}),
    ...(d.senior !== undefined ? { senior: d.senior } : {}),
    ...(d.termo_versao ? { termo_versao: d.termo_versao } : {}),
    ...(d.termsAcceptedAt ? { termsAcceptedAt: d.termsAcceptedAt } : {}),
    ...(d.consentVersions ? { consentVersions: d.consentVersions } : {}),
    // The coupon's use stays on record, without the participant's CPF.
    ...(d.coupon ? { coupon: { ...d.coupon, cpf: undefined } } : {}),
    // A transfer's ids and amounts (docs/decisions/0041), without the new runner's data.
    ...(d.transfer ? { transfer: d.transfer } : {}),
    ...(d.change ? { change: d.change } : {}),
    ...(d.teamPlace ? { teamPlace: d.teamPlace } : {}),
    ...(d.teamTier ? { teamTier: d.teamTier } : {}),
    ...(d.referredBy ? { referredBy: d.referredBy } : {}),
  });

  /**
   * The confirmation e-mail job: the participant, and the account holder when they are someone else.
   * Every recipient is tried; a failure makes the job run again later.
   */
  async function sendConfirmation(registrationId: number): Promise<void> {
    const registration = await repo.findById(deps.db, registrationId);
    const event = registration ? await deps.events.findEventRow(registration.eventId) : undefined;
    if (!registration || !event) return;
    const account =
      registration.accountUserId === null ? null : await deps.users.findContact(registration.accountUserId);
    const categories = await repo.categoriesOf(deps.db, registration.id);
    const waves = await deps.events.waves.names(
      deps.db,
      categories.map((c) => c.waveId),
    );
    // The participant's own link to cancel or transfer (docs/decisions/0041), only in their e-mail.
    const link = await links.linkFor(registration);
    // The signed QR staff scan at kit pickup; without a camera they search the name and check a document.
    const qr = await checkinQr(deps, registration);
    const messages = registrationConfirmationMails({
      event,
      registration,
      // The start wave beside its race (docs/decisions/0066): "10 km (largada: Onda A)".
      categories: categories.map((c) => {
        const wave = c.waveId === null ? undefined : waves.get(c.waveId);
        return wave ? `${c.name} (largada: ${wave})` : c.name;
      }),
      account,
      qrPng: Buffer.from(qr.slice(qr.indexOf(',') + 1), 'base64'),
      participantLink: link,
    });
    const results = await Promise.allSettled(messages.map((m) => deps.mail.send(m)));
    const failed = results.find((r) => r.status === 'rejected');
    if (failed) {
      deps.log.error({ registrationId }, 'registration e-mail failed');
      throw (failed as PromiseRejectedResult).reason;
    }
  }
  return { insertParticipant, withoutPersonalData, sendConfirmation };
}

export type Confirm = ReturnType<typeof createConfirm>;
