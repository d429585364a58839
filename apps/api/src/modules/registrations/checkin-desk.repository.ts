import { createHash } from 'node:crypto';
import { formatStoreDateTime } from '@passada/core/calendar';
import type { DeskPickup, DeskSnapshot, DeskTicket } from '@passada/core/contracts/painel-checkin-desk';
import { maskCpf } from '@passada/core/documents';
import { type ProofDocumentCheck, proofDocumentCheck } from '@passada/core/price-rules';
import { and, asc, eq, isNotNull, max, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import {
  eventCategories,
  eventCategoryWaves,
  eventDays,
  eventDeskChanges,
  priceRuleProofs,
  registrationCategories,
  registrationCheckins,
  registrationOfflinePickups,
  registrations,
} from '../../db/schema/index.ts';
import { checkinTicketHash } from './checkin-token.ts';
import { deskDelegate, pickupRules } from './pickup-rules.ts';
import * as repo from './registrations.repository.ts';
import { transferredOfEvent } from './transferred-tickets.ts';

/**
 * The kit desk offline (docs/decisions/0063): the snapshot of an event's tickets a desk keeps, and the
 * pickups it scanned offline, received in batches.
 */

type OfflineRow = typeof registrationOfflinePickups.$inferSelect;
type CheckinRow = typeof registrationCheckins.$inferSelect;

const pickupWire = (
  c: Pick<CheckinRow, 'at' | 'staffName' | 'desk' | 'collectedBy' | 'collectorName'>,
): DeskPickup => ({
  em: c.at.toISOString(),
  por: c.staffName,
  mesa: c.desk,
  retirado_por: c.collectedBy,
  retirado_por_nome: c.collectorName,
});

/**
 * The snapshot's version, read before any of its rows (docs/decisions/0063, later): the last write to
 * them the database recorded for the event (the highest `event_desk_changes` id: it only grows, so the
 * nightly pruning of older rows never brings an old version back), with what the snapshot takes from
 * elsewhere (the event's name, the lottery check, the secret its hashes depend on). A 304 is answered from
 * this alone.
 */
export async function deskVersion(
  db: Db,
  secret: string,
  event: { id: number; name: string },
  lottery: boolean,
): Promise<string> {
  const [row] = await db
    .select({ version: max(eventDeskChanges.id) })
    .from(eventDeskChanges)
    .where(eq(eventDeskChanges.eventId, event.id));
  const outside = createHash('sha256')
    .update(JSON.stringify([secret, event.name, lottery]))
    .digest()
    .subarray(0, 9)
    .toString('base64url');
  return `${row?.version ?? 0}.${outside}`;
}

/**
 * The event's registrations as a desk needs them (cancelled ones too, so their codes are refused
 * offline), under `versao`, read by `deskVersion` before the rows: a write meanwhile makes the next
 * request read them again, never the other way round.
 */
export async function deskSnapshot(
  db: Db,
  secret: string,
  event: { id: number; name: string },
  lottery: boolean,
  versao: string,
  /** The special prices' names (price_rules are the events module's). */
  ruleNames: (db: Db, ids: number[]) => Promise<Map<number, { name: string }>>,
): Promise<DeskSnapshot> {
  const [rows, cats, checkins, transferred, rules, special] = await Promise.all([
    db
      .select({
        id: registrations.id,
        fullName: registrations.fullName,
        cpf: registrations.cpf,
        kitSize: registrations.kitSize,
        team: registrations.team,
        seniorDiscount: registrations.seniorDiscount,
        cancelledAt: registrations.cancelledAt,
        nonce: registrations.checkinNonce,
        pickupDelegateName: registrations.pickupDelegateName,
        pickupDelegateCpf: registrations.pickupDelegateCpf,
      })
      .from(registrations)
      .where(eq(registrations.eventId, event.id))
      .orderBy(asc(registrations.id)),
    db
      .select({
        registrationId: registrationCategories.registrationId,
        name: eventCategories.name,
        bib: registrationCategories.bib,
        wave: eventCategoryWaves.name,
      })
      .from(registrationCategories)
      .innerJoin(registrations, eq(registrations.id, registrationCategories.registrationId))
      .innerJoin(eventCategories, eq(eventCategories.id, registrationCategories.categoryId))
      .leftJoin(eventCategoryWaves, eq(eventCategoryWaves.id, registrationCategories.waveId))
      .innerJoin(eventDays, eq(eventDays.id, eventCategories.dayId))
      .where(eq(registrations.eventId, event.id))
      .orderBy(asc(eventDays.date), asc(eventCategories.id)),
    db
      .select({
        registrationId: registrationCheckins.registrationId,
        at: registrationCheckins.at,
        staffName: registrationCheckins.staffName,
        desk: registrationCheckins.desk,
        collectedBy: registrationCheckins.collectedBy,
        collectorName: registrationCheckins.collectorName,
      })
      .from(registrationCheckins)
      .innerJoin(registrations, eq(registrations.id, registrationCheckins.registrationId))
      .where(eq(registrations.eventId, event.id)),
    transferredOfEvent(db, event.id),
    pickupRules(db, event.id),
    specialPricesOfEvent(db, event.id),
  ]);
  const names = await ruleNames(db, [...new Set([...special.values()].map((s) => s.ruleId))]);
  const catsOf = new Map<number, DeskTicket['categorias']>();
  for (const c of cats) {
    const list = catsOf.get(c.registrationId) ?? [];
    list.push({ nome: c.name, numero_peito: c.bib, onda: c.wave });
    catsOf.set(c.registrationId, list);
  }
  const pickups = new Map(checkins.map((c) => [c.registrationId, c]));
  const inscricoes = rows.map(
    (r): DeskTicket => ({
      id: r.id,
      nome: r.fullName,
      cpf: maskCpf(r.cpf),
      categorias: catsOf.get(r.id) ?? [],
      tamanho_camisa: r.kitSize,
      equipe: r.team,
      // As the online card: the special price's name, and a document to ask for unless staff approved it.
      ...specialWire(special.get(r.id), names),
      confira_documento: r.seniorDiscount || special.get(r.id)?.document === 'conferir',
      cancelada: r.cancelledAt !== null,
      transferida: transferred.has(r.id),
      codigo_hash: checkinTicketHash(secret, { registrationId: r.id, eventId: event.id, nonce: r.nonce }),
      retirada: pickups.has(r.id) ? pickupWire(pickups.get(r.id)!) : null,
      retirada_autorizada: deskDelegate(r, rules),
    }),
  );
  const body = {
    evento: { id: event.id, nome: event.name },
    confira_cpf: lottery,
    inscricoes,
    item: rules.item,
  };
  return { ...body, versao };
}

type SpecialPrice = { ruleId: number; document: ProofDocumentCheck };

/**
 * The event's registrations priced by a special price's rule (docs/decisions/0068), with whether its
 * document was checked by staff (`proofDocumentCheck`, as the online card says it). Never the document.
 */
async function specialPricesOfEvent(db: Db, eventId: number): Promise<Map<number, SpecialPrice>> {
  const rows = await db
    .select({
      registrationId: registrationCategories.registrationId,
      ruleId: registrationCategories.priceRuleId,
      status: priceRuleProofs.status,
    })
    .from(registrationCategories)
    .innerJoin(registrations, eq(registrations.id, registrationCategories.registrationId))
    .leftJoin(priceRuleProofs, eq(priceRuleProofs.registrationId, registrationCategories.registrationId))
    .where(and(eq(registrations.eventId, eventId), isNotNull(registrationCategories.priceRuleId)));
  return new Map(
    rows.map((r) => [
      r.registrationId,
      {
        ruleId: r.ruleId!,
        document: proofDocumentCheck(r.status),
      },
    ]),
  );
}

const specialWire = (s: SpecialPrice | undefined, names: Map<number, { name: string }>) =>
  s
    ? { preco_especial: { regra: names.get(s.ruleId)?.name ?? 'Preço especial', documento: s.document } }
    : {};

export interface OfflinePickupInput {
  id: string;
  registrationId: number;
  eventId: number;
  desk: string;
  by: { id: number; name: string };
  scannedAt: Date;
  /** Who collected it and the item brought, as the desk decided from its snapshot. */
  retirou: 'titular' | 'autorizado';
  /** The authorised person the desk's list named (offline, it could not know of a change since). */
  delegateName?: string | null | undefined;
  itemQuantity: number | null;
}

export interface OfflinePickupOutcome {
  row: OfflineRow;
  /** The same scan had been received before: nothing was written now. */
  repeated: boolean;
}

/**
 * One scan of an offline desk, in the caller's transaction, under the registration's row lock like an
 * online check-in: the first pickup of a kit to reach the server is the ledger's; a later one is kept
 * here as `conflito` with the pickup it met. A scan already received answers what it got then.
 */
export async function recordOfflinePickup(
  tx: Tx,
  input: OfflinePickupInput,
  now: Date,
  cancelledMessage: (at: Date) => string,
): Promise<OfflinePickupOutcome> {
  const before = await storedScan(tx, input.id);
  if (before) return { row: before, repeated: true };
  // A desk's clock ahead of the server's does not date a pickup in the future.
  const at = input.scannedAt > now ? now : input.scannedAt;
  const [reg] = await tx
    .select({ eventId: registrations.eventId, cancelledAt: registrations.cancelledAt })
    .from(registrations)
    .where(eq(registrations.id, input.registrationId))
    .for('share');
  const elsewhere = { mensagem: 'Inscrição não encontrada neste evento: o kit não é deste check-in.' };
  // No registration of that number: nothing to record it against, and nothing written.
  if (!reg)
    return {
      row: {
        id: input.id,
        registrationId: input.registrationId,
        desk: input.desk,
        staffId: input.by.id,
        staffName: input.by.name,
        scannedAt: at,
        receivedAt: now,
        outcome: 'recusada',
        detail: elsewhere,
        collectedBy: input.retirou,
        itemQuantity: input.itemQuantity,
      },
      repeated: false,
    };
  let outcome: OfflineRow['outcome'];
  let detail: Record<string, unknown>;
  if (reg.eventId !== input.eventId) {
    outcome = 'recusada';
    detail = elsewhere;
  } else if (reg.cancelledAt) {
    outcome = 'recusada';
    detail = { mensagem: cancelledMessage(reg.cancelledAt) };
  } else {
    // The kit is already out: what the desk decided from its snapshot is recorded, never refused here.
    const { revoked, ...collector } = await offlineCollector(tx, input);
    const created = await repo.insertCheckin(tx, {
      registrationId: input.registrationId,
      staffId: input.by.id,
      staffName: input.by.name,
      at,
      desk: input.desk,
      ...collector,
    });
    const ledger = created ?? (await repo.findCheckins(tx, [input.registrationId]))[0]!;
    // Handed to a person no longer authorised: recorded as it happened, and sent back for staff to check
    // (no `retirada`: there is no other pickup to show).
    outcome = created && !revoked ? 'registrada' : 'conflito';
    detail = created
      ? revoked
        ? {
            mensagem: `a autorização para retirar o kit foi revogada ou trocada depois que esta mesa baixou a lista: o kit saiu com ${collector.collectorName}. Confira com o titular.`,
          }
        : { retirada: pickupWire(ledger) }
      : {
          retirada: pickupWire(ledger),
          mensagem: `Kit já retirado em ${formatStoreDateTime(ledger.at)} por ${ledger.staffName}${ledger.desk ? ` (${ledger.desk})` : ''}.`,
        };
  }
  const [row] = await tx
    .insert(registrationOfflinePickups)
    .values({
      id: input.id,
      registrationId: input.registrationId,
      desk: input.desk,
      staffId: input.by.id,
      staffName: input.by.name,
      scannedAt: at,
      receivedAt: now,
      outcome,
      detail,
      collectedBy: input.retirou,
      itemQuantity: input.itemQuantity,
    })
    .onConflictDoNothing()
    .returning();
  // The same scan sent twice at once: the other request recorded it first, and its pickup is the kit's.
  if (!row) return { row: (await storedScan(tx, input.id))!, repeated: true };
  return { row, repeated: false };
}

/**
 * The collector of an offline scan: the authorised person the desk's list named (else the one authorised
 * now), the item counted when asked; `revoked` when the kit went to an authorised person the runner no
 * longer authorises (revoked, or another person named since the desk's list was taken).
 */
async function offlineCollector(tx: Tx, input: OfflinePickupInput) {
  const [row] = await tx
    .select({ eventId: registrations.eventId, name: registrations.pickupDelegateName })
    .from(registrations)
    .where(eq(registrations.id, input.registrationId));
  const rules = await pickupRules(tx, row!.eventId);
  const quantity = input.itemQuantity && input.itemQuantity > 0 ? input.itemQuantity : null;
  const delegate = input.retirou === 'autorizado';
  const seen = input.delegateName?.trim() || null;
  const same = (a: string, b: string) => a.localeCompare(b, 'pt-BR', { sensitivity: 'base' }) === 0;
  return {
    collectedBy: input.retirou,
    collectorName: delegate ? (seen ?? row?.name ?? 'pessoa autorizada') : null,
    itemQuantity: rules.item ? quantity : null,
    revoked: delegate && (!row?.name || (seen !== null && !same(seen, row.name))),
  };
}

async function storedScan(db: Db | Tx, id: string): Promise<OfflineRow | undefined> {
  const [row] = await db
    .select()
    .from(registrationOfflinePickups)
    .where(eq(registrationOfflinePickups.id, id));
  return row;
}

/**
 * Keeps one `event_desk_changes` row per event, its last (the nightly `checkin.prune-desk-changes`): the
 * version reads the highest id, so nothing a desk holds changes meaning. Answers how many rows went.
 */
export async function pruneDeskChanges(db: Db): Promise<number> {
  const gone = (await db.execute(sql`
    delete from event_desk_changes c
     where c.id < (select max(m.id) from event_desk_changes m where m.event_id = c.event_id)
     returning c.id`)) as { rows: unknown[] };
  return gone.rows.length;
}
