import type { Participant } from '@passada/core/contracts/registrations';
import type {
  EventWaitlist,
  PainelWaitlist,
  WaitlistEntryWire,
  WaitlistJoin,
} from '@passada/core/contracts/waitlist';
import type { Tx } from '../../db/client.ts';
import { conflict, notFound } from '../../plugins/errors.ts';
import * as afterSale from './after-sale.repository.ts';
import { waitlistKnownMail, waitlistMail } from './after-sale-mail.ts';
import type { Prepare } from './registration-prepare.ts';
import * as registrationsRepo from './registrations.repository.ts';
import type { RegistrationsServiceDeps } from './registrations-context.ts';
import { mac128, macMatches, sameText } from './signed-token.ts';
import * as repo from './waitlist.repository.ts';

/** What a public registration gets when the category's free places belong to the waitlist. */
export const WAITLIST_SOLD_OUT = 'Categoria esgotada: as vagas liberadas vão para a lista de espera.';

// Dashes, not dots: a path ending in ".xyz" is taken for a file by the server, not for a page.
const LINK = /^(\d{1,9})-([0-9a-f]{32})-([A-Za-z0-9_-]{22})$/;

/**
 * The entry's signed link (docs/decisions/0042-waitlist.md): `<entry>-<nonce>-<HMAC-SHA256, 128 bits>`,
 * the nonce being the entry's own random `link_nonce`. Signed with CHECKIN_TOKEN_SECRET under its own
 * prefix, so a waitlist signature can never pass for a kit-pickup ticket's, nor the other way round.
 */
function signature(secret: string, entryId: number, nonce: string): Buffer {
  return mac128(secret, `waitlist.${entryId}.${nonce}`);
}

export function waitlistToken(secret: string, entry: { id: number; linkNonce: string }): string {
  return `${entry.id}-${entry.linkNonce}-${signature(secret, entry.id, entry.linkNonce).toString('base64url')}`;
}

/** The entry id of a well-signed link (the nonce is compared with the row by the caller), or null. */
function readToken(secret: string, token: string): { id: number; nonce: string } | null {
  const m = LINK.exec(token.trim());
  if (!m) return null;
  const id = Number(m[1]);
  return macMatches(m[3]!, signature(secret, id, m[2]!)) ? { id, nonce: m[2]! } : null;
}

/**
 * The waitlist of sold-out categories (docs/decisions/0042-waitlist.md). Places an outstanding offer
 * holds stay in `quantidade_disponivel`; what the public may take is the places left minus the
 * outstanding offers, and nothing while someone waits. Every move happens under the category's row
 * lock, the one a sale's UPDATE takes, so the counts read here stay true until commit. The single
 * place that issues offers is `sweepCategory`; places-freed points only queue `waitlist.sweep`.
 */
/** Whose places a charge takes: the person (CPF, event, an offer's link) and the categories. */
export type PlacesWanted = Pick<Participant, 'cpf' | 'evento' | 'oferta_espera'> & {
  items: Array<{ categoryId: number; priceRuleId?: number | null; teamQuotaId?: number }>;
};

export function createWaitlist(deps: RegistrationsServiceDeps, steps: Pick<Prepare, 'checkOpen'>) {
  const secret = deps.env.CHECKIN_TOKEN_SECRET;
  const hours = (rules: { waitlistOfferHours: number }) => rules.waitlistOfferHours * 3600_000;

  /** Queues the offer sweep, to run once the caller's transaction commits (a place may have been freed). */
  async function nudge(tx: Tx): Promise<void> {
    // One waiting run is enough (each run looks at every category): a second send is dropped.
    await deps.jobs.send('waitlist.sweep', {}, { tx, singletonKey: 'waitlist' });
  }

  async function entryOfToken(db: RegistrationsServiceDeps['db'] | Tx, token: string, lock?: 'lock') {
    const read = readToken(secret, token);
    const row = read
      ? lock
        ? await repo.lockEntry(db as Tx, read.id)
        : await repo.findEntry(db, read.id)
      : undefined;
    if (!row || !read || !sameText(row.linkNonce, read.nonce))
      throw notFound('Link da lista de espera inválido ou de outra inscrição.');
    return row;
  }

  async function toWire(
    db: RegistrationsServiceDeps['db'] | Tx,
    row: repo.WaitlistEntryRow,
  ): Promise<WaitlistEntryWire> {
    const [event, [category]] = await Promise.all([
      deps.events.findEventRow(row.eventId, db),
      deps.events.findCategories([row.categoryId], db),
    ]);
    return {
      evento: row.eventId,
      evento_nome: event?.name ?? '',
      categoria: row.categoryId,
      categoria_nome: category?.name ?? '',
      nome_completo: row.fullName,
      status: row.status,
      posicao: row.status === 'aguardando' ? await repo.positionOf(db, row) : null,
      oferta_expira_em:
        row.status === 'oferta' || row.status === 'aceita'
          ? (row.offerExpiresAt?.toISOString() ?? null)
          : null,
    };
  }

  /** Whether the organiser turned the waitlist on for this category. */
  async function enabled(db: RegistrationsServiceDeps['db'] | Tx, eventId: number, categoryId: number) {
    const { rules } = await afterSale.findRules(db, eventId);
    return { on: rules.waitlistCategoryIds.includes(categoryId), rules };
  }

  /**
   * A runner joins the line of a sold-out category of the event: the waitlist is on for it,
   * registrations are open, no place is left for the public, the CPF holds no registration of the
   * category and is not already in its line (the partial unique index is the final guard).
   */
  async function join(eventId: number, input: WaitlistJoin): Promise<WaitlistEntryWire> {
    // No public oracle (docs/decisions/0056): a CPF already registered in the category or already in
    // its line gets the same answer as a new one, without a position; the truth goes only to the
    // e-mail given, and the position only through the link e-mailed to a real entry.
    let known: { why: 'inscrito' | 'na_fila'; event: string; category: string } | null = null;
    const row = await deps.db.transaction(async (tx) => {
      const category = await repo.lockCategory(tx, input.categoria);
      if (!category || category.eventId !== eventId) throw notFound('Categoria não encontrada neste evento.');
      const event = await deps.events.findEventRow(eventId, tx);
      if (!event) throw notFound('Evento não encontrado.');
      if (!(await enabled(tx, eventId, category.id)).on)
        throw conflict('Esta categoria não tem lista de espera.', 'lista_espera_indisponivel');
      steps.checkOpen(event);
      deps.events.checkEligibility(event, [], '');
      const counts = (await repo.countsOf(tx, [category.id], deps.now())).get(category.id)!;
      if (counts.waiting === 0 && category.placesLeft - counts.offers > 0)
        throw conflict('Ainda há vagas nesta categoria: faça a inscrição.', 'vagas_disponiveis');
      await registrationsRepo.lockCpf(tx, input.cpf);
      if ((await registrationsRepo.takenCategories(tx, input.cpf, [category.id])).length > 0) {
        known = { why: 'inscrito', event: event.name, category: category.name };
        return null;
      }
      const inserted = await repo.insertEntry(tx, {
        categoryId: category.id,
        eventId,
        fullName: input.nome_completo,
        cpf: input.cpf,
        email: input.email,
        createdAt: deps.now(),
      });
      if (!inserted) {
        known = { why: 'na_fila', event: event.name, category: category.name };
        return null;
      }
      await repo.addHistory(tx, inserted.id, 'entrou', deps.now());
      await deps.jobs.send('mail.waitlist', { entryId: inserted.id, kind: 'entrou' }, { tx });
      return inserted;
    });
    const [category] = await deps.events.findCategories([input.categoria]);
    const same: WaitlistEntryWire = {
      evento: eventId,
      evento_nome: (await deps.events.findEventRow(eventId))?.name ?? '',
      categoria: input.categoria,
      categoria_nome: category?.name ?? '',
      nome_completo: input.nome_completo,
      status: 'aguardando',
      posicao: null,
      oferta_expira_em: null,
    };
    if (row) return same;
    const truth = known as { why: 'inscrito' | 'na_fila'; event: string; category: string } | null;
    if (truth)
      await deps.mail
        .send(waitlistKnownMail({ env: deps.env, to: input.email, ...truth }))
        .catch((err: unknown) => deps.log.error({ err }, 'waitlist e-mail failed'));
    return same;
  }

  /** The runner's entry, from the signed link e-mailed to them. */
  async function byToken(token: string): Promise<WaitlistEntryWire> {
    return toWire(deps.db, await entryOfToken(deps.db, token));
  }

  /**
   * The runner leaves the line. An outstanding offer is given up with it: its place goes to the next
   * (the sweep is queued). An accepted offer waiting for its payment cannot be left here: the charge
   * holds the place until it is paid or expires.
   */
  async function leave(token: string): Promise<WaitlistEntryWire> {
    const row = await deps.db.transaction(async (tx) => {
      const entry = await entryOfToken(tx, token, 'lock');
      if (entry.status === 'aceita')
        throw conflict(
          'Você já aceitou a vaga e o pagamento está em aberto: ele libera a vaga sozinho se não for concluído.',
          'oferta_aceita',
        );
      if (entry.status !== 'aguardando' && entry.status !== 'oferta')
        throw conflict('Você não está mais na lista de espera desta categoria.', 'fora_da_lista_espera');
      const left = await repo.move(tx, entry.id, ['aguardando', 'oferta'], {
        status: 'saiu',
        endedAt: deps.now(),
      });
      await repo.addHistory(tx, entry.id, 'saiu', deps.now());
      if (entry.status === 'oferta') await nudge(tx);
      return left!;
    });
    return toWire(deps.db, row);
  }

  /**
   * THE offer sweep of one category, in its own transaction under the category's row lock: offers
   * whose time ran out expire (their places come back to the count), and while places are free
   * (left minus outstanding offers) the first in line get an offer, each holding one place for the
   * event's `waitlistOfferHours`. Idempotent: run it as often as you like. Answers the entries offered.
   */
  async function sweepCategory(categoryId: number): Promise<number[]> {
    return deps.db.transaction(async (tx) => {
      const category = await repo.lockCategory(tx, categoryId);
      if (!category) return [];
      const now = deps.now();
      for (const gone of await repo.expireOffers(tx, categoryId, now))
        await repo.addHistory(tx, gone.id, 'oferta_expirada', now);
      const event = await deps.events.findEventRow(category.eventId, tx);
      const { on, rules } = await enabled(tx, category.eventId, categoryId);
      // Registrations closed (deadline, by hand) or the waitlist turned off: nobody could accept.
      const open = event && !event.registrationsClosed && isOpen(event);
      if (!on || !open) return [];
      const counts = (await repo.countsOf(tx, [categoryId], now)).get(categoryId)!;
      const free = category.placesLeft - counts.offers;
      const offered: number[] = [];
      for (const next of await repo.nextWaiting(tx, categoryId, Math.min(free, counts.waiting))) {
        await repo.move(tx, next.id, ['aguardando'], {
          status: 'oferta',
          offeredAt: now,
          offerExpiresAt: new Date(now.getTime() + hours(rules)),
        });
        await repo.addHistory(tx, next.id, 'oferta', now);
        await deps.jobs.send('mail.waitlist', { entryId: next.id, kind: 'oferta' }, { tx });
        offered.push(next.id);
      }
      return offered;
    });
  }

  function isOpen(
    event: NonNullable<Awaited<ReturnType<RegistrationsServiceDeps['events']['findEventRow']>>>,
  ) {
    try {
      steps.checkOpen(event);
      return true;
    } catch {
      return false;
    }
  }

  /** The sweep of every category with someone waiting or an offer outstanding (the periodic job). */
  async function sweepAll(): Promise<number[]> {
    const offered: number[] = [];
    for (const id of await repo.categoriesToSweep(deps.db)) offered.push(...(await sweepCategory(id)));
    return offered;
  }

  /**
   * The guard of the hold step, run right after the participant's places were taken (so each
   * category's row is locked by that UPDATE): the public may take a place only while no one waits
   * and the places left cover every outstanding offer; the holder of an offer for the category (their
   * signed link in `oferta_espera`, their CPF) takes the offered place, and the offer moves to the
   * charge (`aceita`).
   */
  async function guardTake(tx: Tx, chargeId: number, draft: PlacesWanted) {
    const ids = draft.items.map((i) => i.categoryId);
    let offer: repo.WaitlistEntryRow | undefined;
    if (draft.oferta_espera) {
      offer = await entryOfToken(tx, draft.oferta_espera, 'lock');
      const valid =
        offer.status === 'oferta' &&
        offer.cpf === draft.cpf &&
        offer.eventId === draft.evento &&
        ids.includes(offer.categoryId) &&
        (offer.offerExpiresAt?.getTime() ?? 0) > deps.now().getTime();
      if (!valid)
        throw conflict(
          'Esta oferta da lista de espera não vale mais para este CPF e esta categoria (expirou, foi usada ou é de outra pessoa).',
          'oferta_invalida',
        );
      await repo.move(tx, offer.id, ['oferta'], { status: 'aceita', chargeId });
      await repo.addHistory(tx, offer.id, 'aceitou', deps.now());
    }
    const counts = await repo.countsOf(tx, ids, deps.now());
    const left = new Map((await deps.events.findCategories(ids, tx)).map((c) => [c.id, c.placesLeft]));
    // A place of the team's quota is held for its member as an offer's is for its holder.
    const quota = new Set(draft.items.flatMap((i) => (i.teamQuotaId ? [i.categoryId] : [])));
    for (const id of ids) {
      const c = counts.get(id)!;
      const mine = offer?.categoryId === id || quota.has(id);
      if ((!mine && c.waiting > 0) || (left.get(id) ?? 0) < c.offers)
        throw conflict(WAITLIST_SOLD_OUT, 'esgotado');
    }
  }

  /**
   * The charge's places came back (unpaid, declined, expired, cancelled): an accepted offer whose time
   * still runs becomes an offer again (the runner may pay once more), one past its time expires. The
   * sweep is queued either way, since a place was freed.
   */
  async function released(tx: Tx, chargeId: number): Promise<void> {
    const now = deps.now();
    for (const entry of await repo.acceptedByCharge(tx, chargeId)) {
      const still = (entry.offerExpiresAt?.getTime() ?? 0) > now.getTime();
      await repo.move(
        tx,
        entry.id,
        ['aceita'],
        still ? { status: 'oferta', chargeId: null } : { status: 'expirada', endedAt: now },
      );
      await repo.addHistory(tx, entry.id, still ? 'devolvida' : 'oferta_expirada', now);
    }
    await nudge(tx);
  }

  /** The charge an accepted offer moved to was paid: the runner is registered. */
  async function fulfilled(tx: Tx, chargeId: number): Promise<void> {
    for (const entry of await repo.acceptedByCharge(tx, chargeId)) {
      await repo.move(tx, entry.id, ['aceita'], { status: 'inscrita', endedAt: deps.now() });
      await repo.addHistory(tx, entry.id, 'inscrita', deps.now());
    }
  }

  /** Per category of the event: waitlist on, sold out for the public, people in line (the event page). */
  async function ofEvent(eventId: number): Promise<EventWaitlist> {
    const event = await deps.events.findEventRow(eventId);
    if (!event) throw notFound('Evento não encontrado.');
    const { rules } = await afterSale.findRules(deps.db, eventId);
    const categories = await eventCategories(eventId);
    const counts = await repo.countsOf(
      deps.db,
      categories.map((c) => c.id),
      deps.now(),
    );
    return {
      categorias: categories.map((c) => {
        const n = counts.get(c.id)!;
        return {
          id: c.id,
          nome: c.name,
          lista_espera: rules.waitlistCategoryIds.includes(c.id),
          esgotada: n.waiting > 0 || c.placesLeft - n.offers <= 0,
          na_fila: n.waiting,
        };
      }),
    };
  }

  const eventCategories = (eventId: number) => repo.categoriesOfEvent(deps.db, eventId);

  /** The back office's view: every entry per category, in line order, with its offer and history. */
  async function painelList(eventId: number): Promise<PainelWaitlist> {
    const event = await deps.events.findEventRow(eventId);
    if (!event) throw notFound('Evento não encontrado.');
    const { rules } = await afterSale.findRules(deps.db, eventId);
    const [categories, entries] = await Promise.all([
      eventCategories(eventId),
      repo.entriesOfEvent(deps.db, eventId),
    ]);
    const history = await repo.historyOf(
      deps.db,
      entries.map((e) => e.id),
    );
    return {
      categorias: categories.map((c) => {
        let position = 0;
        return {
          id: c.id,
          nome: c.name,
          lista_espera: rules.waitlistCategoryIds.includes(c.id),
          entradas: entries
            .filter((e) => e.categoryId === c.id)
            .map((e) => ({
              id: e.id,
              nome_completo: e.fullName,
              email: e.email,
              status: e.status,
              posicao: e.status === 'aguardando' ? ++position : null,
              entrou_em: e.createdAt.toISOString(),
              oferta_expira_em: e.offerExpiresAt?.toISOString() ?? null,
              historico: history
                .filter((h) => h.entryId === e.id)
                .map((h) => ({ tipo: h.kind, em: h.at.toISOString() })),
            })),
        };
      }),
    };
  }

  /** The e-mails: joining (with the link to see the position and leave) and an offer (the link to accept). */
  async function sendMail(entryId: number, kind: 'entrou' | 'oferta'): Promise<void> {
    const entry = await repo.findEntry(deps.db, entryId);
    if (!entry) return;
    // An offer already answered, expired or left: the e-mail would promise a place that is not there.
    if (kind === 'oferta' && entry.status !== 'oferta') return;
    const wire = await toWire(deps.db, entry);
    const event = await deps.events.findEventRow(entry.eventId);
    if (!event) return;
    const token = waitlistToken(secret, entry);
    const manage = `${deps.env.publicUrl}/eventos/lista-espera/${token}`;
    await deps.mail.send(
      waitlistMail({
        env: deps.env,
        kind,
        entry,
        event,
        categoryName: wire.categoria_nome,
        position: wire.posicao ?? null,
        manage,
      }),
    );
  }

  return {
    join,
    byToken,
    leave,
    sweepCategory,
    sweepAll,
    guardTake,
    released,
    fulfilled,
    nudge,
    ofEvent,
    painelList,
    sendMail,
  };
}

export type Waitlist = ReturnType<typeof createWaitlist>;
