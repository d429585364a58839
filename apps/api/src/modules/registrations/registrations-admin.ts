import { addDays, formatStoreDateTime } from '@passada/core/calendar';
import type { BibAssignment, BibResult, ShirtReport } from '@passada/core/contracts/painel';
import type { EventMoney, EventReport } from '@passada/core/contracts/painel-reports';
import { formatCpf } from '@passada/core/documents';
import { ageGroup } from '@passada/core/events';
import { centsToReais } from '@passada/core/money';
import { formatPhone } from '@passada/core/phone';
import { toSearchText } from '@passada/core/text';
import { and, asc, count, desc, eq, inArray, isNull, like, or, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import {
  eventCategories,
  eventDays,
  eventKitSizes,
  events,
  registrationCategories,
  registrations,
} from '../../db/schema/index.ts';
import { badRequest, HttpError } from '../../plugins/errors.ts';
import { deskSnapshot, type OfflinePickupInput, recordOfflinePickup } from './checkin-desk.repository.ts';
import { readCheckinTicket } from './checkin-token.ts';
import * as report from './event-report.repository.ts';
import * as repo from './registrations.repository.ts';
import { sameText } from './signed-token.ts';
import { transferredRegistrations } from './transferred-tickets.ts';

/** A report's money row on the wire, in reais; net is gross less refunded, subtracted in centavos. */
const moneyWire = (m: report.MoneyRow) => ({
  inscricoes: m.registrations,
  canceladas: m.cancelled,
  bruto: centsToReais(m.grossCents),
  devolvido: centsToReais(m.refundedCents),
  liquido: centsToReais(m.grossCents - m.refundedCents),
});

export type { CheckinRow } from './registrations.repository.ts';

/** The person's fields as the runner and the back office both read them (CPF and phone formatted). */
export function participantIdentity(
  row: Pick<
    ParticipantRow,
    'id' | 'eventId' | 'fullName' | 'cpf' | 'birthDate' | 'gender' | 'email' | 'phone'
  >,
) {
  return {
    id: row.id,
    evento: row.eventId,
    nome_completo: row.fullName,
    cpf: formatCpf(row.cpf),
    data_nascimento: row.birthDate,
    genero: row.gender,
    email: row.email,
    numero_contato: formatPhone(row.phone),
  };
}

/**
 * Names in the order Brazilians read lists in (accents beside their letter, case ignored: Íris before
 * Pedro), for the participants list, the timing company's CSV and bib numbers.
 */
const byName = new Intl.Collator('pt-BR', { sensitivity: 'base' });
const comparePeople = (a: { fullName: string; id: number }, b: { fullName: string; id: number }) =>
  byName.compare(a.fullName, b.fullName) || a.id - b.id;

const ACCENTED = 'áàâãäéèêëíìîïóòôõöúùûüçñ';
const PLAIN = 'aaaaaeeeeiiiiooooouuuucn';

export interface ParticipantFilters {
  categoryId?: number;
  /** aaaa-mm-dd: only people in a category of that day. */
  day?: string;
  /** Part of the name (any case) or of the CPF's digits, the registration's number or a bib. */
  search?: string;
  ids?: number[];
  /** Only what this charge paid for. */
  chargeId?: number;
}

export interface ParticipantRow {
  id: number;
  eventId: number;
  fullName: string;
  cpf: string;
  birthDate: string;
  gender: string;
  email: string;
  phone: string;
  city: string;
  state: string;
  totalCents: number;
  createdAt: Date;
  /** Age group on the event's first day. */
  ageGroup: string;
  /** Half price (60+) applied: check a document at kit pickup. */
  seniorDiscount: boolean;
  kitSize: string | null;
  team: string | null;
  pcd: boolean;
  emergencyName: string | null;
  emergencyPhone: string | null;
  /** Its races, by day, with the bib staff assigned for each (null before they do). */
  categories: Array<{ id: number; name: string; day: string; bib: number | null }>;
  chargeId: number;
  /** The shop order that paid for it (a cart), or null on the direct path. */
  orderId: number | null;
  cancelledAt: Date | null;
  cancelReason: string | null;
}

const QR_MESSAGES = {
  foreign: 'Este QR code não é de uma inscrição da Passada.',
  legacy:
    'Este QR code é do modelo antigo, sem assinatura, e não vale mais para a retirada do kit. Peça o QR code atual (e-mail de confirmação ou página "Já me inscrevi") ou busque pelo nome e confira um documento com foto.',
  forged:
    'QR code inválido: a assinatura não confere (código alterado ou falsificado). Não entregue o kit; busque pelo nome e confira um documento com foto.',
  transferred:
    'Inscrição transferida: o código foi substituído. Este QR code é de quem tinha a inscrição antes; o kit é de quem a recebeu: busque pelo nome e confira um documento com foto.',
} as const;

/** The back office's reads of registrations: participants of an event, for lists, exports and check-in. */
/** `cancel` is the service's (registrations.service.ts), passed in so this file does not import it back. */
export interface RegistrationsAdminDeps<C extends { cancelled: { id: number }[] }> {
  db: Db;
  now: () => Date;
  checkinSecret: string;
  cancel: (tx: Tx, id: number, reason?: string) => Promise<C>;
}

const cancelledMessage = (at: Date) =>
  `Inscrição cancelada em ${formatStoreDateTime(at)}: o kit não pode ser entregue.`;

/**
 * Refuses (409) when the kit of any of these registrations was picked up: like a parcel shipped, a
 * handed-out shirt cannot go back to the stock, so the registration (or the order that paid for it)
 * is no longer cancelled. Callers run it after their rows were written, so a check-in committing
 * meanwhile is either seen here or waits for them and then refuses.
 */
export async function kitPickedUp(db: Db | Tx, registrationIds: number[], consequence: string) {
  const [first] = await repo.findCheckins(db, registrationIds);
  if (first)
    throw new HttpError(
      409,
      `O kit da inscrição nº ${first.registrationId} já foi retirado em ${formatStoreDateTime(first.at)}: ${consequence}.`,
      'kit_retirado',
    );
}

export function createRegistrationsAdmin<C extends { cancelled: { id: number }[] }>(
  deps: RegistrationsAdminDeps<C>,
) {
  async function participants(
    eventId: number | null,
    filters: ParticipantFilters = {},
  ): Promise<ParticipantRow[]> {
    const where: SQL[] = [];
    if (eventId !== null) where.push(eq(registrations.eventId, eventId));
    if (filters.chargeId !== undefined) where.push(eq(registrations.chargeId, filters.chargeId));
    if (filters.ids) where.push(inArray(registrations.id, filters.ids.length ? filters.ids : [0]));
    const search = filters.search?.trim();
    if (search) {
      const digits = search.replace(/\D/g, '');
      // Accent- and case-insensitive, as people type names at a busy check-in desk.
      const pattern = `%${toSearchText(search).replace(/[\\%_]/g, '\\$&')}%`;
      const byName = like(sql`translate(lower(${registrations.fullName}), ${ACCENTED}, ${PLAIN})`, pattern);
      // Digits alone may also be the registration's number, as printed on its e-mail and lookup page,
      // or a bib (número de peito) of one of its races, as the runner says it at the kit desk.
      const number = /^\d{1,9}$/.test(search) ? Number(search) : undefined;
      const byNumber = number !== undefined ? eq(registrations.id, number) : undefined;
      const byBib =
        number !== undefined
          ? sql`exists (${deps.db
              .select({ one: sql`1` })
              .from(registrationCategories)
              .where(
                and(
                  eq(registrationCategories.registrationId, registrations.id),
                  eq(registrationCategories.bib, number),
                ),
              )})`
          : undefined;
      const byCpf = digits.length >= 3 ? like(registrations.cpf, `%${digits}%`) : undefined;
      where.push(or(byName, byCpf, byNumber, byBib)!);
    }
    if (filters.categoryId !== undefined || filters.day !== undefined) {
      const inner: SQL[] = [eq(registrationCategories.registrationId, registrations.id)];
      if (filters.categoryId !== undefined)
        inner.push(eq(registrationCategories.categoryId, filters.categoryId));
      if (filters.day !== undefined) inner.push(eq(eventDays.date, filters.day));
      where.push(
        sql`exists (${deps.db
          .select({ one: sql`1` })
          .from(registrationCategories)
          .innerJoin(eventCategories, eq(eventCategories.id, registrationCategories.categoryId))
          .innerJoin(eventDays, eq(eventDays.id, eventCategories.dayId))
          .where(and(...inner))})`,
      );
    }
    const rows = await deps.db
      .select({ r: registrations, eventStart: events.startDate })
      .from(registrations)
      .innerJoin(events, eq(events.id, registrations.eventId))
      .where(where.length ? and(...where) : undefined);
    if (!rows.length) return [];
    rows.sort((a, b) => comparePeople(a.r, b.r));
    const cats = await deps.db
      .select({
        registrationId: registrationCategories.registrationId,
        id: eventCategories.id,
        name: eventCategories.name,
        day: eventDays.date,
        bib: registrationCategories.bib,
      })
      .from(registrationCategories)
      .innerJoin(eventCategories, eq(eventCategories.id, registrationCategories.categoryId))
      .innerJoin(eventDays, eq(eventDays.id, eventCategories.dayId))
      .where(
        inArray(
          registrationCategories.registrationId,
          rows.map(({ r }) => r.id),
        ),
      )
      .orderBy(asc(eventDays.date), asc(eventCategories.id));
    return rows.map(({ r, eventStart }) => ({
      id: r.id,
      eventId: r.eventId,
      fullName: r.fullName,
      cpf: r.cpf,
      birthDate: r.birthDate,
      gender: r.gender,
      email: r.email,
      phone: r.phone,
      city: r.city,
      state: r.state,
      totalCents: r.totalCents,
      createdAt: r.createdAt,
      ageGroup: ageGroup(r.birthDate, eventStart),
      seniorDiscount: r.seniorDiscount,
      kitSize: r.kitSize,
      team: r.team,
      pcd: r.pcd,
      emergencyName: r.emergencyName,
      emergencyPhone: r.emergencyPhone,
      chargeId: r.chargeId,
      orderId: r.orderId,
      cancelledAt: r.cancelledAt,
      cancelReason: r.cancelReason,
      categories: cats
        .filter((c) => c.registrationId === r.id)
        .map((c) => ({ id: c.id, name: c.name, day: c.day, bib: c.bib })),
    }));
  }

  /**
   * Gives bibs to the event's standing registrations, sorted by name (pt-BR): one sequence from a first
   * number (a person with races on two days keeps one number), or one range per category. Replaces
   * any earlier assignment; cancelled registrations lose theirs. The registrations are locked first,
   * so two assignments at once run one after the other.
   */
  async function assignBibs(tx: Tx, eventId: number, input: BibAssignment): Promise<BibResult> {
    await tx
      .select({ id: registrations.id })
      .from(registrations)
      .where(eq(registrations.eventId, eventId))
      .orderBy(asc(registrations.id))
      .for('update');
    const rows = await tx
      .select({
        rcId: registrationCategories.id,
        id: registrations.id,
        fullName: registrations.fullName,
        categoryId: registrationCategories.categoryId,
        cancelled: sql<boolean>`${registrationCategories.cancelledAt} is not null`,
      })
      .from(registrationCategories)
      .innerJoin(registrations, eq(registrations.id, registrationCategories.registrationId))
      .where(eq(registrations.eventId, eventId));
    const standing = rows.filter((r) => !r.cancelled).sort(comparePeople);
    const categories = await tx
      .select({ id: eventCategories.id, name: eventCategories.name })
      .from(eventCategories)
      .innerJoin(eventDays, eq(eventDays.id, eventCategories.dayId))
      .where(eq(eventDays.eventId, eventId))
      .orderBy(asc(eventDays.date), asc(eventCategories.id));
    const bibs = new Map<number, number>();
    if (input.modo === 'sequencia') {
      const perPerson = new Map<number, number>();
      for (const r of standing) {
        if (!perPerson.has(r.id)) perPerson.set(r.id, input.inicio + perPerson.size);
        bibs.set(r.rcId, perPerson.get(r.id)!);
      }
    } else {
      const ranges: Array<{ name: string; from: number; to: number }> = [];
      for (const [i, c] of categories.entries()) {
        const inCategory = standing.filter((r) => r.categoryId === c.id);
        const range = input.faixas.find((f) => f.categoria === c.id);
        if (!range) {
          if (inCategory.length === 0) continue;
          const detail = `Informe o primeiro número da categoria ${c.name}.`;
          throw badRequest(detail, 'validation_error', { [`faixas.${i}.inicio`]: detail });
        }
        inCategory.forEach((r, n) => {
          bibs.set(r.rcId, range.inicio + n);
        });
        if (inCategory.length)
          ranges.push({ name: c.name, from: range.inicio, to: range.inicio + inCategory.length - 1 });
      }
      if (input.faixas.some((f) => !categories.some((c) => c.id === f.categoria)))
        throw badRequest('Categoria não pertence a este evento.', 'categoria_invalida');
      const sorted = [...ranges].sort((a, b) => a.from - b.from);
      for (const [k, r] of sorted.entries()) {
        const next = sorted[k + 1];
        if (next && next.from <= r.to)
          throw new HttpError(
            409,
            `As faixas de ${r.name} (${r.from} a ${r.to}) e ${next.name} (a partir de ${next.from}) se sobrepõem: aumente o primeiro número de ${next.name}.`,
            'faixas_sobrepostas',
          );
      }
    }
    const all = rows.map((r) => r.rcId);
    if (all.length)
      await tx
        .update(registrationCategories)
        .set({ bib: null })
        .where(inArray(registrationCategories.id, all));
    if (bibs.size) {
      const values = sql.join(
        [...bibs].map(([id, bib]) => sql`(${id}::int, ${bib}::int)`),
        sql`, `,
      );
      await tx.execute(
        sql`update ${registrationCategories} set numero_peito = v.bib from (values ${values}) as v(id, bib) where ${registrationCategories.id} = v.id`,
      );
    }
    return {
      categorias: categories.map((c) => {
        const numbers = standing.filter((r) => r.categoryId === c.id).map((r) => bibs.get(r.rcId)!);
        return {
          id: c.id,
          nome: c.name,
          quantidade: numbers.length,
          primeiro: numbers.length ? Math.min(...numbers) : null,
          ultimo: numbers.length ? Math.max(...numbers) : null,
        };
      }),
    };
  }

  /**
   * Shirts per size for the kit order: the standing registrations' sizes, counted, in the kit's own
   * order (a size since removed from the kit comes last).
   */
  async function shirtsBySize(eventId: number): Promise<ShirtReport> {
    const rows = await deps.db
      .select({ size: registrations.kitSize, n: count() })
      .from(registrations)
      .where(and(eq(registrations.eventId, eventId), isNull(registrations.cancelledAt)))
      .groupBy(registrations.kitSize);
    const kit = await deps.db
      .select({ size: eventKitSizes.size })
      .from(eventKitSizes)
      .where(eq(eventKitSizes.eventId, eventId))
      .orderBy(asc(eventKitSizes.position), asc(eventKitSizes.id));
    const order = (size: string) => {
      const at = kit.findIndex((k) => k.size === size);
      return at < 0 ? kit.length : at;
    };
    const tamanhos = rows
      .filter((r): r is { size: string; n: number } => r.size !== null)
      .sort((a, b) => order(a.size) - order(b.size) || byName.compare(a.size, b.size))
      .map((r) => ({ tamanho: r.size, quantidade: r.n }));
    return { tamanhos, total: tamanhos.reduce((s, t) => s + t.quantidade, 0) };
  }

  /**
   * Holds the registration's row until the transaction ends (shared: check-ins of different kits do
   * not wait for each other) and answers when it was cancelled: a check-in and a cancellation of the
   * same registration then run one after the other, never both.
   */
  async function lockForCheckin(tx: Tx, id: number): Promise<{ cancelledAt: Date | null } | null> {
    const [row] = await tx
      .select({ cancelledAt: registrations.cancelledAt })
      .from(registrations)
      .where(eq(registrations.id, id))
      .for('share');
    return row ?? null;
  }

  /**
   * The registration a scanned kit-pickup QR code proves (docs/decisions/0026): its signature must
   * match, and its nonce and event the registration's own. Anything else is refused (400) with what
   * staff should do instead.
   */
  async function registrationOfTicket(text: string): Promise<{ registrationId: number; eventId: number }> {
    const reading = readCheckinTicket(deps.checkinSecret, text);
    if (reading.kind === 'legacy') throw new HttpError(400, QR_MESSAGES.legacy, 'qr_antigo');
    if (reading.kind === 'foreign') throw new HttpError(400, QR_MESSAGES.foreign, 'qr_invalido');
    if (reading.kind === 'forged') throw new HttpError(400, QR_MESSAGES.forged, 'qr_invalido');
    const { ticket } = reading;
    const [row] = await deps.db
      .select({ eventId: registrations.eventId, nonce: registrations.checkinNonce })
      .from(registrations)
      .where(eq(registrations.id, ticket.registrationId));
    if (!row || row.eventId !== ticket.eventId) throw new HttpError(400, QR_MESSAGES.forged, 'qr_invalido');
    if (!sameText(row.nonce, ticket.nonce)) {
      // Signed right, so once issued: its nonce was drawn again when the registration changed hands.
      const transferred = await transferredRegistrations(deps.db, [ticket.registrationId]);
      throw new HttpError(
        400,
        transferred.size ? QR_MESSAGES.transferred : QR_MESSAGES.forged,
        'qr_invalido',
        undefined,
        transferred.size ? { motivo: 'transferida' } : undefined,
      );
    }
    return { registrationId: ticket.registrationId, eventId: ticket.eventId };
  }

  /** The kit pickups of these registrations (at most one each). */
  const checkins = (registrationIds: number[], db: Db | Tx = deps.db) =>
    repo.findCheckins(db, registrationIds);

  /**
   * Hands the kit out once, under the registration's row lock: a cancellation committing meanwhile
   * wins (409 `inscricao_cancelada`). Answers the new pickup, or undefined when one already exists
   * (the first wins, by primary key).
   */
  async function checkIn(tx: Tx, id: number, by: { id: number; name: string }) {
    const locked = await lockForCheckin(tx, id);
    if (locked?.cancelledAt)
      throw new HttpError(409, cancelledMessage(locked.cancelledAt), 'inscricao_cancelada');
    return repo.insertCheckin(tx, { registrationId: id, staffId: by.id, staffName: by.name, at: deps.now() });
  }

  /**
   * Undoes the pickup made at `at` (the one staff saw), held like a check-in so a cancellation waits
   * and then finds the kit back at the desk. `removed` is undefined when the pickup changed or there
   * is none; `current` is then what there is now.
   */
  async function undoCheckin(tx: Tx, id: number, at: Date) {
    await lockForCheckin(tx, id);
    const removed = await repo.deleteCheckin(tx, id, at);
    const [current] = removed ? [] : await repo.findCheckins(tx, [id]);
    return { removed, current };
  }

  /** Cancels a direct registration (the service's rules), then refuses if a kit it paid for went out. */
  async function cancel(tx: Tx, id: number, reason: string | undefined) {
    const result = await deps.cancel(tx, id, reason);
    await kitPickedUp(
      tx,
      result.cancelled.map((r) => r.id),
      'a inscrição não pode ser cancelada',
    );
    return result;
  }

  /**
   * Registrations per event (not cancelled), and how many of them were free, for the dashboard: counted
   * event by event through the registrations' event index, not by one pass over every registration.
   */
  function perEvent() {
    const counts = deps.db
      .select({
        n: sql<number>`count(*)::int`.as('n'),
        free: sql<number>`(count(*) filter (where ${registrations.totalCents} = 0))::int`.as('free'),
      })
      .from(registrations)
      .where(and(eq(registrations.eventId, events.id), isNull(registrations.cancelledAt)))
      .as('counts');
    return deps.db
      .select({ id: events.id, name: events.name, n: counts.n, free: counts.free })
      .from(events)
      .leftJoinLateral(counts, sql`true`)
      .orderBy(desc(events.id));
  }

  /** Every event's money (gross, refunded, net), newest first, for the reports page. */
  async function moneyPerEvent(): Promise<EventMoney[]> {
    return (await report.moneyPerEvent(deps.db)).map((e) => ({
      evento_id: e.eventId,
      evento: e.name,
      data: e.startDate,
      ...moneyWire(e),
    }));
  }

  /**
   * One event's report: its money in all, per payment method and per lot, and its registrations per
   * day (every day from the first registration to the last, the quiet ones at zero). Null when the
   * event does not exist.
   */
  async function eventReport(eventId: number): Promise<EventReport | null> {
    const event = (await report.moneyPerEvent(deps.db)).find((e) => e.eventId === eventId);
    if (!event) return null;
    const [byMethod, byLot, perDay] = await Promise.all([
      report.moneyByMethod(deps.db, eventId),
      report.salesByLot(deps.db, eventId),
      report.registrationsPerDay(deps.db, eventId),
    ]);
    const days: EventReport['por_dia'] = [];
    const first = perDay[0]?.day;
    const last = perDay[perDay.length - 1]?.day;
    if (first && last) {
      for (let day = first; day <= last && days.length < 731; day = addDays(day, 1)) {
        const found = perDay.find((d) => d.day === day);
        days.push({ dia: day, inscricoes: found?.count ?? 0, canceladas: found?.cancelled ?? 0 });
      }
    }
    return {
      evento_id: eventId,
      evento: event.name,
      data: event.startDate,
      ...moneyWire(byMethod.total),
      descontos: centsToReais(byMethod.total.discountCents),
      pos_venda: centsToReais(byMethod.total.afterSaleCents),
      por_metodo: byMethod.methods.map((m) => ({ metodo: m.method, ...moneyWire(m) })),
      por_lote: byLot.map((l) => ({
        categoria: l.category,
        lote: l.lot,
        inscricoes: l.count,
        canceladas: l.cancelled,
        valor: centsToReais(l.cents),
      })),
      por_dia: days,
    };
  }

  return {
    /** The offline desk's snapshot of an event's tickets (docs/decisions/0063). */
    deskSnapshot: (event: { id: number; name: string }, lottery: boolean) =>
      deskSnapshot(deps.db, deps.checkinSecret, event, lottery),
    /** One pickup scanned offline, recorded once (docs/decisions/0063). */
    recordOfflinePickup: (tx: Tx, input: OfflinePickupInput) =>
      recordOfflinePickup(tx, input, deps.now(), cancelledMessage),
    moneyPerEvent,
    eventReport,
    participants,
    lockForCheckin,
    registrationOfTicket,
    checkins,
    checkIn,
    undoCheckin,
    cancel,
    kitPickedUp,
    cancelledMessage,
    perEvent,
    assignBibs,
    shirtsBySize,
  };
}
