import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { chargeRefunds, charges, registrationChanges, registrations } from '../../db/schema/index.ts';
import { waitForMail } from '../../test/factories/accounts.ts';
import { kitLeft, type MadeEvent, makeEvent, placesLeft } from '../../test/factories/events.ts';
import { makeBuyer } from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import {
  cpfFrom,
  participant,
  registrationCard,
  registrationPix,
} from '../../test/factories/registrations.ts';
import { useClockedTestApp } from '../../test/test-app.ts';
import { participantLinkToken } from './participant-link.ts';

const START = new Date('2026-11-24T13:00:00Z');
const TODAY = '2026-11-24';
const APPROVED_CARD = '4111111111111111';

/**
 * Changing distance and shirt size after the sale (docs/decisions/0041): priced at the lot in force,
 * the fee and difference paid by a charge or the difference returned, only while places and sizes last.
 */
describe('changing distance and shirt size', () => {
  const t = useClockedTestApp(START);
  let buyer: Awaited<ReturnType<typeof makeBuyer>>;
  let admin: TestStaff;
  let cpfSeq = 540_000_000;

  beforeAll(async () => {
    buyer = await makeBuyer(t.app);
    admin = await createStaffAndLogin(t.app, 'admin');
  });

  const db = () => t.app.db;
  const request = (
    method: 'GET' | 'POST' | 'PUT',
    who: { headers: Record<string, string> } | null,
    url: string,
    payload?: object,
  ) => t.app.inject({ method, url, headers: who?.headers ?? {}, ...(payload ? { payload } : {}) });
  /** 5 km R$ 50 (10 places), 10 km R$ 80 (the last place), 3 km R$ 30; shirts M (10) and G (the last one). */
  const newEvent = (name: string) =>
    makeEvent(db(), {
      name,
      today: TODAY,
      startDate: '2026-11-28',
      registrationDeadline: '2026-11-27',
      days: [
        [
          { name: '5 km', priceCents: 5000, placesLeft: 10 },
          { name: '10 km', priceCents: 8000, placesLeft: 1 },
          { name: '3 km', priceCents: 3000, placesLeft: 10 },
        ],
      ],
      kitSizes: [
        { size: 'M', left: 10 },
        { size: 'G', left: 1 },
      ],
    });
  const cats = (e: MadeEvent) => e.days[0]!.categories.map((c) => c.id) as [number, number, number];

  async function paidRegistration(event: MadeEvent) {
    const draft = participant(event, [cats(event)[0]], {
      cpf: cpfFrom(cpfSeq++),
      email: `troca.${cpfSeq}@example.com`,
      tamanho_camisa: event.kitSizes![0]!.id,
    });
    const paid = await registrationCard(t.app, {
      number: APPROVED_CARD,
      draft,
      total: 50,
      user: buyer,
      key: randomUUID(),
    });
    expect(paid.statusCode).toBe(200);
    return { draft, id: paid.json().inscricao_id as number };
  }

  async function saveRules(event: MadeEvent, changes: Record<string, unknown>) {
    const url = `/api/painel/events/${event.id}/pos-venda/`;
    const { texto: _, ...body } = (await request('GET', admin, url)).json();
    expect((await request('PUT', admin, url, { ...body, ...changes })).statusCode).toBe(200);
  }

  it('a dearer distance: the fee and the difference paid by card, the last place taken, the old one freed', async () => {
    const event = await newEvent('Corrida da Troca Para Cima');
    await saveRules(event, { troca_distancia_taxa: 5 });
    const [five, ten] = cats(event);
    const { id } = await paidRegistration(event);

    const quote = await request(
      'GET',
      buyer,
      `/api/inscricoes/${id}/troca-distancia/?de=${five}&para=${ten}`,
    );
    expect(quote.json()).toEqual({
      permitido: true,
      motivo: null,
      taxa: 5,
      diferenca: 30,
      a_pagar: 35,
      a_devolver: 0,
    });
    // Something to pay: the direct route refuses and points to the payment.
    const direct = await request('POST', buyer, `/api/inscricoes/${id}/trocar-distancia/`, {
      de: five,
      para: ten,
      a_devolver: 0,
    });
    expect(direct.statusCode).toBe(409);
    expect(direct.json()).toMatchObject({ code: 'pagamento_necessario', a_pagar: 35 });

    const paid = await registrationCard(t.app, {
      number: APPROVED_CARD,
      draft: { troca_distancia: { inscricao: id, de: five, para: ten } },
      total: 35,
      user: buyer,
      key: randomUUID(),
    });
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toMatchObject({ inscricao_id: id });
    expect(await placesLeft(db(), ten)).toBe(0);
    expect(await placesLeft(db(), five)).toBe(10);
    const lookup = await request(
      'GET',
      buyer,
      `/api/participantes/cpf/${(await db().select().from(registrations).where(eq(registrations.id, id)))[0]!.cpf}/?evento=${event.id}`,
    );
    expect(
      lookup.json().categoria_evento_detalhes.map((c: { nome_categoria: string }) => c.nome_categoria),
    ).toEqual(['10 km']);
    // The card's "Valor" is what was paid: the 50,00 of the sale and the 35,00 of the change.
    expect(lookup.json().total).toBe(85);
    expect(
      (await request('GET', buyer, '/api/inscricoes/')).json().find((r: { id: number }) => r.id === id),
    ).toMatchObject({ total: 85 });
    const [history] = await db()
      .select()
      .from(registrationChanges)
      .where(eq(registrationChanges.registrationId, id));
    expect(history).toMatchObject({
      kind: 'troca_distancia',
      feeCents: 3500,
      detail: { de: five, para: ten, diferenca_cents: 3000 },
    });

    // The 10 km is now full: another runner cannot move there.
    const other = await paidRegistration(event);
    const full = await request(
      'GET',
      buyer,
      `/api/inscricoes/${other.id}/troca-distancia/?de=${five}&para=${ten}`,
    );
    expect(full.json()).toMatchObject({ permitido: false, motivo: 'Categoria esgotada: 10 km.' });
  });

  it('through the participant’s link: the difference paid by Pix from their own account, the registration moved, a later cancel refunds both charges', async () => {
    const event = await newEvent('Corrida da Troca Pelo Link');
    await saveRules(event, { troca_distancia_taxa: 5 });
    const [five, ten] = cats(event);
    const { draft, id } = await paidRegistration(event);
    const mail = await waitForMail(t.dataDir, draft.email, '/inscricoes/link/');
    const token = mail.match(/\/inscricoes\/link\/([A-Za-z0-9._-]+)/)![1]!;
    const runner = await makeBuyer(t.app);

    const quote = await request(
      'GET',
      null,
      `/api/inscricoes/link/${token}/troca-distancia/?de=${five}&para=${ten}`,
    );
    expect(quote.json()).toMatchObject({ permitido: true, a_pagar: 35 });
    // The amount is the server's: a lower total is refused, a forged link is refused.
    const cheap = await registrationPix(
      t.app,
      { troca_distancia: { link: token, de: five, para: ten } },
      1,
      runner.headers,
    );
    expect(cheap.statusCode).toBe(409);
    const forged = await registrationPix(
      t.app,
      { troca_distancia: { link: `${token}x`, de: five, para: ten } },
      35,
      runner.headers,
    );
    expect(forged.statusCode).toBe(403);

    // A Pix left unpaid holds the place until it expires, then gives it back, once.
    const unpaid = await registrationPix(
      t.app,
      { troca_distancia: { link: token, de: five, para: ten } },
      35,
      runner.headers,
    );
    expect(unpaid.statusCode).toBe(201);
    expect(await placesLeft(db(), ten)).toBe(0);
    t.clock = new Date(START.getTime() + 31 * 60_000);
    await t.app.payments.expireDue();
    await t.app.payments.expireDue();
    expect(await placesLeft(db(), ten)).toBe(1);
    const [expired] = await db().select().from(charges).where(eq(charges.txid, unpaid.json().txid));
    expect(expired?.status).toBe('EXPIRADA');

    // The link opens its own registration only: an `inscricao` beside it is ignored.
    const pix = await registrationPix(
      t.app,
      { troca_distancia: { link: token, inscricao: id + 999, de: five, para: ten } },
      35,
      runner.headers,
    );
    expect(pix.statusCode).toBe(201);
    // The place is held while the Pix waits.
    expect(await placesLeft(db(), ten)).toBe(0);
    const txid = pix.json().txid as string;
    expect((await request('POST', null, `/api/simulador/pix/${txid}/pagar`)).statusCode).toBeLessThan(300);
    await expect
      .poll(async () => (await request('GET', runner, `/api/status-pix/${txid}/`)).json().status)
      .toBe('CONCLUIDA');

    const view = await request('GET', null, `/api/inscricoes/link/${token}/`);
    expect(view.json()).toMatchObject({ categoria_evento: [ten], categorias: ['10 km'] });
    expect(await placesLeft(db(), ten)).toBe(0);
    expect(await placesLeft(db(), five)).toBe(10);
    const [history] = await db()
      .select()
      .from(registrationChanges)
      .where(eq(registrationChanges.registrationId, id));
    expect(history).toMatchObject({
      kind: 'troca_distancia',
      actor: 'participante',
      feeCents: 3500,
      detail: { de: five, para: ten, diferenca_cents: 3000 },
    });
    const changeCharge = (history!.detail as { cobranca: number }).cobranca;
    const [charge] = await db().select().from(charges).where(eq(charges.id, changeCharge));
    expect(charge).toMatchObject({ userId: runner.id, amountCents: 3500 });

    // Paying it again is refused: the registration left the 5 km.
    const again = await registrationPix(
      t.app,
      { troca_distancia: { link: token, de: five, para: ten } },
      35,
      runner.headers,
    );
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ code: 'categoria_invalida' });

    // Cancelling through the link later returns what the rules give, across both charges, as before.
    const back = (await request('GET', null, `/api/inscricoes/link/${token}/`)).json().cancelamento
      .valor_devolvido as number;
    const before = t.app.providers.payments.simulator!.refunds().length;
    const done = await request('POST', null, `/api/inscricoes/link/${token}/cancelar/`, {
      valor_devolvido: back,
    });
    expect(done.statusCode).toBe(200);
    const sent = t.app.providers.payments.simulator!.refunds().slice(before);
    expect(sent.reduce((sum, r) => sum + r.amountCents, 0)).toBe(Math.round(back * 100));
    const changeRefunds = await db()
      .select()
      .from(chargeRefunds)
      .where(eq(chargeRefunds.chargeId, changeCharge));
    expect(changeRefunds.reduce((sum, r) => sum + r.amountCents, 0)).toBeLessThanOrEqual(3500);
    expect(back).toBe(85);
  });

  it('a cheaper distance returns the difference when the organiser chose so, and only then', async () => {
    const event = await newEvent('Corrida da Troca Para Baixo');
    const [five, , three] = cats(event);
    const kept = await paidRegistration(event);
    // By default the difference stays with the organiser: nothing comes back.
    const noRefund = await request(
      'GET',
      buyer,
      `/api/inscricoes/${kept.id}/troca-distancia/?de=${five}&para=${three}`,
    );
    expect(noRefund.json()).toMatchObject({ permitido: true, diferenca: -20, a_pagar: 0, a_devolver: 0 });

    await saveRules(event, { troca_distancia_devolve_diferenca: true, troca_distancia_taxa: 2 });
    const { id } = await paidRegistration(event);
    const quote = await request(
      'GET',
      buyer,
      `/api/inscricoes/${id}/troca-distancia/?de=${five}&para=${three}`,
    );
    expect(quote.json()).toMatchObject({
      permitido: true,
      taxa: 2,
      diferenca: -20,
      a_pagar: 0,
      a_devolver: 18,
    });
    const stale = await request('POST', buyer, `/api/inscricoes/${id}/trocar-distancia/`, {
      de: five,
      para: three,
      a_devolver: 20,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'valor_divergente', a_devolver: 18 });
    const refundsBefore = t.app.providers.payments.simulator!.refunds().length;
    const done = await request('POST', buyer, `/api/inscricoes/${id}/trocar-distancia/`, {
      de: five,
      para: three,
      a_devolver: 18,
    });
    expect(done.statusCode).toBe(200);
    expect(t.app.providers.payments.simulator!.refunds()).toHaveLength(refundsBefore + 1);
    expect(t.app.providers.payments.simulator!.refunds().at(-1)).toMatchObject({ amountCents: 1800 });
    const [history] = await db()
      .select()
      .from(registrationChanges)
      .where(eq(registrationChanges.registrationId, id));
    expect(history).toMatchObject({ kind: 'troca_distancia', feeCents: 200, refundCents: 1800 });
    // The card says what was paid once the 18,00 came back.
    expect(
      (await request('GET', buyer, '/api/inscricoes/')).json().find((r: { id: number }) => r.id === id),
    ).toMatchObject({ total: 32 });
    // The registration's price is the new one; the 5 km got its place back, the 3 km gave one.
    expect(await placesLeft(db(), three)).toBe(9);
    expect(await placesLeft(db(), five)).toBe(9);
  });

  it('a list of changes is checked together and committed once; one refused undoes the rest; a day’s distance changes once per list', async () => {
    const event = await newEvent('Corrida das Alterações Juntas');
    const [five, ten, three] = cats(event);
    const [m, g] = event.kitSizes!.map((k) => k.id) as [number, number];
    const first = await paidRegistration(event);
    const second = await paidRegistration(event);
    const changesOf = (id: number) =>
      db().select().from(registrationChanges).where(eq(registrationChanges.registrationId, id));

    // A cheaper distance (the difference kept, the default) and the last G, at once.
    const both = await request('POST', buyer, `/api/inscricoes/${first.id}/alteracoes/`, {
      operacoes: [
        { tipo: 'distancia', categoria_id: three },
        { tipo: 'camiseta', tamanho: g },
      ],
    });
    expect(both.statusCode, both.body).toBe(200);
    expect(both.json()).toEqual({
      inscricao: first.id,
      categoria_evento: [three],
      categorias: ['3 km'],
      tamanho_camisa: 'G',
      a_devolver: 0,
      cancelada_em: null,
    });
    expect(await placesLeft(db(), three)).toBe(9);
    expect(await placesLeft(db(), five)).toBe(9);
    expect(await kitLeft(db(), g)).toBe(0);
    expect((await changesOf(first.id)).map((c) => c.kind).sort()).toEqual([
      'troca_distancia',
      'troca_tamanho',
    ]);

    // The second registration: its distance would change, but the G is gone; nothing of it stays.
    const half = await request('POST', buyer, `/api/inscricoes/${second.id}/alteracoes/`, {
      operacoes: [
        { tipo: 'distancia', categoria_id: three },
        { tipo: 'camiseta', tamanho: g },
      ],
    });
    expect(half.statusCode, half.body).toBe(409);
    expect(half.json().code).toBe('tamanho_esgotado');
    expect(await placesLeft(db(), three)).toBe(9);
    expect(await placesLeft(db(), five)).toBe(9);
    const [still] = await db().select().from(registrations).where(eq(registrations.id, second.id));
    expect(still!.kitSize).toBe('M');
    expect(await changesOf(second.id)).toEqual([]);
    expect(
      (await request('GET', buyer, '/api/inscricoes/')).json().find((r: { id: number }) => r.id === second.id)
        .categoria_evento_detalhes,
    ).toMatchObject([{ id: five }]);

    // The same day's distance twice in one list is refused: a change of a change is a new list.
    const twice = await request('POST', buyer, `/api/inscricoes/${second.id}/alteracoes/`, {
      operacoes: [
        { tipo: 'distancia', categoria_id: three },
        { tipo: 'distancia', categoria_id: ten, de: three },
      ],
    });
    expect(twice.statusCode, twice.body).toBe(409);
    expect(twice.json()).toMatchObject({ code: 'alteracao_repetida' });
    expect(await placesLeft(db(), three)).toBe(9);
    expect(await placesLeft(db(), ten)).toBe(1);
    expect(await changesOf(second.id)).toEqual([]);

    // The participant's link makes the same list.
    const [row] = await db().select().from(registrations).where(eq(registrations.id, first.id));
    const link = participantLinkToken(t.env.CHECKIN_TOKEN_SECRET, {
      registrationId: first.id,
      expiresAt: new Date(START.getTime() + 7 * 24 * 3_600_000),
      nonce: row!.participantLinkNonce,
    });
    const byLink = await request('POST', null, `/api/inscricoes/link/${link}/alteracoes/`, {
      operacoes: [{ tipo: 'camiseta', tamanho: m }],
    });
    expect(byLink.statusCode, byLink.body).toBe(200);
    expect(byLink.json()).toMatchObject({ tamanho_camisa: 'M' });
    expect(await kitLeft(db(), g)).toBe(1);
  });

  it('the shirt: the last G goes once, the M comes back; a sold-out size is refused; after the date, refused', async () => {
    const event = await newEvent('Corrida da Troca de Camisa');
    const [m, g] = event.kitSizes!.map((k) => k.id) as [number, number];
    const first = await paidRegistration(event);
    const second = await paidRegistration(event);
    expect(await kitLeft(db(), m)).toBe(8);

    const changed = await request('POST', buyer, `/api/inscricoes/${first.id}/trocar-tamanho/`, {
      tamanho_camisa: g,
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({ tamanho_camisa: 'G' });
    expect(await kitLeft(db(), g)).toBe(0);
    expect(await kitLeft(db(), m)).toBe(9);

    const soldOut = await request('POST', buyer, `/api/inscricoes/${second.id}/trocar-tamanho/`, {
      tamanho_camisa: g,
    });
    expect(soldOut.statusCode).toBe(409);
    expect(soldOut.json().code).toBe('tamanho_esgotado');
    const [row] = await db().select().from(registrations).where(eq(registrations.id, second.id));
    expect(row!.kitSize).toBe('M');

    const [history] = await db()
      .select()
      .from(registrationChanges)
      .where(eq(registrationChanges.registrationId, first.id));
    expect(history).toMatchObject({
      kind: 'troca_tamanho',
      actor: 'comprador',
      detail: { de: 'M', para: 'G' },
    });

    await saveRules(event, { troca_tamanho_ate: '2026-11-24' });
    t.clock = new Date('2026-11-25T03:00:00Z');
    const late = await request('POST', buyer, `/api/inscricoes/${first.id}/trocar-tamanho/`, {
      tamanho_camisa: m,
    });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({
      code: 'troca_nao_permitida',
      detail: 'O prazo de troca do tamanho da camisa terminou.',
    });
  });
});
