import { and, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { registrationCategories, registrations } from '../../db/schema/index.ts';

/** A standing registration's name and contacts, and its WhatsApp opt-in (null without). */
export interface RunnerContact {
  name: string;
  email: string;
  kitSize: string | null;
  phone: string;
  whatsappConsentAt: Date | null;
}

/**
 * The address a standing registration of an event gives for each bib, for a message about that race
 * (a published result with its certificate, decision 0064, later). The registrations module owns the
 * runner's contact (decision 0061): other modules ask here, by bib, and never read the rows.
 */
export async function contactsByBib(
  db: Db | Tx,
  eventId: number,
  bibs: number[],
): Promise<Map<number, RunnerContact>> {
  if (!bibs.length) return new Map();
  const rows = await db
    .selectDistinct({
      bib: registrationCategories.bib,
      name: registrations.fullName,
      email: registrations.email,
      kitSize: registrations.kitSize,
      phone: registrations.phone,
      whatsappConsentAt: registrations.whatsappConsentAt,
    })
    .from(registrationCategories)
    .innerJoin(registrations, eq(registrations.id, registrationCategories.registrationId))
    .where(
      and(
        eq(registrations.eventId, eventId),
        inArray(registrationCategories.bib, bibs),
        isNotNull(registrationCategories.bib),
        isNull(registrations.cancelledAt),
        isNull(registrationCategories.cancelledAt),
      ),
    );
  return new Map(rows.map(({ bib, ...contact }) => [bib!, contact]));
}

/** The runner of one race entry of a standing registration `userId` made (null when not theirs). */
export interface EntryRunner {
  fullName: string;
  /** Empty once the event's runner data were erased (decision 0061). */
  cpf: string;
  birthDate: string;
  categoryId: number;
}

/**
 * Who ran a race entry, for the next edition's pre-registration in one click (decision 0064, later):
 * only the account that made the registration may ask, so nobody pre-registers a stranger by bib.
 */
export async function runnerOfEntry(
  db: Db | Tx,
  entryId: number,
  userId: number,
): Promise<EntryRunner | undefined> {
  const [row] = await db
    .select({
      fullName: registrations.fullName,
      cpf: registrations.cpf,
      birthDate: registrations.birthDate,
      categoryId: registrationCategories.categoryId,
    })
    .from(registrationCategories)
    .innerJoin(registrations, eq(registrations.id, registrationCategories.registrationId))
    .where(
      and(
        eq(registrationCategories.id, entryId),
        eq(registrations.accountUserId, userId),
        isNull(registrations.cancelledAt),
        isNull(registrationCategories.cancelledAt),
      ),
    );
  return row;
}
