import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { registrations, waitlistEntries } from '../../db/schema/index.ts';
import { waitForMail } from '../../test/factories/accounts.ts';
import { eventFormBody, type MadeEvent, makeEvent, placesLeft } from '../../test/factories/events.ts';
import { makeBuyer } from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { cpfFrom, participant, registrationCard } from '../../test/factories/registrations.ts';
import { useClockedTestApp } from '../../test/test-app.ts';

// 10:00 in Fortaleza on 24 November 2026; the race starts on the 28th, registrations close on the 27th.
const START = new Date('2026-11-24T13:00:00Z');
const TODAY = '2026-11-24';
const APPROVED_CARD = '4111111111111111';
const TOKEN = /lista-espera\/(\d+-[0-9a-f]{32}-[A-Za-z0-9_-]{22})/;

type Who = { headers: Record<string, string> };

/**
 * The waitlist of a sold-out category (docs/decisions/0042-waitlist.md): joining, the position and
 * leaving through the e-mailed link, freed places offered in line order and held, offers that pass on,
 * and the offer's holder registering through the normal flow.
 */
describe('waitlist', () => {
  const t = useClockedTestApp(START, { env: { LOG_LEVEL: 'error' } });
  let buyer: Awaited<ReturnType<typeof makeBuyer>>;
  let admin: TestStaff;
  let cpfSeq = 640_000_000;

  beforeAll(async () => {
    buyer = await makeBuyer(t.app);
    admin = await createStaffAndLogin(t.app, 'admin');
  });

  const db = () => t.app.db;
  const request = (method: 'GET' | 'POST' | 'PUT', who: Who | null, url: string, payload?: object) =>
    t.app.inject({ method, url, headers: who?.headers ?? {}, ...(payload ? { payload } : {}) });

  /** An event whose "5 km" has one place (sold below) and a waitlist; its "10 km" has places and none. */
  async function soldOutEvent(name: string, opts: { waitlist?: boolean } = {}) {
    const event = await makeEvent(db(), {
      name,
      today: TODAY,
      startDate: '2026-11-28',
      registrationDeadline: '2026-11-27',
      days: [
        [
          { name: '5 km', priceCents: 8990, placesLeft: 1 },
          { name: '10 km', priceCents: 10990, placesLeft: 50 },
        ],
      ],
    });
    const rulesUrl = `/api/painel/events/${event.id}/pos-venda/`;
    const { texto: _, ...rules } = (await request('GET', admin, rulesUrl)).json();
    const saved = await request('PUT', admin, rulesUrl, {
      ...rules,
      lista_espera_categorias: opts.waitlist === false ? [] : [five(event)],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const first = await pay(event, 'Primeira Corredora');
    expect(first.statusCode).toBe(200);
    expect(await placesLeft(db(), five(event))).toBe(0);
    return { event, firstId: first.json().inscricao_id as number };
  }

  const five = (e: MadeEvent) => e.days[0]!.categories[0]!.id;
  const ten = (e: MadeEvent) => e.days[0]!.categories[1]!.id;

  function runner(name: string) {
    const cpf = cpfFrom(cpfSeq++);
    return { nome_completo: name, cpf, email: `${name.split(' ')[0]!.toLowerCase()}.${cpfSeq}@example.com` };
  }

  /** The buyer registers someone in the "5 km" by card, optionally with a waitlist offer's link. */
  function pay(event: MadeEvent, name: string, extra: Record<string, unknown> = {}) {
    const who = (extra.cpf as string | undefined) ? {} : runner(name);
    const draft = participant(event, [five(event)], { ...who, nome_completo: name, ...extra });
    return registrationCard(t.app, {
      number: APPROVED_CARD,
      draft,
      total: 89.9,
      user: buyer,
      key: randomUUID(),
    });
  }

  const join = (event: MadeEvent, body: object) =>
    request('POST', null, `/api/events/${event.id}/lista-espera/`, body);

  /** The runner's link, read from the e-mail they got when joining. */
  async function linkOf(email: string, needle: string) {
    const mail = await waitForMail(t.dataDir, email, needle);
    const token = TOKEN.exec(mail)?.[1];
    expect(token).toBeDefined();
    return token!;
  }

  const entry = async (token: string) => (await request('GET', null, `/api/lista-espera/${token}/`)).json();
  const statusOf = async (email: string) =>
    (await db().select().from(waitlistEntries).where(eq(waitlistEntries.email, email)))[0]!.status;

  async function cancelByStaff(id: number) {
    const res = await request('POST', admin, `/api/painel/registrations/${id}/cancel/`, {
      motivo: 'desistiu',
    });
    expect(res.statusCode, res.body).toBe(200);
  }

  it('joins a sold-out category: the position, one entry per CPF, a registered CPF refused', async () => {
    const { event } = await soldOutEvent('Corrida da Fila');
    const bia = runner('Bia Espera');
    const caio = runner('Caio Espera');

    const joined = await join(event, {
      categoria: five(event),
      ...bia,
      cpf: bia.cpf.replace(/^(\d{3})(\d{3})(\d{3})/, '$1.$2.$3-'),
    });
    expect(joined.statusCode).toBe(201);
    // The answer shows no position (docs/decisions/0056): the e-mailed link does.
    expect(joined.json()).toMatchObject({ status: 'aguardando', posicao: null, categoria_nome: '5 km' });
    expect((await join(event, { categoria: five(event), ...caio })).json()).toMatchObject({ posicao: null });

    // The same CPF twice in one line, and a CPF already registered in the category: the same answer
    // as anyone's (no public oracle, docs/decisions/0056); the truth goes only to the e-mail given.
    const twice = await join(event, { categoria: five(event), ...bia, email: 'outra@example.com' });
    expect(twice.statusCode).toBe(201);
    expect(twice.json()).toEqual({ ...joined.json(), nome_completo: bia.nome_completo });
    await waitForMail(t.dataDir, 'outra@example.com', 'já está na lista de espera desta categoria');
    const registered = (
      await db().select().from(registrations).where(eq(registrations.eventId, event.id))
    )[0]!;
    const again = await join(event, {
      categoria: five(event),
      ...runner('Primeira Corredora'),
      cpf: registered.cpf,
      email: 'ja.inscrita@example.com',
    });
    expect(again.statusCode).toBe(201);
    expect(again.json()).toMatchObject({ status: 'aguardando', posicao: null, oferta_expira_em: null });
    await waitForMail(t.dataDir, 'ja.inscrita@example.com', 'já está inscrito nesta categoria');

    // A category with places left, and an invalid CPF.
    const open = await join(event, { categoria: ten(event), ...runner('Dora Vaga') });
    expect(open.statusCode).toBe(409);
    const bad = await join(event, { categoria: five(event), ...runner('Eva Errada'), cpf: '111.111.111-12' });
    expect(bad.statusCode).toBe(400);

    // The link in the e-mail shows the position; the event page knows the line.
    const token = await linkOf(bia.email, 'lista de espera');
    expect(await entry(token)).toMatchObject({
      status: 'aguardando',
      posicao: 1,
      nome_completo: 'Bia Espera',
    });
    expect(await entry(await linkOf(caio.email, 'lista de espera'))).toMatchObject({ posicao: 2 });
    const page = (await request('GET', null, `/api/events/${event.id}/lista-espera/`)).json();
    expect(page.categorias).toEqual([
      expect.objectContaining({ id: five(event), lista_espera: true, esgotada: true, na_fila: 2 }),
      expect.objectContaining({ id: ten(event), lista_espera: false, esgotada: false, na_fila: 0 }),
    ]);
    // A forged link finds nothing.
    const forged = `${token.slice(0, -22)}${token.at(-22) === 'A' ? 'B' : 'A'}${token.slice(-21)}`;
    expect((await request('GET', null, `/api/lista-espera/${forged}/`)).statusCode).toBe(404);
  });

  it('refuses joining a category without a waitlist', async () => {
    const { event } = await soldOutEvent('Corrida Sem Fila', { waitlist: false });
    const res = await join(event, { categoria: five(event), ...runner('Gil Semfila') });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('lista_espera_indisponivel');
  });

  it('offers a cancelled place to the first in line, holds it, passes it on when unanswered, and the holder registers and pays', async () => {
    const { event, firstId } = await soldOutEvent('Corrida da Vaga');
    const bia = runner('Bia Primeira');
    const caio = runner('Caio Segundo');
    expect((await join(event, { categoria: five(event), ...bia })).statusCode).toBe(201);
    expect((await join(event, { categoria: five(event), ...caio })).statusCode).toBe(201);

    // Staff cancel the only registration: the place is offered to Bia, by e-mail, held 24 hours.
    await cancelByStaff(firstId);
    const offer = await waitForMail(t.dataDir, bia.email, 'está reservada para você');
    expect(offer).toContain('25/11/2026, 10:00');
    const biaToken = TOKEN.exec(offer)![1]!;
    expect(await entry(biaToken)).toMatchObject({ status: 'oferta', posicao: null });
    expect(await entry(await linkOf(caio.email, 'lista de espera'))).toMatchObject({ posicao: 1 });

    // The place is back in the count but held: a new registration cannot take it.
    expect(await placesLeft(db(), five(event))).toBe(1);
    const stranger = await pay(event, 'Dora Apressada');
    expect(stranger.statusCode).toBe(409);
    expect(stranger.json().code).toBe('esgotado');

    // Bia does not answer in 24 hours: the offer expires and passes to Caio.
    t.clock = new Date('2026-11-25T13:00:01Z');
    await t.app.jobs.send('waitlist.sweep', {}, { singletonKey: 'waitlist' });
    const caioOffer = await waitForMail(t.dataDir, caio.email, 'está reservada para você');
    await vi.waitFor(async () => expect(await statusOf(bia.email)).toBe('expirada'), {
      timeout: 45_000,
      interval: 100,
    });
    const caioToken = TOKEN.exec(caioOffer)![1]!;

    // Bia's expired link no longer registers her.
    const late = await pay(event, 'Bia Primeira', {
      cpf: bia.cpf,
      email: bia.email,
      oferta_espera: biaToken,
    });
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('oferta_invalida');
    // Nor does Caio's link for someone else's CPF.
    const other = await pay(event, 'Outra Pessoa', { cpf: cpfFrom(cpfSeq++), oferta_espera: caioToken });
    expect(other.statusCode).toBe(409);
    expect(other.json().code).toBe('oferta_invalida');

    // Caio accepts: the normal registration, same price, with the offered place.
    const paid = await pay(event, 'Caio Segundo', {
      cpf: caio.cpf,
      email: caio.email,
      oferta_espera: caioToken,
    });
    expect(paid.statusCode).toBe(200);
    expect(await statusOf(caio.email)).toBe('inscrita');
    expect(await entry(caioToken)).toMatchObject({ status: 'inscrita' });
    expect(await placesLeft(db(), five(event))).toBe(0);

    // The back office sees the line, the offers and the history (a day later: a new sign-in).
    const manager = await createStaffAndLogin(t.app, 'gerente');
    const painel = await request('GET', manager, `/api/painel/events/${event.id}/lista-espera/`);
    expect(painel.statusCode).toBe(200);
    const five5 = painel.json().categorias.find((c: { id: number }) => c.id === five(event));
    expect(
      five5.entradas.map((e: { nome_completo: string; status: string }) => [e.nome_completo, e.status]),
    ).toEqual([
      ['Bia Primeira', 'expirada'],
      ['Caio Segundo', 'inscrita'],
    ]);
    expect(five5.entradas[1].historico.map((h: { tipo: string }) => h.tipo)).toEqual([
      'entrou',
      'oferta',
      'aceitou',
      'inscrita',
    ]);
    expect((await request('GET', null, `/api/painel/events/${event.id}/lista-espera/`)).statusCode).toBe(401);
  });

  it('leaves the line through the link; an offer given up passes to the next', async () => {
    const { event, firstId } = await soldOutEvent('Corrida da Saída');
    const bia = runner('Bia Sai');
    const caio = runner('Caio Fica');
    await join(event, { categoria: five(event), ...bia });
    await join(event, { categoria: five(event), ...caio });
    const biaToken = await linkOf(bia.email, 'lista de espera');

    await cancelByStaff(firstId);
    await waitForMail(t.dataDir, bia.email, 'está reservada para você');
    const left = await request('POST', null, `/api/lista-espera/${biaToken}/sair/`);
    expect(left.statusCode).toBe(200);
    expect(left.json()).toMatchObject({ status: 'saiu', posicao: null });
    // Leaving twice says so.
    expect((await request('POST', null, `/api/lista-espera/${biaToken}/sair/`)).statusCode).toBe(409);
    // The place Bia held goes to Caio.
    await waitForMail(t.dataDir, caio.email, 'está reservada para você');
    expect(await statusOf(caio.email)).toBe('oferta');
  });

  it('offers places staff add to a sold-out category', async () => {
    const { event } = await soldOutEvent('Corrida Ampliada');
    const bia = runner('Bia Ampliada');
    await join(event, { categoria: five(event), ...bia });
    const body = eventFormBody((await request('GET', admin, `/api/painel/events/${event.id}/`)).json());
    const days = body.dias_evento.map((d) => ({
      ...d,
      categorias: d.categorias.map((c) => (c.id === five(event) ? { ...c, capacidade: 2 } : c)),
    }));
    const saved = await request('PUT', admin, `/api/painel/events/${event.id}/`, {
      ...body,
      dias_evento: days,
    });
    expect(saved.statusCode).toBe(200);
    await waitForMail(t.dataDir, bia.email, 'está reservada para você');
    expect(await statusOf(bia.email)).toBe('oferta');
  });
});
