import type { LotteryEntry } from '@passada/core/contracts/lottery';
import { maskCpf } from '@passada/core/documents';
import type { FastifyInstance } from 'fastify';
import type { Env } from '../../config/env.ts';
import type { Db, Tx } from '../../db/client.ts';
import type { MailProvider } from '../../providers/mail/index.ts';
import type { EventsService } from '../events/events.service.ts';
import * as repo from './lottery.repository.ts';
import type { RegistrationCounts } from './registration-counts.ts';

/**
 * What the lottery's parts (the views, the draw, the registrations' gate) share: the service's
 * dependencies and the state of an entry. Each part lives in its own file; lottery.service.ts composes them.
 */
export interface LotteryServiceDeps {
  db: Db;
  now: () => Date;
  env: Pick<Env, 'STORE_NAME' | 'publicUrl'>;
  events: Pick<EventsService, 'findEventRow' | 'findCategories' | 'checkEligibility'>;
  jobs: FastifyInstance['jobs'];
  mail: MailProvider;
  /** What stands against the limits and which winners paid, counted by registrations (installed at start). */
  registrations: RegistrationCounts;
}

/** A winner's state: paid, still within the deadline, or the deadline passed unpaid. */
export function stateOf(entry: repo.EntryRow, lottery: repo.LotteryRow, paid: Set<string>, now: Date) {
  if (lottery.draws === 0) return 'inscrito' as const;
  if (entry.wonInDraw === null) return 'nao_sorteado' as const;
  if (paid.has(entry.cpf)) return 'pago' as const;
  return entry.payBy && entry.payBy > now ? ('sorteado' as const) : ('expirado' as const);
}

/** The CPFs of these entries' winners with a registration standing in the event: the winners who paid. */
export function paidWinners(
  deps: Pick<LotteryServiceDeps, 'registrations'>,
  db: Db | Tx,
  eventId: number,
  entries: readonly repo.EntryRow[],
): Promise<Set<string>> {
  const won = entries.filter((e) => e.wonInDraw !== null).map((e) => e.cpf);
  return deps.registrations.standingCpfs(db, eventId, won);
}

/**
 * The winning entry of each CPF among these (another account's included): the draw gives a CPF,
 * not an entry, its place, so every account that entered the CPF sees the result. The latest draw's.
 */
export async function winnersByCpf(db: Db | Tx, eventId: number, cpfs: readonly string[]) {
  const won = new Map<string, repo.EntryRow>();
  for (const w of await repo.winnersOfCpfs(db, eventId, cpfs)) won.set(w.cpf, w);
  return won;
}

/** An entry as its runner sees it (CPF masked), with its category's name and its state. */
export function toWire(entry: repo.EntryRow, name: string, state: LotteryEntry['estado']): LotteryEntry {
  return {
    id: entry.id,
    nome_completo: entry.fullName,
    cpf_mascarado: maskCpf(entry.cpf),
    categoria: entry.categoryId,
    categoria_nome: name,
    estado: state,
    posicao: entry.rank,
    pagar_ate: state === 'sorteado' || state === 'expirado' ? (entry.payBy?.toISOString() ?? null) : null,
  };
}
