import { dateInTimeZone, STORE_TIME_ZONE } from '@passada/core/calendar';
import type {
  EventPriceRule,
  PainelPriceRule,
  PriceRuleInputSchema,
} from '@passada/core/contracts/price-rules';
import { isValidCpf } from '@passada/core/documents';
import { centsToReais, reaisToCents } from '@passada/core/money';
import {
  PRICE_RULE_PROOF_HINTS,
  type PriceRuleAudience,
  type PriceRuleDiscount,
  priceUnderRule,
  ruleCapacity,
} from '@passada/core/price-rules';
import { and, asc, count, eq, inArray, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/client.ts';
import {
  eventCategories,
  eventDays,
  placeReservations,
  priceRuleListEntries,
  priceRules,
} from '../../db/schema/index.ts';
import { badRequest, conflict, notFound } from '../../plugins/errors.ts';
import { categoryOccupancy, notifyEventsChanged } from './events.repository.ts';

type Conn = Db | Tx;
export type PriceRuleRow = typeof priceRules.$inferSelect;
type RuleInput = z.output<typeof PriceRuleInputSchema>;

/** Places held under each rule now: unreleased reservations (a paid place stays held). */
async function usesOf(db: Conn, ruleIds: number[]): Promise<Map<number, number>> {
  if (ruleIds.length === 0) return new Map();
  const rows = await db
    .select({ ruleId: placeReservations.priceRuleId, n: count() })
    .from(placeReservations)
    .where(and(inArray(placeReservations.priceRuleId, ruleIds), isNull(placeReservations.releasedAt)))
    .groupBy(placeReservations.priceRuleId);
  return new Map(rows.map((r) => [r.ruleId ?? 0, r.n]));
}

async function listSizes(db: Conn, ruleIds: number[]): Promise<Map<number, number>> {
  if (ruleIds.length === 0) return new Map();
  const rows = await db
    .select({ ruleId: priceRuleListEntries.ruleId, n: count() })
    .from(priceRuleListEntries)
    .where(inArray(priceRuleListEntries.ruleId, ruleIds))
    .groupBy(priceRuleListEntries.ruleId);
  return new Map(rows.map((r) => [r.ruleId, r.n]));
}

function columnsOf(input: RuleInput) {
  return {
    categoryId: input.categoria,
    audience: input.publico,
    name: input.nome,
    discount: input.desconto,
    fixedPriceCents:
      input.desconto === 'preco_fixo' && input.preco_fixo !== null ? reaisToCents(input.preco_fixo) : null,
    capPlaces: input.limite_vagas,
    capPercent: input.limite_percentual,
    untilDate: input.ate,
    proofRequired: input.exige_comprovante,
    reviewHours: input.prazo_analise_horas,
  };
}

/**
 * Price rules by who the runner is (docs/decisions/0068): the organiser's rules per category, the
 * form's offer, and the cap a place under a rule is taken against. The registrations module prices
 * with `forRegistration` and holds places through `reservePlaces`, which calls `takeUnderRule`.
 */
export function createEventPriceRules(deps: {
  db: Db;
  now: () => Date;
  currentPrices: (
    categories: ReadonlyArray<{ id: number; priceCents: number }>,
    db?: Conn,
  ) => Promise<Map<number, { priceCents: number; lotName: string | null }>>;
}) {
  const today = () => dateInTimeZone(deps.now(), STORE_TIME_ZONE);

  async function rulesOfEvent(db: Conn, eventId: number) {
    return db
      .select({
        rule: priceRules,
        categoryName: eventCategories.name,
        categoryPrice: eventCategories.priceCents,
      })
      .from(priceRules)
      .innerJoin(eventCategories, eq(eventCategories.id, priceRules.categoryId))
      .where(eq(priceRules.eventId, eventId))
      .orderBy(asc(priceRules.categoryId), asc(priceRules.id));
  }

  /** The categories' capacities (sold and left) and each rule's cap and uses. */
  async function capsOf(db: Conn, rules: PriceRuleRow[]) {
    const occupancy = await categoryOccupancy(db, [...new Set(rules.map((r) => r.categoryId))]);
    const uses = await usesOf(
      db,
      rules.map((r) => r.id),
    );
    return (rule: PriceRuleRow) => {
      const o = occupancy.get(rule.categoryId);
      return {
        cap: ruleCapacity(rule, o ? o.left + o.sold : 0),
        used: uses.get(rule.id) ?? 0,
      };
    };
  }

  /** The event's rules for the back office, archived ones last. */
  async function forStaff(eventId: number, db: Conn = deps.db): Promise<PainelPriceRule[]> {
    const rows = await rulesOfEvent(db, eventId);
    const caps = await capsOf(
      db,
      rows.map((r) => r.rule),
    );
    const lists = await listSizes(
      db,
      rows.map((r) => r.rule.id),
    );
    return rows
      .map(({ rule, categoryName }) => {
        const { cap, used } = caps(rule);
        return {
          id: rule.id,
          categoria: rule.categoryId,
          nome_categoria: categoryName,
          publico: rule.audience as PriceRuleAudience,
          nome: rule.name,
          desconto: rule.discount as PriceRuleDiscount,
          preco_fixo: rule.fixedPriceCents === null ? null : centsToReais(rule.fixedPriceCents),
          limite_vagas: rule.capPlaces,
          limite_percentual: rule.capPercent,
          limite: cap,
          usadas: used,
          ate: rule.untilDate,
          exige_comprovante: rule.proofRequired,
          prazo_analise_horas: rule.reviewHours,
          cpfs_na_lista: lists.get(rule.id) ?? 0,
          arquivada: rule.archivedAt !== null,
        };
      })
      .sort((a, b) => Number(a.arquivada) - Number(b.arquivada));
  }

  async function checkCategory(tx: Tx, eventId: number, categoryId: number) {
    const [found] = await tx
      .select({ id: eventCategories.id })
      .from(eventCategories)
      .innerJoin(eventDays, eq(eventDays.id, eventCategories.dayId))
      .where(and(eq(eventCategories.id, categoryId), eq(eventDays.eventId, eventId)));
    if (!found)
      throw badRequest('Categoria não pertence a este evento.', 'categoria_invalida', {
        categoria: 'Categoria não pertence a este evento.',
      });
  }

  async function lockRule(tx: Tx, eventId: number, ruleId: number): Promise<PriceRuleRow> {
    const [rule] = await tx
      .select()
      .from(priceRules)
      .where(and(eq(priceRules.id, ruleId), eq(priceRules.eventId, eventId)))
      .for('update');
    if (!rule) throw notFound('Regra de preço não encontrada.');
    return rule;
  }

  async function create(tx: Tx, eventId: number, input: RuleInput): Promise<PainelPriceRule[]> {
    await checkCategory(tx, eventId, input.categoria);
    await tx.insert(priceRules).values({ eventId, ...columnsOf(input) });
    await notifyEventsChanged(tx);
    return forStaff(eventId, tx);
  }

  /** A rule's terms changed; places already sold under it keep what they paid. */
  async function update(
    tx: Tx,
    eventId: number,
    ruleId: number,
    input: RuleInput,
  ): Promise<PainelPriceRule[]> {
    const rule = await lockRule(tx, eventId, ruleId);
    await checkCategory(tx, eventId, input.categoria);
    if (input.categoria !== rule.categoryId && ((await usesOf(tx, [ruleId])).get(ruleId) ?? 0) > 0)
      throw conflict(
        'Esta regra já tem inscrições; para outra categoria, crie uma regra nova.',
        'regra_com_inscricoes',
      );
    await tx.update(priceRules).set(columnsOf(input)).where(eq(priceRules.id, ruleId));
    await notifyEventsChanged(tx);
    return forStaff(eventId, tx);
  }

  /** Archived: offered to no one from now on; registrations already priced by it stay as they are. */
  async function archive(tx: Tx, eventId: number, ruleId: number): Promise<PainelPriceRule[]> {
    await lockRule(tx, eventId, ruleId);
    await tx.update(priceRules).set({ archivedAt: deps.now() }).where(eq(priceRules.id, ruleId));
    await notifyEventsChanged(tx);
    return forStaff(eventId, tx);
  }

  /**
   * A `lista` rule's CPFs replaced from a CSV: the first column of each line (a header line naming
   * "cpf" is skipped), with or without punctuation; an invalid CPF is reported with its line.
   */
  async function importList(tx: Tx, eventId: number, ruleId: number, csv: string) {
    const rule = await lockRule(tx, eventId, ruleId);
    if (rule.audience !== 'lista')
      throw conflict('Só uma regra de lista do organizador recebe uma lista de CPFs.', 'regra_sem_lista');
    const cpfs = new Set<string>();
    const refused: Array<{ linha: number; motivo: string }> = [];
    csv
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/)
      .forEach((line, i) => {
        const first = line.split(/[;,\t]/)[0]?.trim() ?? '';
        if (!first || (i === 0 && /cpf/i.test(first))) return;
        const digits = first.replace(/[.\-\s]/g, '');
        if (/^\d{11}$/.test(digits) && isValidCpf(digits)) cpfs.add(digits);
        else refused.push({ linha: i + 1, motivo: `CPF inválido: ${first.slice(0, 20)}` });
      });
    await tx.delete(priceRuleListEntries).where(eq(priceRuleListEntries.ruleId, ruleId));
    const list = [...cpfs];
    for (let i = 0; i < list.length; i += 1000)
      await tx.insert(priceRuleListEntries).values(list.slice(i, i + 1000).map((cpf) => ({ ruleId, cpf })));
    return { cpfs: list.length, recusadas: refused.slice(0, 100) };
  }

  /** What the registration form offers: the event's live rules, priced for the lot in force now. */
  async function ofEvent(eventId: number): Promise<EventPriceRule[]> {
    const day = today();
    const rows = (await rulesOfEvent(deps.db, eventId)).filter(
      ({ rule }) => rule.archivedAt === null && (rule.untilDate === null || rule.untilDate >= day),
    );
    if (rows.length === 0) return [];
    const prices = await deps.currentPrices(
      rows.map((r) => ({ id: r.rule.categoryId, priceCents: r.categoryPrice })),
    );
    const caps = await capsOf(
      deps.db,
      rows.map((r) => r.rule),
    );
    return rows.map(({ rule, categoryPrice }) => {
      const { cap, used } = caps(rule);
      const full = prices.get(rule.categoryId)?.priceCents ?? categoryPrice;
      return {
        id: rule.id,
        categoria: rule.categoryId,
        publico: rule.audience as PriceRuleAudience,
        nome: rule.name,
        desconto: rule.discount as PriceRuleDiscount,
        preco: centsToReais(priceUnderRule({ ...rule, discount: rule.discount as PriceRuleDiscount }, full)),
        exige_comprovante: rule.proofRequired,
        comprovante: rule.proofRequired ? PRICE_RULE_PROOF_HINTS[rule.audience as PriceRuleAudience] : null,
        ate: rule.untilDate,
        esgotada: cap !== null && used >= cap,
      };
    });
  }

  /**
   * The rule a registration asks for, checked for this category and CPF: live (not archived, not past
   * its day) and, for a list, with the CPF on it. Refused with the field named.
   */
  async function forRegistration(
    db: Conn,
    input: { ruleId: number; categoryIds: readonly number[]; cpf: string },
  ): Promise<PriceRuleRow> {
    const refuse = (message: string, code = 'regra_preco_invalida') =>
      badRequest(message, code, { regra_preco: message });
    const [rule] = await db.select().from(priceRules).where(eq(priceRules.id, input.ruleId));
    if (!rule || !input.categoryIds.includes(rule.categoryId))
      throw refuse('Este preço especial não é desta categoria.');
    if (rule.archivedAt !== null || (rule.untilDate !== null && rule.untilDate < today()))
      throw refuse('Este preço especial não está mais disponível.');
    if (rule.audience === 'lista') {
      const [listed] = await db
        .select({ cpf: priceRuleListEntries.cpf })
        .from(priceRuleListEntries)
        .where(and(eq(priceRuleListEntries.ruleId, rule.id), eq(priceRuleListEntries.cpf, input.cpf)));
      if (!listed) throw refuse(`Este CPF não está na lista de «${rule.name}».`, 'fora_da_lista');
    }
    return rule;
  }

  /**
   * Before a place is taken under a rule (in the reservation's transaction): the rule's row locked, so
   * two charges counting its last place wait on each other, and 409 when its cap is reached. The cap
   * is read from the category's capacity before this place is taken.
   */
  async function takeUnderRule(tx: Tx, ruleId: number, categoryId: number): Promise<void> {
    const [rule] = await tx.select().from(priceRules).where(eq(priceRules.id, ruleId)).for('update');
    if (!rule || rule.categoryId !== categoryId)
      throw new Error(`price rule ${ruleId} is not of ${categoryId}`);
    const { cap, used } = (await capsOf(tx, [rule]))(rule);
    if (cap !== null && used >= cap)
      throw conflict(
        `As vagas de «${rule.name}» acabaram. Escolha o preço normal ou aguarde: uma vaga pode voltar.`,
        'regra_esgotada',
      );
  }

  /**
   * The places a charge holds in these categories stop counting against their rules (the registration
   * was transferred to someone the rule did not admit): the rules' caps get those places back.
   */
  async function clearMarks(tx: Tx, chargeId: number, categoryIds: number[]): Promise<void> {
    if (categoryIds.length === 0) return;
    await tx
      .update(placeReservations)
      .set({ priceRuleId: null })
      .where(
        and(
          eq(placeReservations.chargeId, chargeId),
          inArray(placeReservations.categoryId, categoryIds),
          isNull(placeReservations.releasedAt),
        ),
      );
    await notifyEventsChanged(tx);
  }

  /** A rule's name and audience by id, for the desk, the reports and the review queue. */
  async function names(db: Conn, ids: number[]) {
    if (ids.length === 0) return new Map<number, { name: string; audience: PriceRuleAudience }>();
    const rows = await db
      .select({ id: priceRules.id, name: priceRules.name, audience: priceRules.audience })
      .from(priceRules)
      .where(inArray(priceRules.id, ids));
    return new Map(rows.map((r) => [r.id, { name: r.name, audience: r.audience as PriceRuleAudience }]));
  }

  return {
    forStaff,
    create,
    update,
    archive,
    importList,
    ofEvent,
    forRegistration,
    takeUnderRule,
    clearMarks,
    names,
  };
}

export type EventPriceRulesService = ReturnType<typeof createEventPriceRules>;
