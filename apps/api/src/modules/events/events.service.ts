import { createHash } from 'node:crypto';
import { dateInTimeZone, STORE_TIME_ZONE } from '@passada/core/calendar';
import type { Event, EventListQuery, EventPage, EventSummary } from '@passada/core/contracts/events';
import type { PainelEvent } from '@passada/core/contracts/painel';
import { KIT_SIZE_SOLD_OUT } from '@passada/core/contracts/registrations';
import {
  describeLot,
  isRegistrationOpen,
  type LotPrice,
  lotPrice,
  type PriceLot,
  publicPlacesLeft,
} from '@passada/core/events';
import { centsToReais } from '@passada/core/money';
import { ageLimitProblem } from '@passada/core/race-rules';
import type { Db, Tx } from '../../db/client.ts';
import { conflict, HttpError, notFound } from '../../plugins/errors.ts';
import { EVENT_MEDIA_FILE, EVENT_MEDIA_PREFIX, eventPoster } from './event-poster.ts';
import * as repo from './events.repository.ts';
import { createEventsAdmin } from './events-admin.ts';
import { createEventPriceRules } from './price-rules.service.ts';

export type { CategoryInfo, EventRow, KitSizeRow } from './events.repository.ts';
/** Shared beyond the module: the shop's cache listens for it. */
export { EVENTS_CHANGED, notifyEventsChanged } from './events.repository.ts';

/** The store's termo de responsabilidade, for events that do not write their own. */
export const STANDARD_TERMS = [
  'Declaro que estou em boas condições de saúde, apto(a) a participar desta prova, e que treinei adequadamente para ela.',
  'Assumo os riscos da participação e isento a organização, os patrocinadores e a Passada de responsabilidade por acidentes ou danos à saúde, salvo os causados por falha deles.',
  'Conheço e aceito o regulamento do evento, inclusive as regras de desistência e de uso de imagem.',
  'Autorizo o atendimento médico de emergência e o contato com a pessoa que indiquei em caso de necessidade.',
].join('\n\n');

/** The termo the event shows: its own text, or the standard one. */
export function termsText(row: Pick<repo.EventRow, 'terms'>): string {
  return row.terms.trim() || STANDARD_TERMS;
}

/** The version an acceptance records: a hash of the exact text, so any edit makes a new version. */
export function termsVersion(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

function toLots(rows: repo.LotRow[], categoryId: number): PriceLot[] {
  return rows
    .filter((l) => l.categoryId === categoryId)
    .map((l) => ({
      name: l.name,
      priceCents: l.priceCents,
      untilDate: l.untilDate,
      untilCount: l.untilCount,
    }));
}

interface Pricing {
  lots: repo.LotRow[];
  sold: Map<number, number>;
  today: string;
}

function priceOf(category: { id: number; priceCents: number }, p: Pricing): LotPrice {
  return lotPrice(toLots(p.lots, category.id), category.priceCents, p.today, p.sold.get(category.id) ?? 0);
}

type Conn = Db | Tx;

/**
 * A rule another module adds to every new registration of an event (the opening's waiting room,
 * docs/decisions/0046): it throws an HttpError to refuse. Runs in the prepare step's transaction.
 */
export type OpeningGate = (tx: Tx, event: repo.EventRow, who: OpeningGateWho) => Promise<void>;

/** Who a new registration is for: the buying account, the runner's CPF and categories. */
export interface OpeningGateWho {
  userId: number;
  cpf: string;
  categoryIds?: readonly number[];
  /** Runners of the same event already in the same charge (a cart), before this one: they count too. */
  inSameCharge?: number;
  /**
   * A sold place handed to another runner (a transfer, docs/decisions/0060), bought by `fromUserId`: no
   * turn is asked, the limits per CPF and per buyer are (per buyer only once the paying account is
   * known, `userId` > 0; a place handed within one account adds nothing to it). `registrationId`: the
   * registration handed over, whose own transfer's charges are this handover (counted once for the CPF).
   */
  handover?: { fromUserId: number | null; registrationId?: number };
  /**
   * A Pix (or card) paid after its charge ended and gave its places back (docs/decisions/0060): the turn
   * and the lottery's deadline were asked when the charge was made; the limits are asked again, since a
   * CPF's or an account's other payments may have taken them meanwhile.
   */
  late?: boolean;
  /**
   * A place of the runner's team's quota at the opening (docs/decisions/0076): no turn or draw is asked
   * (the organiser gave the team its places); the limits per CPF and per buyer are.
   */
  quota?: boolean;
}

/**
 * The instant an event's opening lets registrations start, while it has not come (null: no opening,
 * or it came). Installed by the opening module, read from its in-memory copy: no statement.
 */
export type OpeningNotYet = (eventId: number, now: Date) => Date | null;

/**
 * Places of categories the public may not take although they are left: the waitlist's outstanding
 * offers, and every place while someone waits (docs/decisions/0042, 0047). Installed by the
 * registrations module; answers per category id.
 */
export type PlacesHeld = (
  db: Db | Tx,
  categoryIds: number[],
) => Promise<Map<number, { waiting: number; offers: number }>>;

export interface EventsServiceDeps {
  db: Db;
  now: () => Date;
}

/** Maps the tables to the spec's wire shape (docs/product.md §3): the one place the names change. */
function toWire(
  row: repo.EventRow,
  days: repo.DayRow[],
  kits: repo.KitSizeRow[],
  pricing: Pricing,
  now: Date,
  held: Map<number, { waiting: number; offers: number }>,
  opensAt: Date | null = null,
): Event {
  const terms = termsText(row);
  return {
    id: row.id,
    nome_evento: row.name,
    organizer: row.organizer,
    imagem_evento: row.imageUrl,
    city: row.city,
    state: row.state,
    start_data_evento: row.startDate,
    end_data_evento: row.endDate,
    prazo_inscricao: row.registrationDeadline,
    hora_evento: row.time,
    descricao_evento: row.description,
    regulamento: row.regulation,
    dias_evento: days
      .filter((d) => d.eventId === row.id)
      .map((d) => ({
        data: d.date,
        categorias: d.categories.map((c) => {
          const price = priceOf(c, pricing);
          return {
            id: c.id,
            nome_categoria: c.name,
            // The price in force today, so every reader of the spec's field sees what the server charges.
            preco_inscricao: centsToReais(price.priceCents),
            // What the public may take: a waitlist's offers hold places (docs/decisions/0047).
            quantidade_disponivel: publicPlacesLeft(c.placesLeft, held.get(c.id)),
            lote_atual: price.current
              ? {
                  nome: price.current.name,
                  descricao: describeLot(price.current),
                  preco: centsToReais(price.current.priceCents),
                }
              : null,
            proximo_preco: price.next
              ? { nome: price.next.name, preco: centsToReais(price.next.priceCents) }
              : null,
            idade_minima: c.minAge,
            idade_maxima: c.maxAge,
            // A relay's runners and its price per team (docs/decisions/0078); absent on individual races.
            ...(c.relayLegs ? { revezamento: c.relayLegs } : {}),
          };
        }),
      })),
    kit: {
      tamanhos: kits
        .filter((k) => k.eventId === row.id)
        .map((k) => ({ id: k.id, tamanho: k.size, quantidade_disponivel: k.left })),
      local_retirada: row.kitPickupPlace,
      horarios_retirada: row.kitPickupHours,
    },
    termo_responsabilidade: terms,
    termo_versao: termsVersion(terms),
    oferece_pcd: row.offersPcd,
    inscricoes_abertas: registrationsOpen(row, now) && opensAt === null,
    inscricoes_abrem_em: opensAt?.toISOString() ?? null,
  };
}

/** Open until the deadline day ends in Fortaleza, unless staff closed them by hand. */
function registrationsOpen(row: repo.EventRow, now: Date): boolean {
  return !row.registrationsClosed && isRegistrationOpen(row.registrationDeadline, now);
}

/** The list's shape of an event: everything but the long texts. */
function summary(event: Event): EventSummary {
  const { regulamento: _regulation, termo_responsabilidade: _terms, ...rest } = event;
  return rest;
}

const CLOSED_BY_HAND = 'As inscrições deste evento foram encerradas pela organização.';

/** Running events, their categories and the places left in each (docs/product.md §7). */
export function createEventsService(deps: EventsServiceDeps) {
  async function pricingFor(
    db: Conn,
    categoryIds: number[],
    now: Date,
    lots?: repo.LotRow[],
  ): Promise<Pricing> {
    return {
      lots: lots ?? (await repo.listLots(db, categoryIds)),
      sold: await repo.countSold(db, categoryIds),
      today: dateInTimeZone(now, STORE_TIME_ZONE),
    };
  }

  let placesHeld: PlacesHeld | null = null;

  /** Installs the waitlist's count of held places (one per process; the registrations module calls it). */
  function setPlacesHeld(count: PlacesHeld): void {
    placesHeld = count;
  }

  async function withDays(rows: repo.EventRow[]): Promise<Event[]> {
    const ids = rows.map((r) => r.id);
    const days = await repo.listDays(deps.db, ids);
    const kits = await repo.listKitSizes(deps.db, ids);
    const now = deps.now();
    const categoryIds = days.flatMap((d) => d.categories.map((c) => c.id));
    const pricing = await pricingFor(deps.db, categoryIds, now);
    const held = placesHeld ? await placesHeld(deps.db, categoryIds) : new Map();
    return rows.map((row) =>
      toWire(row, days, kits, pricing, now, held, openingNotYet?.(row.id, now) ?? null),
    );
  }

  let openingNotYet: OpeningNotYet | null = null;
  const staleListeners: Array<() => void> = [];

  /** Installs the opening's instant of events whose opening has not come (the opening module calls it). */
  function setOpeningNotYet(fn: OpeningNotYet): void {
    openingNotYet = fn;
  }

  /** Who drops this process's cached event answers (the events plugin). */
  function onAnswersStale(listener: () => void): void {
    staleListeners.push(listener);
  }

  /** The openings changed in this process's copy (saved, removed, or an opening instant passed). */
  function openingsChanged(): void {
    for (const listener of staleListeners) listener();
  }

  /**
   * The whole list ordered by start date, or one page of it when `page` is given; each event without
   * its regulation and termo (only the event's own answer carries them).
   */
  async function listEvents(query: EventListQuery): Promise<EventSummary[] | EventPage> {
    if (query.page === undefined) return (await withDays(await repo.listEvents(deps.db))).map(summary);
    const size = query.page_size;
    const total = await repo.countEvents(deps.db);
    const pages = Math.max(1, Math.ceil(total / size));
    if (query.page > pages) throw new HttpError(404, 'Página não encontrada.', 'page_not_found');
    const rows = await repo.listEvents(deps.db, { limit: size, offset: (query.page - 1) * size });
    return { results: (await withDays(rows)).map(summary), count: total, page: query.page, pages };
  }

  async function getEvent(id: number): Promise<Event> {
    const row = await repo.findEvent(deps.db, id);
    if (!row) throw notFound('Evento não encontrado.');
    const [event] = await withDays([row]);
    if (!event) throw notFound('Evento não encontrado.');
    return event;
  }

  /**
   * The event as stored, for the back office's form (PainelEvent): base prices, lots, kit ids, the
   * capacity of each category and kit size (left plus sold or held, read together in one statement
   * so they agree while sales run) and the version a save sends back.
   */
  async function getEventForStaff(id: number, db: Conn = deps.db): Promise<PainelEvent> {
    const row = await repo.findEvent(db, id);
    if (!row) throw notFound('Evento não encontrado.');
    const days = await repo.listDays(db, [id]);
    const kits = await repo.listKitSizes(db, [id]);
    const categoryIds = days.flatMap((d) => d.categories.map((c) => c.id));
    const lots = await repo.listLots(db, categoryIds);
    const places = await repo.categoryOccupancy(db, categoryIds);
    const shirts = await repo.kitOccupancy(
      db,
      kits.map((k) => k.id),
    );
    const occupancy = (o: repo.Occupancy | undefined) => ({
      capacidade: (o?.left ?? 0) + (o?.sold ?? 0),
      vendidas: o?.sold ?? 0,
      restantes: o?.left ?? 0,
    });
    return {
      id: row.id,
      versao: row.version,
      nome_evento: row.name,
      organizer: row.organizer,
      city: row.city,
      state: row.state,
      prazo_inscricao: row.registrationDeadline,
      hora_evento: row.time,
      descricao_evento: row.description,
      regulamento: row.regulation,
      // The generated poster is drawn from the name and dates: empty keeps it in step when they change.
      imagem_evento: row.imageUrl.startsWith(EVENT_MEDIA_PREFIX) ? '' : row.imageUrl,
      kit_tamanhos: kits.map((k) => ({
        id: k.id,
        tamanho: k.size,
        ...occupancy(shirts.get(k.id)),
      })),
      kit_local_retirada: row.kitPickupPlace,
      kit_horarios_retirada: row.kitPickupHours,
      termo_responsabilidade: row.terms,
      oferece_pcd: row.offersPcd,
      nfse_codigo_tributacao_nacional: row.nfseNationalCode,
      nfse_nbs: row.nfseNbs,
      inscricoes_fechadas: row.registrationsClosed,
      dias_evento: days.map((d) => ({
        data: d.date,
        categorias: d.categories.map((c) => ({
          id: c.id,
          nome_categoria: c.name,
          preco_inscricao: centsToReais(c.priceCents),
          idade_minima: c.minAge,
          idade_maxima: c.maxAge,
          revezamento: c.relayLegs as 2 | 4 | 8 | null,
          ...occupancy(places.get(c.id)),
          lotes: lots
            .filter((l) => l.categoryId === c.id)
            .map((l) => ({
              nome: l.name,
              preco_inscricao: centsToReais(l.priceCents),
              ate_data: l.untilDate,
              ate_inscricoes: l.untilCount,
            })),
        })),
      })),
    };
  }

  /**
   * The poster named by `file`, drawn again from its event. A name that is no event's current image
   * answers 404, so a stale URL never gets bytes that differ from the ones it was cached with.
   */
  async function getPoster(file: string): Promise<string> {
    if (!EVENT_MEDIA_FILE.test(file)) throw notFound('Imagem não encontrada.');
    const url = `${EVENT_MEDIA_PREFIX}${file}`;
    const row = await repo.findEventByImageUrl(deps.db, url);
    if (!row) throw notFound('Imagem não encontrada.');
    const poster = eventPoster(row);
    if (poster.url !== url) throw notFound('Imagem não encontrada.');
    return poster.svg;
  }

  /** The stored event (dates, deadline) for registrations, which prices and checks against it. */
  function findEventRow(id: number, db: Conn = deps.db): Promise<repo.EventRow | undefined> {
    return repo.findEvent(db, id);
  }

  /** The given categories with their day and event (of any event: the caller checks). */
  function findCategories(ids: number[], db: Conn = deps.db): Promise<repo.CategoryInfo[]> {
    return repo.findCategories(db, ids);
  }

  /** Every category of the event with its day, by day and then by id (bib ranges, lists). */
  const categoriesOfEvent = (eventId: number, db: Conn = deps.db) => repo.listEventCategories(db, eventId);

  /** The events that start on the day (aaaa-mm-dd, the store's calendar). */
  const eventIdsStartingOn = (date: string, db: Conn = deps.db) => repo.eventIdsStartingOn(db, date);

  /**
   * What each category costs now, by the lot in force (dates in Fortaleza, places sold so far). Given
   * the transaction, categories whose lots end at a count are locked first, so that count cannot be
   * passed twice by charges created at the same moment.
   */
  async function currentPrices(
    categories: ReadonlyArray<{ id: number; priceCents: number }>,
    db: Conn = deps.db,
    lock?: Tx,
  ): Promise<Map<number, { priceCents: number; lotName: string | null }>> {
    const ids = categories.map((c) => c.id);
    const lots = await repo.listLots(db, ids);
    // Only a lot that ends at a count needs the lock; other charges never wait on each other here.
    if (lock && lots.some((l) => l.untilCount !== null)) await repo.lockCategories(lock, ids);
    const pricing = await pricingFor(db, ids, deps.now(), lots);
    return new Map(
      categories.map((c) => {
        const price = priceOf(c, pricing);
        return [c.id, { priceCents: price.priceCents, lotName: price.current?.name ?? null }];
      }),
    );
  }
  const priceRules = createEventPriceRules({ db: deps.db, now: deps.now, currentPrices });

  /**
   * The event-side rules of a new registration, after its categories were checked to be the event's:
   * registrations not closed by hand (409 `inscricoes_encerradas`) and the person's age on each
   * category's race day within the category's limits (400 on `data_nascimento`, core's
   * ageLimitProblem). The deadline is checked by the caller, as before.
   */
  function checkEligibility(
    event: repo.EventRow,
    categories: ReadonlyArray<repo.CategoryInfo>,
    birthDate: string,
  ): void {
    if (event.registrationsClosed) throw conflict(CLOSED_BY_HAND, 'inscricoes_encerradas');
    for (const category of categories) {
      const problem = ageLimitProblem(birthDate, category.date, category);
      if (problem) throw new HttpError(400, problem, 'idade_fora_da_categoria', { data_nascimento: problem });
    }
  }

  /** The event's kit sizes, in order. */
  function findKitSizes(eventId: number, db: Conn = deps.db): Promise<repo.KitSizeRow[]> {
    return repo.listKitSizes(db, [eventId]);
  }

  /** Holds one shirt of the size for the charge, in the caller's transaction; 409 when it ran out. */
  async function reserveKit(tx: Tx, chargeId: number, kitSizeId: number): Promise<void> {
    if (!(await repo.takeKit(tx, kitSizeId))) throw conflict(KIT_SIZE_SOLD_OUT, 'tamanho_esgotado');
    await repo.insertKitReservation(tx, chargeId, kitSizeId);
  }

  /**
   * Holds one place per category for the charge, in the caller's transaction; 409 when one is gone.
   * A place taken under a price rule (`rules`: category → rule) counts against the rule's cap first
   * (409 `regra_esgotada`) and is marked with it, so every release gives the rule's place back too.
   */
  async function reservePlaces(
    tx: Tx,
    chargeId: number,
    categoryIds: number[],
    rules: ReadonlyMap<number, number> = new Map(),
    /** A team's quota a place is taken from (category → quota, counted by its owner: decision 0076). */
    quotas: ReadonlyMap<number, number> = new Map(),
  ): Promise<void> {
    // In id order, as a staff edit locks them: the two never wait on each other in a circle.
    for (const categoryId of [...categoryIds].sort((a, b) => a - b)) {
      const ruleId = rules.get(categoryId) ?? null;
      if (ruleId !== null) await priceRules.takeUnderRule(tx, ruleId, categoryId);
      if (!(await repo.takePlace(tx, categoryId)))
        throw conflict('Não há mais vagas nesta categoria.', 'esgotado');
      await repo.insertReservation(tx, chargeId, categoryId, ruleId, quotas.get(categoryId) ?? null);
    }
  }

  /** Gives back the places and kit shirts the charge still holds, once. */
  async function releasePlaces(tx: Tx, chargeId: number): Promise<void> {
    await repo.releaseReservations(tx, chargeId, deps.now());
    await repo.releaseKitReservations(tx, chargeId, deps.now());
  }

  /** One place of a category the charge holds, given back (docs/decisions/0041). */
  const releaseOnePlace = (tx: Tx, chargeId: number, categoryId: number) =>
    repo.releaseOneReservation(tx, chargeId, categoryId, deps.now());
  /** One place handed from one charge to another, never back to sale in between (docs/decisions/0073). */
  const movePlace = (tx: Tx, fromChargeId: number, toChargeId: number, categoryId: number) =>
    repo.moveOneReservation(tx, fromChargeId, toChargeId, categoryId);
  /** How many places of a category a charge holds now. */
  const heldPlaces = (db: Conn, chargeId: number, categoryId: number) =>
    repo.heldPlaces(db, chargeId, categoryId);
  /** One shirt of a size the charge holds, given back. */
  const releaseOneKit = (tx: Tx, chargeId: number, kitSizeId: number) =>
    repo.releaseOneKitReservation(tx, chargeId, kitSizeId, deps.now());
  let openingGate: OpeningGate | null = null;

  /** Installs the opening's rule (one per process; the opening module calls it at start). */
  function setOpeningGate(gate: OpeningGate): void {
    openingGate = gate;
  }

  /** The opening's rule for a new registration, when one is installed: throws to refuse. */
  async function checkOpeningGate(tx: Tx, event: repo.EventRow, who: Parameters<OpeningGate>[2]) {
    if (openingGate) await openingGate(tx, event, who);
  }

  /** Every event's page and when it last changed, for the sitemap. */
  async function listPageDates(): Promise<Array<{ id: number; updatedAt: Date }>> {
    return (await repo.listEvents(deps.db)).map((r) => ({ id: r.id, updatedAt: r.updatedAt }));
  }

  /** Events' names by id, for the back office's audit log. */
  async function eventNames(): Promise<Map<number, string>> {
    return new Map((await repo.listEvents(deps.db)).map((r) => [r.id, r.name]));
  }

  return {
    listEvents,
    listPageDates,
    eventNames,
    getEvent,
    getEventForStaff,
    getPoster,
    findEventRow,
    findCategories,
    categoriesOfEvent,
    eventIdsStartingOn,
    currentPrices,
    checkEligibility,
    setOpeningGate,
    checkOpeningGate,
    setOpeningNotYet,
    onAnswersStale,
    openingsChanged,
    setPlacesHeld,
    findKitSizes,
    reserveKit,
    reservePlaces,
    releasePlaces,
    releaseOnePlace,
    movePlace,
    heldPlaces,
    releaseOneKit,
    moveReservations: repo.moveReservations,
    admin: createEventsAdmin({ readForStaff: getEventForStaff, now: deps.now }),
    priceRules,
  };
}

export type EventsService = ReturnType<typeof createEventsService>;
