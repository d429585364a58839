import { formatCpf } from '@passada/core/documents';
import { ageGroup } from '@passada/core/events';
import { formatPhone } from '@passada/core/phone';
import type { Db, Tx } from '../../db/client.ts';
import {
  categoriesOfRegistrations,
  findParticipants,
  type ParticipantFilters,
} from './participants.repository.ts';

export type { ParticipantFilters } from './participants.repository.ts';

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
  /** A place the team paid, all of it or a share (docs/decisions/0073, 0079). */
  teamPlace: boolean;
  pcd: boolean;
  emergencyName: string | null;
  emergencyPhone: string | null;
  /** Its races, by day, with the bib staff assigned for each (null before they do). */
  categories: Array<{
    id: number;
    name: string;
    day: string;
    bib: number | null;
    /** The start wave and the estimate it was given by (docs/decisions/0066). */
    wave: string | null;
    estimatedSeconds: number | null;
  }>;
  chargeId: number;
  /** The shop order that paid for it (a cart), or null on the direct path. */
  orderId: number | null;
  cancelledAt: Date | null;
  cancelReason: string | null;
  /** The person the runner authorised to collect the kit (docs/decisions/0063, later). */
  pickupDelegateName: string | null;
  pickupDelegateCpf: string | null;
}

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
export const byName = new Intl.Collator('pt-BR', { sensitivity: 'base' });
export const comparePeople = (a: { fullName: string; id: number }, b: { fullName: string; id: number }) =>
  byName.compare(a.fullName, b.fullName) || a.id - b.id;

/**
 * The participants the filters find (of one event, or of any: `eventId` null), by name, each with its
 * age group on the event's first day and its races.
 */
export async function listParticipants(
  db: Db | Tx,
  eventId: number | null,
  filters: ParticipantFilters = {},
): Promise<ParticipantRow[]> {
  const rows = await findParticipants(db, eventId, filters);
  if (!rows.length) return [];
  rows.sort((a, b) => comparePeople(a.r, b.r));
  const cats = await categoriesOfRegistrations(
    db,
    rows.map(({ r }) => r.id),
  );
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
    teamPlace: r.teamBatchId !== null,
    pcd: r.pcd,
    emergencyName: r.emergencyName,
    emergencyPhone: r.emergencyPhone,
    chargeId: r.chargeId,
    orderId: r.orderId,
    cancelledAt: r.cancelledAt,
    cancelReason: r.cancelReason,
    pickupDelegateName: r.pickupDelegateName,
    pickupDelegateCpf: r.pickupDelegateCpf,
    categories: cats
      .filter((c) => c.registrationId === r.id)
      .map((c) => ({
        id: c.id,
        name: c.name,
        day: c.day,
        bib: c.bib,
        wave: c.wave,
        estimatedSeconds: c.estimatedSeconds,
      })),
  }));
}
