import { dateInTimeZone, formatIsoDateBR, STORE_TIME_ZONE } from '@passada/core/calendar';
import {
  checkinQrText,
  DUPLICATE_CPF,
  LOOKUP_NOT_FOUND,
  type Participant,
  ParticipantSchema,
  type PriceResponse,
  type Registration,
  type RegistrationLookup,
} from '@passada/core/contracts/registrations';
import { formatCpf, maskCpf } from '@passada/core/documents';
import { isRegistrationOpen, isSenior, registrationPrice } from '@passada/core/events';
import { centsToReais, formatBRL } from '@passada/core/money';
import { formatPhone } from '@passada/core/phone';
import { escapeXml } from '@passada/core/text';
import type { FastifyBaseLogger } from 'fastify';
import QRCode from 'qrcode';
import type { Db, Tx } from '../../db/client.ts';
import type { AppJobCatalog } from '../../jobs/job-catalog.ts';
import type { Jobs } from '../../jobs/jobs.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { badRequest, conflict, notFound, validationError, zodIssues } from '../../plugins/errors.ts';
import type { MailProvider } from '../../providers/mail/mail.provider.ts';
import type { UsersService } from '../accounts/users.service.ts';
import type { CategoryInfo, EventRow, EventsService } from '../events/events.service.ts';
import {
  CannotFulfil,
  type ChargePurposeHandler,
  type ChargeRow,
  isUniqueViolation,
  type PaymentsService,
} from '../payments/payments.service.ts';
import * as repo from './registrations.repository.ts';

export interface RegistrationsServiceDeps {
  db: Db;
  now: () => Date;
  log: FastifyBaseLogger;
  mail: MailProvider;
  jobs: Pick<Jobs<AppJobCatalog>, 'send'>;
  payments: Pick<PaymentsService, 'findByTxid' | 'openDrafts'>;
  events: Pick<EventsService, 'findEventRow' | 'findCategories' | 'reservePlaces' | 'releasePlaces'>;
  users: Pick<UsersService, 'findContact'>;
}

/** What a registration charge pays for, as the server priced it (stored in charges.draft). */
export interface RegistrationDraft extends Participant {
  items: Array<{ categoryId: number; priceCents: number }>;
  totalCents: number;
}

interface PricedItem {
  category: CategoryInfo;
  priceCents: number;
}

/** The categories a stored registration draft holds (charges.draft of an open registration charge). */
function categoriesOfDraft(draft: unknown): number[] {
  const ids = (draft as { categoria_evento?: unknown }).categoria_evento;
  return Array.isArray(ids) ? ids.filter((x): x is number => typeof x === 'number') : [];
}

function checkinQr(registrationId: number): Promise<string> {
  return QRCode.toDataURL(checkinQrText(registrationId), {
    errorCorrectionLevel: 'M',
    margin: 1,
    width: 200,
  });
}

/** Event registrations: the 'registration' purpose of a charge, and the registrations it created. */
export function createRegistrationsService(deps: RegistrationsServiceDeps) {
  /**
   * The event's categories chosen, checked against the event (they belong to it, one per day) and
   * priced for this participant (half price for 60+ on each category's own day).
   */
  async function priceChoice(
    db: Db | Tx,
    eventId: number,
    categoryIds: number[],
    birthDate: string | undefined,
  ): Promise<{ event: EventRow; items: PricedItem[]; senior: boolean }> {
    const event = await deps.events.findEventRow(eventId, db);
    if (!event) throw notFound('Evento não encontrado.');
    const found = await deps.events.findCategories(categoryIds, db);
    if (found.length !== new Set(categoryIds).size || found.some((c) => c.eventId !== eventId))
      throw badRequest('Categoria não pertence a este evento.', 'categoria_invalida', {
        categoria_evento: 'Categoria não pertence a este evento.',
      });
    const days = new Set(found.map((c) => c.dayId));
    if (days.size !== found.length)
      throw badRequest('Escolha apenas uma categoria por dia.', 'uma_categoria_por_dia', {
        categoria_evento: 'Escolha apenas uma categoria por dia.',
      });
    const items = found.map((category) => ({
      category,
      priceCents: birthDate
        ? registrationPrice(category.priceCents, birthDate, category.date)
        : category.priceCents,
    }));
    const senior = birthDate ? found.some((c) => isSenior(birthDate, c.date)) : false;
    return { event, items, senior };
  }

  /** GET /api/events/{id}/preco/: the price the form shows, from the same rules as the charge. */
  async function quote(
    eventId: number,
    categoryIds: number[],
    birthDate: string | undefined,
  ): Promise<PriceResponse> {
    const { items, senior } = await priceChoice(deps.db, eventId, [...new Set(categoryIds)], birthDate);
    const totalCents = items.reduce((s, i) => s + i.priceCents, 0);
    return {
      itens: items.map((i) => ({
        id: i.category.id,
        nome_categoria: i.category.name,
        data: i.category.date,
        preco_inscricao: centsToReais(i.category.priceCents),
        preco: centsToReais(i.priceCents),
      })),
      meia_entrada: senior,
      total: centsToReais(totalCents),
      total_centavos: totalCents,
    };
  }

  /** The 'registration' purpose of a charge (docs/architecture.md §5). */
  const purpose: ChargePurposeHandler<RegistrationDraft> = {
    async prepare(tx, { user, draft }) {
      const parsed = ParticipantSchema.safeParse(draft);
      if (!parsed.success) throw validationError(zodIssues(parsed.error));
      const p = parsed.data;
      const today = dateInTimeZone(deps.now(), STORE_TIME_ZONE);
      if (p.data_nascimento > today)
        throw badRequest('Informe uma data de nascimento válida.', 'validation_error', {
          data_nascimento: 'Informe uma data de nascimento válida.',
        });
      const { event, items } = await priceChoice(tx, p.evento, p.categoria_evento, p.data_nascimento);
      if (!isRegistrationOpen(event.registrationDeadline, deps.now()))
        throw conflict('Inscrições encerradas', 'inscricoes_encerradas');
      const soldOut = items.find((i) => i.category.placesLeft <= 0);
      if (soldOut) throw conflict(`Categoria esgotada: ${soldOut.category.name}.`, 'esgotado');
      await repo.lockCpf(tx, p.cpf);
      const ids = items.map((i) => i.category.id);
      if ((await repo.takenCategories(tx, p.cpf, ids)).length > 0)
        throw conflict(DUPLICATE_CPF, 'cpf_ja_inscrito');
      // Only this account's own pending charges: a stranger's unpaid charge for this CPF must not lock
      // the person out (the place stays held; if both pay, the later payment is returned).
      const pending = (
        await deps.payments.openDrafts(tx, 'registration', { field: 'cpf', value: p.cpf }, user.id)
      ).flatMap(categoriesOfDraft);
      if (ids.some((id) => pending.includes(id)))
        throw conflict(
          'Já existe um pagamento em aberto para este CPF nesta categoria. Conclua-o ou aguarde ele expirar.',
          'pagamento_pendente',
        );
      const totalCents = items.reduce((s, i) => s + i.priceCents, 0);
      return {
        amountCents: totalCents,
        description: `Inscrição ${event.name}`.slice(0, 140),
        draft: {
          ...p,
          items: items.map((i) => ({ categoryId: i.category.id, priceCents: i.priceCents })),
          totalCents,
        },
        billingAddress: {
          street: p.street,
          number: 'S/N',
          neighborhood: p.neighborhood,
          zipcode: p.zip_code,
          city: p.city,
          state: p.state,
        },
      };
    },

    async reserve(tx, chargeId, draft) {
      await deps.events.reservePlaces(
        tx,
        chargeId,
        draft.items.map((i) => i.categoryId),
      );
    },

    async release(tx, chargeId) {
      await deps.events.releasePlaces(tx, chargeId);
    },

    async fulfil(tx, charge: ChargeRow) {
      const d = charge.draft as RegistrationDraft;
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
      return { id: row.id };
    },

    async fulfilledBy(db, chargeId) {
      const row = await repo.findByCharge(db, chargeId);
      return row ? { id: row.id } : null;
    },

    // The event's lookup page lists the account's payments for registrations, refunds included.
    payer: (d) => ({
      name: d.nome_completo,
      email: d.email,
      page: `/eventos/register/${d.evento}/ja-me-inscrevi`,
    }),
  };

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
      `Valor: ${formatBRL(registration.totalCents)}`,
      `Inscrição nº ${registration.id}`,
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
    // The QR the staff scans at kit pickup; the number under it works when a camera does not.
    const qr = await checkinQr(registration.id);
    const html = (text: string[]) =>
      [
        ...text.map((line) => `<p>${escapeXml(line) || '&nbsp;'}</p>`),
        `<p>Apresente este QR code na retirada do kit:</p><p><img src="${qr}" alt="QR code da inscrição nº ${registration.id}" width="200" height="200"></p>`,
      ].join('\n');
    const results = await Promise.allSettled(
      recipients.map((r) =>
        deps.mail.send({ to: r.to, subject, text: r.text.join('\n'), html: html(r.text) }),
      ),
    );
    const failed = results.find((r) => r.status === 'rejected');
    if (failed) {
      deps.log.error({ registrationId }, 'registration e-mail failed');
      throw (failed as PromiseRejectedResult).reason;
    }
  }

  async function toWire(row: repo.RegistrationRow): Promise<Registration> {
    const categories = await repo.categoriesOf(deps.db, row.id);
    return {
      id: row.id,
      evento: row.eventId,
      nome_completo: row.fullName,
      cpf: formatCpf(row.cpf),
      data_nascimento: row.birthDate,
      genero: row.gender,
      endereco: row.address,
      numero_contato: formatPhone(row.phone),
      email: row.email,
      categoria_evento: categories.map((c) => c.id),
      categoria_evento_detalhes: categories.map((c) => ({
        id: c.id,
        nome_categoria: c.name,
        preco: centsToReais(c.priceCents),
      })),
      street: row.street,
      zip_code: row.zipCode,
      state: row.state,
      city: row.city,
      neighborhood: row.neighborhood,
      total: centsToReais(row.totalCents),
      criado_em: row.createdAt.toISOString(),
    };
  }

  /**
   * POST /api/participantes/cadastrar/: the registration the paid charge created. The confirmation
   * creates it exactly once; this call only answers it.
   */
  async function registrationForCharge(
    user: AuthUser,
    input: { txid: string; cpf: string; evento: number },
  ): Promise<Registration> {
    const charge = await deps.payments.findByTxid(input.txid);
    if (!charge || charge.userId !== user.id || charge.purpose !== 'registration')
      throw notFound('Pagamento não encontrado.');
    const draft = charge.draft as RegistrationDraft;
    if (draft.cpf !== input.cpf || draft.evento !== input.evento)
      throw conflict('Os dados não correspondem aos do pagamento.', 'dados_divergentes');
    const row = charge.status === 'CONCLUIDA' ? await repo.findByCharge(deps.db, charge.id) : null;
    if (!row) throw conflict('O pagamento ainda não foi confirmado.', 'pagamento_nao_confirmado');
    return toWire(row);
  }

  /** Only registrations the asking account made; any other CPF does not exist for them. */
  async function lookup(user: AuthUser, cpfParam: string, eventId?: number): Promise<RegistrationLookup> {
    const cpf = cpfParam.replace(/\D/g, '');
    const row = cpf.length === 11 ? await repo.findLatestForAccount(deps.db, user.id, cpf, eventId) : null;
    if (!row) throw notFound(LOOKUP_NOT_FOUND);
    const categories = await repo.categoriesOf(deps.db, row.id);
    return {
      id: row.id,
      nome_completo: row.fullName,
      email: row.email,
      numero_contato: formatPhone(row.phone),
      evento_detalhes: { id: row.eventId, nome_evento: row.eventName },
      categoria_evento_detalhes: categories.map((c) => ({ id: c.id, nome_categoria: c.name })),
      endereco: row.address,
      qr_code: await checkinQr(row.id),
    };
  }

  return { purpose, quote, registrationForCharge, lookup, sendConfirmation };
}

export type RegistrationsService = ReturnType<typeof createRegistrationsService>;
