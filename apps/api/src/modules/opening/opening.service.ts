import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { formatStoreDateTime } from '@passada/core/calendar';
import type {
  OpeningStatus,
  OpeningUpdate,
  PainelOpening,
  QueueTicket,
} from '@passada/core/contracts/opening';
import { publicPlacesLeft } from '@passada/core/events';
import type { Db, Tx } from '../../db/client.ts';
import { badRequest, conflict, HttpError, notFound } from '../../plugins/errors.ts';
import type { EventRow, OpeningGateWho } from '../events/events.service.ts';
import type { LotteryService } from './lottery.service.ts';
import * as repo from './opening.repository.ts';
import {
  admittedAt,
  admittedUpTo,
  automaticPerMinute,
  preQueuePlaces,
  type Schedule,
  waitMinutes,
} from './queue-math.ts';
import type { RegistrationCounts } from './registration-counts.ts';

export { OPENING_CHANGED } from './opening.repository.ts';

const MINUTE = 60_000;

/** What an expired turn is told: the truth (one arrival per account, so the turn does not come back). */
const EXPIRED_TURN =
  'Sua vez para se inscrever terminou e não volta: cada conta tem uma vez na fila deste evento. Se a organização encerrar a sala de espera com vagas sobrando, as inscrições reabrem para todos na página do evento.';

export interface OpeningServiceDeps {
  db: Db;
  now: () => Date;
  /** The shop's signing secret; the queue's key is derived from it, never the secret itself. */
  secret: string;
  /** The most joins of one event written in one transaction (OPENING_JOIN_BATCH_MAX). */
  joinBatchMax: number;
  /** What stands against the limits, counted by registrations (installed at start). */
  registrations: RegistrationCounts;
  /** The lottery opening (sorteio): its settings, live counts and registrations' gate. */
  lottery?: LotteryService;
  /** Called when the waiting rooms not yet open change (the events' answers say so). */
  onOpeningsChanged?: () => void;
}

/** The event's schedule as its row stores it (before the opening: from the opening on). */
function scheduleOf(row: repo.OpeningRow): Schedule {
  return {
    baseAt: (row.baseAt ?? row.opensAt).getTime(),
    baseAdmitted: row.baseAdmitted,
    perMinute: Math.max(1, row.perMinute),
  };
}

/** `event.account.arrival.joined.mac`: `joined` is the join's instant in whole seconds since 1970. */
const TOKEN = /^(\d{1,9})\.(\d{1,9})\.(\d{1,9})\.(\d{1,12})\.([A-Za-z0-9_-]{22})$/;

/** The join's instant as the turn counts it (whole seconds: the signed turn carries it so). */
const joinedSeconds = (joinedAt: Date) => Math.floor(joinedAt.getTime() / 1000);

/**
 * The waiting room of an event's opening (docs/decisions/0046-opening-day.md). Every process keeps the
 * openings' small rows in memory, read again on a timer and when a save notifies OPENING_CHANGED; a
 * position poll verifies the runner's signed token (event, account, arrival number) and answers from
 * that memory, with no database statement.
 */
export function createOpeningService(deps: OpeningServiceDeps) {
  const key = createHmac('sha256', deps.secret).update('passada/sala-de-espera/v1').digest();
  let openings = new Map<number, repo.OpeningRow>();
  /** Each frozen pre-queue's places, computed once per process (a few hundred KB for 100,000 runners). */
  const drawn = new Map<number, { size: number; secret: string; places: Uint32Array }>();

  function sign(eventId: number, userId: number, number: number, joined: number): string {
    const body = `${eventId}.${userId}.${number}.${joined}`;
    const mac = createHmac('sha256', key).update(body).digest().subarray(0, 16).toString('base64url');
    return `${body}.${mac}`;
  }

  function verify(token: string): { eventId: number; userId: number; number: number; joined: number } | null {
    const m = TOKEN.exec(token);
    if (!m) return null;
    const [, e, u, n, j, mac] = m;
    // Every poll: the MAC's bytes against the expected ones, without writing the token out again.
    const given = Buffer.from(mac!, 'base64url');
    const expected = createHmac('sha256', key).update(`${e}.${u}.${n}.${j}`).digest().subarray(0, 16);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    return { eventId: Number(e), userId: Number(u), number: Number(n), joined: Number(j) };
  }

  /** Reads every opening's row again (one statement); freezes pre-queues whose opening has passed. */
  async function refresh(): Promise<void> {
    const now = deps.now();
    const rows = await repo.listOpenings(deps.db);
    if (rows.some((r) => r.preQueueSize === null && r.opensAt <= now)) {
      if ((await repo.freezePreQueues(deps.db, now)) > 0) {
        openings = new Map((await repo.listOpenings(deps.db)).map((r) => [r.eventId, r]));
        return tellEvents(now);
      }
    }
    openings = new Map(rows.map((r) => [r.eventId, r]));
    tellEvents(now);
  }

  /** Waiting rooms not yet open, as last told to the events' answers ("event@instant" joined). */
  let told = '';
  /** Tells the events' cached answers when a waiting room was saved, removed or reached its instant. */
  function tellEvents(now: Date): void {
    const waiting = [...openings.values()]
      .filter((r) => r.mode === 'fila' && r.opensAt > now)
      .map((r) => `${r.eventId}@${r.opensAt.getTime()}`)
      .sort()
      .join(',');
    if (waiting === told) return;
    told = waiting;
    deps.onOpeningsChanged?.();
  }

  /** When the event's waiting room opens, while it has not (the event's answer says registrations wait). */
  function notYet(eventId: number, now: Date): Date | null {
    const row = openings.get(eventId);
    return row?.mode === 'fila' && row.opensAt > now ? row.opensAt : null;
  }

  /** The place of arrival `number`: drawn for the pre-queue, its own number after the opening. */
  function placeOf(row: repo.OpeningRow, number: number): number | null {
    const size = row.preQueueSize;
    if (size === null) return null;
    if (number > size) return number;
    let known = drawn.get(row.eventId);
    if (!known || known.size !== size || known.secret !== row.secret) {
      known = { size, secret: row.secret, places: preQueuePlaces(row.secret, size) };
      drawn.set(row.eventId, known);
    }
    return known.places[number - 1]!;
  }

  /**
   * The runner's turn. It starts when the schedule admits the place AND the runner is there: a place
   * the schedule admitted before its runner joined (a late arrival, or an automatic rate running ahead
   * of the arrivals) starts its turn at the join, never ended on arrival.
   */
  function ticket(
    row: repo.OpeningRow,
    userId: number,
    number: number,
    joined: number,
    signed?: string,
  ): QueueTicket {
    const now = deps.now().getTime();
    const vez = signed ?? sign(row.eventId, userId, number, joined);
    const abre_em = row.opensAt.toISOString();
    const place = now < row.opensAt.getTime() ? null : placeOf(row, number);
    if (place === null) {
      // Before the opening, or just after it until this process reads the frozen pre-queue's size.
      return {
        vez,
        estado: 'pre_fila',
        lugar: null,
        a_frente: null,
        espera_minutos: null,
        abre_em,
        vez_expira_em: null,
      };
    }
    const schedule = scheduleOf(row);
    const admitted = admittedUpTo(schedule, now);
    if (place <= admitted) {
      const starts = Math.max(admittedAt(schedule, place), joined * 1000);
      const ends = starts + row.turnMinutes * MINUTE;
      return {
        vez,
        estado: now < ends ? 'admitido' : 'expirada',
        lugar: place,
        a_frente: 0,
        espera_minutos: 0,
        abre_em,
        vez_expira_em: new Date(ends).toISOString(),
      };
    }
    return {
      vez,
      estado: 'aguardando',
      lugar: place,
      a_frente: place - admitted - 1,
      espera_minutos: waitMinutes(place, admitted, schedule.perMinute),
      abre_em,
      vez_expira_em: null,
    };
  }

  function queueOf(eventId: number): repo.OpeningRow {
    const row = openings.get(eventId);
    if (row?.mode !== 'fila') throw notFound('Este evento não tem sala de espera.');
    return row;
  }

  /** What the event page shows of the opening; null when the event opens as usual. */
  function status(eventId: number): OpeningStatus | null {
    const row = openings.get(eventId);
    if (!row) return null;
    const now = deps.now().getTime();
    const preQueueAt = row.opensAt.getTime() - row.preQueueMinutes * MINUTE;
    return {
      modo: row.mode as 'fila' | 'sorteio',
      abre_em: row.opensAt.toISOString(),
      pre_fila_abre_em: new Date(preQueueAt).toISOString(),
      fase: now >= row.opensAt.getTime() ? 'aberta' : now >= preQueueAt ? 'pre_fila' : 'antes',
      minutos_da_vez: row.turnMinutes,
    };
  }

  /** Joins received and not yet written, per event; `writing` while a batch's transaction runs. */
  const joining = new Map<number, { pending: Waiting[]; writing: boolean }>();
  interface Waiting extends repo.PendingJoin {
    done: (r: { arrival: repo.Arrival; row: repo.OpeningRow | undefined }) => void;
    fail: (err: unknown) => void;
  }

  /**
   * Queues one join for the event's next batch (docs/decisions/0054): the process writes one batch of
   * an event at a time, and the joins received meanwhile go together in the next one, so under a burst
   * each transaction carries many joins and an idle room writes a join at once.
   */
  function queueJoin(eventId: number, userId: number, at: Date) {
    return new Promise<{ arrival: repo.Arrival; row: repo.OpeningRow | undefined }>((done, fail) => {
      let room = joining.get(eventId);
      if (!room) {
        room = { pending: [], writing: false };
        joining.set(eventId, room);
      }
      room.pending.push({ userId, at, done, fail });
      if (!room.writing) void writeJoins(eventId, room);
    });
  }

  async function writeJoins(eventId: number, room: { pending: Waiting[]; writing: boolean }) {
    room.writing = true;
    // The joins received in this turn of the event loop go in the first batch too.
    await new Promise((r) => setImmediate(r));
    try {
      while (room.pending.length > 0) {
        // Never a batch with joins from both sides of the opening instant: the pre-queue's size is the
        // arrivals before it (joins are queued in the order received, so those before come first).
        const opensAt = openings.get(eventId)?.opensAt.getTime() ?? Number.POSITIVE_INFINITY;
        const before = room.pending[0]!.at.getTime() < opensAt;
        let n = 1;
        while (
          n < room.pending.length &&
          n < deps.joinBatchMax &&
          room.pending[n]!.at.getTime() < opensAt === before
        )
          n++;
        const batch = room.pending.splice(0, n);
        const now = before ? batch[n - 1]!.at : batch[0]!.at;
        try {
          const written = await deps.db.transaction((tx) => repo.joinMany(tx, eventId, batch, now));
          if (!written) throw notFound('Este evento não tem sala de espera.');
          for (const j of batch) j.done({ arrival: written.numbers.get(j.userId)!, row: written.row });
        } catch (err) {
          for (const j of batch) j.fail(err);
        }
      }
    } finally {
      room.writing = false;
      if (room.pending.length === 0) joining.delete(eventId);
      else void writeJoins(eventId, room);
    }
  }

  /** Joins the account to the event's queue, once: another tab or device gets the same arrival back. */
  async function join(eventId: number, userId: number): Promise<QueueTicket> {
    const row = queueOf(eventId);
    const now = deps.now();
    const preQueueAt = row.opensAt.getTime() - row.preQueueMinutes * MINUTE;
    if (now.getTime() < preQueueAt)
      throw conflict(
        `A fila abre em ${formatStoreDateTime(new Date(preQueueAt))}; volte um pouco antes da abertura.`,
        'fila_fechada',
      );
    const written = await queueJoin(eventId, userId, now);
    // The batch that froze the pre-queue gives the row back: places are known here at once.
    let fresh = openings.get(eventId) ?? row;
    if (written.row && written.row.preQueueSize !== null && fresh.preQueueSize === null) {
      openings.set(eventId, written.row);
      fresh = written.row;
    } else if (now >= fresh.opensAt && fresh.preQueueSize === null) {
      await refresh();
      fresh = openings.get(eventId) ?? fresh;
    }
    return ticket(fresh, userId, written.arrival.number, joinedSeconds(written.arrival.joinedAt));
  }

  /** A position poll: the signed token and this process's memory, no database statement. */
  function poll(eventId: number, token: string): QueueTicket {
    const claim = verify(token);
    if (!claim || claim.eventId !== eventId)
      throw new HttpError(
        400,
        'Sua vez na fila não foi reconhecida. Entre na fila novamente.',
        'vez_invalida',
      );
    return ticket(queueOf(eventId), claim.userId, claim.number, claim.joined, token);
  }

  /**
   * The opening's rule for a new registration (installed on the events service): before the opening
   * nobody registers; after it only an admitted runner whose turn has not ended, within the event's
   * registrations per CPF and per buyer (places being paid for count), counted under the buyer's and
   * the CPF's locks so that two payments at the same instant cannot both pass a limit.
   */
  async function gate(tx: Tx, event: EventRow, who: OpeningGateWho): Promise<void> {
    const row = openings.get(event.id);
    if (row?.mode === 'sorteio' && deps.lottery) return deps.lottery.gate(tx, event, who, row.perBuyer);
    if (row?.mode !== 'fila') return;
    const fresh = (await repo.findOpening(tx, event.id)) ?? row;
    // A transfer hands over a place already sold: no turn, but the same limits under the same locks.
    // A late payment's turn was asked when its charge was made: only the limits are asked again.
    // A team's quota passes the turn, never the opening's instant (docs/decisions/0076).
    if (!who.handover && !who.late) {
      const now = deps.now();
      if (now < row.opensAt)
        throw conflict(
          `As inscrições abrem em ${formatStoreDateTime(row.opensAt)}.`,
          'inscricoes_nao_abertas',
        );
    }
    if (!who.handover && !who.late && !who.quota) {
      const arrival = await repo.findArrival(tx, event.id, who.userId);
      const turn =
        arrival === undefined
          ? null
          : ticket(fresh, who.userId, arrival.number, joinedSeconds(arrival.joinedAt));
      if (!turn || (turn.estado !== 'admitido' && turn.estado !== 'expirada'))
        throw conflict('Aguarde sua vez na fila para se inscrever neste evento.', 'fora_da_vez');
      if (turn.estado === 'expirada') throw conflict(EXPIRED_TURN, 'vez_expirada');
    }
    // Two tabs of one account, or two accounts paying for one CPF, at the same instant: one counts
    // after the other's charge is committed (or rolled back).
    await repo.lockLimits(tx, event.id, who);
    const byCpf = await deps.registrations.countForCpf(tx, event.id, who.cpf, who.handover?.registrationId);
    if (byCpf >= fresh.perCpf)
      throw conflict(
        `Este CPF já tem ${fresh.perCpf === 1 ? 'uma inscrição' : `${fresh.perCpf} inscrições`} (pagas ou em pagamento) neste evento.`,
        'limite_por_cpf',
      );
    if (who.handover && (who.userId <= 0 || who.handover.fromUserId === who.userId)) return;
    const byBuyer =
      (await deps.registrations.countForBuyer(tx, event.id, who.userId)) + (who.inSameCharge ?? 0);
    if (byBuyer >= fresh.perBuyer)
      throw conflict(
        `Esta conta já fez ${fresh.perBuyer} ${fresh.perBuyer === 1 ? 'inscrição' : 'inscrições'} (pagas ou em pagamento) neste evento, o limite da abertura.`,
        'limite_por_comprador',
      );
  }

  /**
   * The event's places as every screen says them: those the public can still take (the event page's
   * figure, `publicPlacesLeft`), and those left but held for someone (the waitlist's offers, the teams'
   * quotas).
   */
  async function livePlaces(db: Db | Tx, eventId: number) {
    const left = await repo.placesLeftPerCategory(db, eventId);
    const held = await deps.registrations.heldPlaces(db, [...left.keys()]);
    let free = 0;
    let reserved = 0;
    for (const [id, n] of left) {
      free += publicPlacesLeft(n, held.get(id));
      reserved += Math.min(Math.max(n, 0), held.get(id)?.offers ?? 0);
    }
    return { free, reserved };
  }

  async function painelView(eventId: number, db: Db | Tx = deps.db): Promise<PainelOpening> {
    const row = await repo.findOpening(db, eventId);
    if (!row) throw notFound('Este evento não tem abertura configurada.');
    const now = deps.now().getTime();
    const arrivals = row.arrivals;
    const admitted = now < row.opensAt.getTime() ? 0 : Math.min(arrivals, admittedUpTo(scheduleOf(row), now));
    const { paid, paying } = await deps.registrations.countOfEvent(db, eventId);
    const places = await livePlaces(db, eventId);
    return {
      versao: row.version,
      modo: row.mode as 'fila' | 'sorteio',
      abre_em: row.opensAt.toISOString(),
      pre_fila_minutos: row.preQueueMinutes,
      admitidos_por_minuto: row.admittedPerMinute,
      minutos_da_vez: row.turnMinutes,
      inscricoes_por_cpf: row.perCpf,
      inscricoes_por_comprador: row.perBuyer,
      ao_vivo: {
        chegadas: arrivals,
        na_fila: arrivals - admitted,
        admitidos: admitted,
        pagando: paying,
        pagas: paid,
        vagas_restantes: places.free,
        vagas_reservadas: places.reserved,
        admitidos_por_minuto: Math.max(1, row.perMinute),
      },
      sorteio: deps.lottery ? await deps.lottery.painelView(db, eventId) : null,
    };
  }

  /**
   * Saves the event's opening settings (staff). A change of the rate after the opening continues the
   * schedule from the places admitted at that instant; a save from a form read before another save is
   * refused (409 `versao_desatualizada`).
   */
  async function save(tx: Tx, eventId: number, input: OpeningUpdate, eventExists: boolean): Promise<void> {
    if (!eventExists) throw notFound('Evento não encontrado.');
    if (input.modo === 'sorteio' && !input.sorteio)
      throw badRequest('Informe as inscrições, as vagas e o prazo do sorteio.', 'validation_error', {
        sorteio: 'Informe as inscrições, as vagas e o prazo do sorteio.',
      });
    const now = deps.now();
    // A lottery opens with its entry window (winners register after the draw, through the gate).
    const opensAt = new Date(
      input.modo === 'sorteio' && input.sorteio ? input.sorteio.inscricoes_de : input.abre_em,
    );
    const before = await repo.lockOpening(tx, eventId);
    if (before && input.versao !== undefined && input.versao !== before.version)
      throw conflict(
        'Esta abertura foi alterada por outra pessoa depois que você abriu o formulário. Recarregue a página.',
        'versao_desatualizada',
      );
    if (before && before.opensAt <= now && opensAt.getTime() !== before.opensAt.getTime())
      throw conflict('A abertura já aconteceu: a data e a hora não mudam mais.', 'abertura_realizada');
    const perMinute =
      input.admitidos_por_minuto ??
      automaticPerMinute(await repo.placesLeft(tx, eventId), input.minutos_da_vez);
    let baseAt: Date | null = null;
    let baseAdmitted = 0;
    if (before && before.opensAt <= now) {
      const admitted = admittedUpTo(scheduleOf(before), now.getTime());
      baseAt = now;
      baseAdmitted = admitted - perMinute;
    }
    const values: repo.OpeningValues = {
      mode: input.modo,
      opensAt,
      preQueueMinutes: input.pre_fila_minutos,
      admittedPerMinute: input.admitidos_por_minuto,
      turnMinutes: input.minutos_da_vez,
      perCpf: input.inscricoes_por_cpf,
      perBuyer: input.inscricoes_por_comprador,
      baseAt,
      baseAdmitted,
      perMinute,
      updatedAt: now,
    };
    if (before) await repo.updateOpening(tx, eventId, values);
    else await repo.insertOpening(tx, eventId, randomBytes(32).toString('hex'), values);
    if (input.modo === 'sorteio' && input.sorteio && deps.lottery)
      await deps.lottery.save(tx, eventId, input.sorteio);
    await repo.notifyOpeningChanged(tx);
  }

  /**
   * Removes the event's opening: it opens as usual again. A waiting room ends at any time, with runners
   * in it (their arrivals go with it; places are held only by payments, which stand). A lottery with
   * entries stays: its entrants were promised a draw.
   */
  async function remove(tx: Tx, eventId: number): Promise<void> {
    const row = await repo.lockOpening(tx, eventId);
    if (row?.mode === 'sorteio' && (await repo.hasEntries(tx, eventId)))
      throw conflict(
        'Já há inscritos no sorteio deste evento: a abertura não pode mais ser removida.',
        'abertura_com_corredores',
      );
    if (!(await repo.deleteOpening(tx, eventId))) throw notFound('Este evento não tem abertura configurada.');
    await repo.notifyOpeningChanged(tx);
  }

  return { refresh, status, join, poll, gate, notYet, painelView, save, remove, sign, verify };
}

export type OpeningService = ReturnType<typeof createOpeningService>;
