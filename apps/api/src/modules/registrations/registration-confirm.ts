import { formatIsoDateBR } from '@passada/core/calendar';
import { DUPLICATE_CPF } from '@passada/core/contracts/registrations';
import { maskCpf } from '@passada/core/documents';
import { formatRegistrationPrice } from '@passada/core/events';
import { formatBRL } from '@passada/core/money';
import { escapeXml } from '@passada/core/text';
import type { Tx } from '../../db/client.ts';
import { CannotFulfil, type ChargeRow, isUniqueViolation } from '../payments/payments.service.ts';
import * as repo from './registrations.repository.ts';
import { checkinQr, type RegistrationDraft, type RegistrationsServiceDeps } from './registrations-context.ts';

/** Under the QR code: it is the proof at kit pickup, so whoever holds a copy can take the kit. */
const QR_IS_PERSONAL =
  'Este QR code é pessoal e comprova a inscrição na retirada do kit: não o publique nem o compartilhe.';

/**
 * The confirm step: the registration a paid charge creates, its confirmation e-mail, and what of its
 * draft survives the LGPD clean-up.
 */
export function createConfirm(deps: RegistrationsServiceDeps) {
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
          totalCents: d.totalCents,
          discountCents: d.coupon?.discountCents ?? 0,
          couponCode: d.coupon?.code ?? null,
          kitSize: d.kitSize ?? null,
          team: d.equipe ?? null,
          emergencyName: d.contato_emergencia_nome ?? null,
          emergencyPhone: d.contato_emergencia_telefone ?? null,
          pcd: d.pcd ?? false,
          termsVersion: d.termo_versao ?? null,
          termsAcceptedAt: d.termsAcceptedAt ? new Date(d.termsAcceptedAt) : null,
          seniorDiscount: d.senior ?? false,
          createdAt: deps.now(),
        },
        d.items,
      )
      .catch((err: unknown) => {
        // The unique (category, cpf) index is the final guard against a CPF holding a category twice.
        if (isUniqueViolation(err)) throw new CannotFulfil(DUPLICATE_CPF);
        throw err;
      });
    await deps.jobs.send('mail.registration-confirmation', { registrationId: row.id }, { tx });
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
    // The coupon's use stays on record, without the participant's CPF.
    ...(d.coupon ? { coupon: { ...d.coupon, cpf: undefined } } : {}),
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
    const lines = [
      `Evento: ${event.name}`,
      `Data: ${formatIsoDateBR(event.startDate)} às ${event.time}`,
      `Participante: ${registration.fullName} (CPF ${maskCpf(registration.cpf)})`,
      `Categorias: ${categories.map((c) => c.name).join(', ')}`,
      ...(registration.couponCode
        ? [`Desconto (cupom ${registration.couponCode}): −${formatBRL(registration.discountCents)}`]
        : []),
      `Valor: ${formatRegistrationPrice(registration.totalCents)}`,
      `Inscrição nº ${registration.id}`,
      ...(registration.kitSize ? [`Camisa: ${registration.kitSize}`] : []),
      ...(registration.seniorDiscount
        ? ['Meia-entrada (60+): apresente um documento com foto na retirada do kit.']
        : []),
      ...(event.kitPickupPlace ? [`Retirada do kit: ${event.kitPickupPlace}`] : []),
      ...event.kitPickupHours
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean),
    ];
    const subject = `Inscrição confirmada: ${event.name}`;
    const recipients = [
      {
        to: registration.email,
        text: [`Olá, ${registration.fullName}!`, '', 'Sua inscrição está confirmada.', '', ...lines],
      },
    ];
    if (account && account.email.toLowerCase() !== registration.email.toLowerCase())
      recipients.push({
        to: account.email,
        text: [
          `Olá, ${account.fullName}!`,
          '',
          `A inscrição que você fez para ${registration.fullName} está confirmada.`,
          '',
          ...lines,
        ],
      });
    // The signed QR staff scan at kit pickup; without a camera they search the name and check a document.
    // An attachment shown by Content-ID: Gmail and others do not show `data:` images.
    const qr = await checkinQr(deps, registration);
    const ticket = {
      filename: `inscricao-${registration.id}-qrcode.png`,
      content: Buffer.from(qr.slice(qr.indexOf(',') + 1), 'base64'),
      contentType: 'image/png',
      cid: `qrcode-inscricao-${registration.id}@passada`,
    };
    const html = (text: string[]) =>
      [
        ...text.map((line) => `<p style="margin:0 0 8px;">${escapeXml(line) || '&nbsp;'}</p>`),
        `<p>Apresente este QR code na retirada do kit:</p><p><img src="cid:${ticket.cid}" alt="QR code da inscrição nº ${registration.id}" width="200" height="200" style="background:#ffffff;padding:8px;"></p>`,
        `<p>${escapeXml(QR_IS_PERSONAL)}</p>`,
      ].join('\n');
    const results = await Promise.allSettled(
      recipients.map((r) =>
        deps.mail.send({
          to: r.to,
          subject,
          text: [...r.text, '', `O QR code da retirada do kit segue anexo. ${QR_IS_PERSONAL}`].join('\n'),
          html: html(r.text),
          attachments: [ticket],
        }),
      ),
    );
    const failed = results.find((r) => r.status === 'rejected');
    if (failed) {
      deps.log.error({ registrationId }, 'registration e-mail failed');
      throw (failed as PromiseRejectedResult).reason;
    }
  }
  return { insertParticipant, withoutPersonalData, sendConfirmation };
}

export type Confirm = ReturnType<typeof createConfirm>;
