import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { charges, eventCategories, registrationCategories, registrations } from '../../db/schema/index.ts';
import {
  createUserAndToken,
  readOutbox,
  type TestUser,
  waitForMailContaining,
} from '../../test/factories/accounts.ts';
import { type MadeEvent, makeEvent } from '../../test/factories/events.ts';
import { cardToken, simulatePixPaid } from '../../test/factories/payments.ts';
import {
  CPF,
  cpfFrom,
  OTHER_CPF,
  outboxAttachments,
  participant,
  readQr,
  registrationPix,
  ticketOf,
} from '../../test/factories/registrations.ts';
import { useClockedTestApp } from '../../test/test-app.ts';

// 09:00 in Fortaleza (UTC−3) on 22 November 2026.
const START = new Date('2026-11-22T12:00:00Z');
const TODAY = '2026-11-22';

describe('registrations', () => {
  const t = useClockedTestApp(START);
  let user: TestUser;

  beforeAll(async () => {
    user = await createUserAndToken(t.app, { email: 'titular.conta@example.com' });
  });

  const pixFor = (draft: unknown, total: number, headers = user.headers) =>
    registrationPix(t.app, draft, total, headers);
  const simulatePay = (txid: string) => simulatePixPaid(t.app, txid);
  const register = (txid: string, draft: Record<string, unknown>, headers = user.headers) =>
    t.app.inject({
      method: 'POST',
      url: '/api/participantes/cadastrar/',
      headers,
      payload: { txid, ...draft },
    });
  const lookup = (cpf: string, headers = user.headers, query = '') =>
    t.app.inject({ method: 'GET', url: `/api/participantes/cpf/${cpf}/${query}`, headers });
  const placesLeft = async (categoryId: number) =>
    (
      await t.app.db
        .select({ n: eventCategories.placesLeft })
        .from(eventCategories)
        .where(eq(eventCategories.id, categoryId))
    )[0]?.n;
  const countRegistrationsOf = async (cpf: string) =>
    (await t.app.db.select({ id: registrations.id }).from(registrations).where(eq(registrations.cpf, cpf)))
      .length;
  const countRegistrations = async () =>
    (await t.app.db.select({ id: registrations.id }).from(registrations)).length;
  const newEvent = (overrides: Parameters<typeof makeEvent>[1] = {}) =>
    makeEvent(t.app.db, { today: TODAY, ...overrides });
  const cat = (e: MadeEvent, day = 0, i = 0) => e.days[day]!.categories[i]!.id;

  it('pays with Pix, creates the registration once on confirmation, answers it and finds it by CPF', async () => {
    const event = await newEvent({ name: 'Corrida da Ponte' });
    const draft = participant(event, [cat(event, 0, 1)]);
    const pix = await pixFor(draft, 109.9);
    expect(pix.statusCode).toBe(201);
    const { txid } = pix.json();
    expect(await placesLeft(cat(event, 0, 1))).toBe(99);

    // Not paid yet: nothing to answer.
    const early = await register(txid, draft);
    expect(early.statusCode).toBe(409);
    expect(await countRegistrations()).toBe(0);

    const paid = await simulatePay(txid);
    expect(paid.json()).toMatchObject({ status: 'CONCLUIDA', inscricao_id: expect.any(Number) });
    // Paying again (a repeated webhook) creates nothing more.
    await simulatePay(txid);
    expect(await countRegistrations()).toBe(1);

    const res = await register(txid, draft);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      id: paid.json().inscricao_id,
      evento: event.id,
      nome_completo: 'Maria da Silva',
      cpf: '403.644.788-29',
      categoria_evento: [cat(event, 0, 1)],
      categoria_evento_detalhes: [{ id: cat(event, 0, 1), nome_categoria: '10 km', preco: 109.9 }],
      total: 109.9,
      endereco: 'Av. Beira Mar, 100 - Meireles, Fortaleza - CE, 60165-121',
      numero_contato: '(85) 99999-9999',
    });
    // Asking twice answers the same registration.
    expect((await register(txid, draft)).json().id).toBe(res.json().id);
    expect(await countRegistrations()).toBe(1);
    expect(await placesLeft(cat(event, 0, 1))).toBe(99);
    const [row] = await t.app.db.select().from(registrations);
    expect(row).toMatchObject({ accountUserId: user.id, cpf: CPF });

    const found = await lookup('403.644.788-29');
    expect(found.statusCode).toBe(200);
    expect(found.json()).toEqual({
      id: res.json().id,
      nome_completo: 'Maria da Silva',
      email: 'maria.participante@example.com',
      numero_contato: '(85) 99999-9999',
      evento_detalhes: { id: event.id, nome_evento: 'Corrida da Ponte', data: event.startDate },
      categoria_evento_detalhes: [{ id: cat(event, 0, 1), nome_categoria: '10 km' }],
      endereco: 'Av. Beira Mar, 100 - Meireles, Fortaleza - CE, 60165-121',
      tamanho_camisa: null,
      equipe: null,
      faixa_etaria: '35 a 39 anos',
      meia_entrada: false,
      pcd: false,
      kit_local_retirada: 'Ginásio de Teste',
      kit_horarios_retirada: '04/12 (sex), 10h às 20h',
      qr_code: expect.stringMatching(/^data:image\/png;base64,/),
      cancelada_em: null,
      total: 109.9,
    });

    // The participant and the account holder (a different e-mail) each get a confirmation.
    const mails = await vi.waitFor(
      () => {
        const sent = readOutbox(t.dataDir).filter((m) => m.includes('Corrida da Ponte'));
        expect(sent.length).toBeGreaterThanOrEqual(2);
        return sent;
      },
      { timeout: 45_000, interval: 25 },
    );
    expect(mails).toHaveLength(2);
    expect(mails.some((m) => /to: maria\.participante@example\.com/i.test(m))).toBe(true);
    expect(mails.some((m) => /to: titular\.conta@example\.com/i.test(m))).toBe(true);
    // Each carries the kit-pickup QR code beside the registration number, as an attachment the HTML
    // shows by Content-ID (Gmail shows no data: images), and the QR in it is the registration's ticket.
    const cid = `qrcode-inscricao-${res.json().id}@passada`;
    expect(
      mails.every(
        (m) =>
          /content-type: text\/html/i.test(m) &&
          m.includes(`src="cid:${cid}"`) &&
          !m.includes('data:image/png;base64,'),
      ),
    ).toBe(true);
    const tickets = outboxAttachments(t.dataDir, cid);
    expect(tickets).toHaveLength(2);
    for (const png of tickets) {
      expect(await readQr(`data:image/png;base64,${png.toString('base64')}`)).toBe(
        await readQr(found.json().qr_code),
      );
    }
    // The full CPF never goes into an e-mail.
    expect(mails.every((m) => !m.includes(CPF) && !m.includes('403.644.788-29'))).toBe(true);
  });

  it("answers 404 for someone else's txid and 409 when the data differs from what was paid", async () => {
    const event = await newEvent();
    const draft = participant(event, [cat(event)], { cpf: cpfFrom(111222333) });
    const { txid } = (await pixFor(draft, 89.9)).json();
    await simulatePay(txid);
    const stranger = await createUserAndToken(t.app);
    expect((await register(txid, draft, stranger.headers)).statusCode).toBe(404);
    expect((await register('naoexiste1234567890123456789', draft)).statusCode).toBe(404);
    expect((await register(txid, { ...draft, cpf: OTHER_CPF })).statusCode).toBe(409);
    expect((await register(txid, draft)).statusCode).toBe(201);
  });

  it('creates exactly one registration when confirmations of one payment race', async () => {
    const event = await newEvent();
    const draft = participant(event, [cat(event)], { cpf: cpfFrom(123123123) });
    const { txid } = (await pixFor(draft, 89.9)).json();
    const before = await countRegistrations();
    const answers = await Promise.all(Array.from({ length: 6 }, () => simulatePay(txid)));
    expect(new Set(answers.map((a) => a.json().inscricao_id)).size).toBe(1);
    expect(await countRegistrations()).toBe(before + 1);
  });

  it('keeps the registration when the confirmation e-mail cannot be sent', async () => {
    const mail = t.app.providers.mail;
    const send = mail.send;
    let attempts = 0;
    // The services hold this provider object: replacing its method reaches them.
    mail.send = async (message) => {
      // Earlier tests' e-mails may still be on their way: count only this event's.
      if (message.subject.includes('Corrida Sem Correio')) attempts += 1;
      throw new Error('servidor de e-mail fora do ar');
    };
    try {
      const event = await newEvent({ name: 'Corrida Sem Correio' });
      const draft = participant(event, [cat(event)], { cpf: cpfFrom(321321321) });
      const { txid } = (await pixFor(draft, 89.9)).json();
      expect((await simulatePay(txid)).json().status).toBe('CONCLUIDA');
      await vi.waitFor(() => expect(attempts).toBeGreaterThanOrEqual(2), { timeout: 45_000, interval: 25 });
      expect(attempts).toBe(2);
      expect((await register(txid, draft)).statusCode).toBe(201);
    } finally {
      mail.send = send;
    }
  });

  it('opens registration until the deadline day ends in Fortaleza', async () => {
    const event = await newEvent({ registrationDeadline: TODAY });
    const draft = participant(event, [cat(event)], { cpf: cpfFrom(200000001) });
    // 23:30 on the deadline day in Fortaleza is still 22 November there.
    t.clock = new Date('2026-11-23T02:30:00Z');
    const open = await pixFor(draft, 89.9);
    expect(open.statusCode).toBe(201);
    // 00:30 on the next day in Fortaleza: closed.
    t.clock = new Date('2026-11-23T03:30:00Z');
    const closed = await pixFor({ ...draft, cpf: cpfFrom(200000002) }, 89.9);
    expect(closed.statusCode).toBe(409);
    expect(closed.json()).toMatchObject({ detail: 'Inscrições encerradas', code: 'inscricoes_encerradas' });
  });

  it('refuses a second registration of the same CPF in the same category (pending or paid), with the spec message', async () => {
    const event = await newEvent();
    const cpf = cpfFrom(300000001);
    const draft = participant(event, [cat(event)], { cpf });
    const { txid } = (await pixFor(draft, 89.9)).json();

    // A stranger's unpaid charge for this CPF does not lock the person out: the place is held for it.
    const stranger = await createUserAndToken(t.app);
    const strangers = await pixFor(draft, 89.9, stranger.headers);
    expect(strangers.statusCode).toBe(201);

    await simulatePay(txid);
    // If the stranger pays too, their money goes back: one registration, a refund, an e-mail.
    const late = await simulatePay(strangers.json().txid);
    expect(late.json()).toMatchObject({ status: 'DEVOLVIDA' });
    expect(await countRegistrationsOf(cpf)).toBe(1);
    expect(
      t.app.providers.payments.simulator!.refunds().filter((r) => r.amountCents === 8990).length,
    ).toBeGreaterThanOrEqual(1);
    const listed = await t.app.inject({ method: 'GET', url: '/api/pagamentos/', headers: stranger.headers });
    expect(listed.json()).toEqual([
      expect.objectContaining({
        txid: strangers.json().txid,
        status: 'DEVOLVIDA',
        motivo: expect.stringContaining('CPF'),
        devolucao: expect.objectContaining({ status: 'DEVOLVIDO', valor: 89.9 }),
      }),
    ]);
    // The refund notice (a job) reaches the participant and points at the event's lookup page.
    const notice = await waitForMailContaining(t.dataDir, 'estamos devolvendo o seu pagamento');
    expect(notice).toContain(`/eventos/register/${event.id}/ja-me-inscrevi`);

    const other = await createUserAndToken(t.app);
    const again = await pixFor(draft, 89.9, other.headers);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ detail: 'Este CPF já está inscrito nesta categoria.' });
    // The other category of the event is still fine for that CPF.
    expect((await pixFor({ ...draft, categoria_evento: [cat(event, 0, 1)] }, 109.9)).statusCode).toBe(201);

    // And the database itself refuses the pair, whatever path a row comes from.
    const [reg] = await t.app.db.select().from(registrations).where(eq(registrations.cpf, cpf));
    await expect(
      t.app.db
        .insert(registrationCategories)
        .values({ registrationId: reg!.id, categoryId: cat(event), cpf, priceCents: 8990 }),
    ).rejects.toThrow();
  });

  it('charges half price to participants aged 60 or more on the event day, and the form gets the same price', async () => {
    const event = await newEvent({ startDate: '2026-12-20' });
    const id = cat(event, 0, 1);
    // 60 on 20 December 2026 exactly, and one day short of it.
    const senior = await t.app.inject({
      method: 'GET',
      url: `/api/events/${event.id}/preco/?categorias=${id}&data_nascimento=1966-12-20`,
    });
    expect(senior.json()).toMatchObject({ meia_entrada: true, total: 54.95, total_centavos: 5495 });
    const younger = await t.app.inject({
      method: 'GET',
      url: `/api/events/${event.id}/preco/?categorias=${id}&data_nascimento=1966-12-21`,
    });
    expect(younger.json()).toMatchObject({ meia_entrada: false, total: 109.9 });

    const draft = participant(event, [id], { cpf: cpfFrom(400000001), data_nascimento: '1966-12-20' });
    const full = await pixFor(draft, 109.9);
    expect(full.statusCode).toBe(409);
    expect(full.json()).toMatchObject({ code: 'total_divergente', total_correto: 54.95 });
    const half = await pixFor(draft, 54.95);
    expect(half.statusCode).toBe(201);
    expect(half.json().valor).toBe(54.95);
  });

  it('allows one category per day and only categories of the event', async () => {
    const event = await newEvent({ days: [[{ name: '5 km' }, { name: '10 km' }], [{ name: '21 km' }]] });
    const other = await newEvent();
    const cpf = cpfFrom(500000001);
    const sameDay = await pixFor(participant(event, [cat(event, 0, 0), cat(event, 0, 1)], { cpf }), 179.8);
    expect(sameDay.statusCode).toBe(400);
    expect(sameDay.json().code).toBe('uma_categoria_por_dia');
    const foreign = await pixFor(participant(event, [cat(other)], { cpf }), 89.9);
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().code).toBe('categoria_invalida');
    const twoDays = await pixFor(participant(event, [cat(event, 0, 1), cat(event, 1, 0)], { cpf }), 179.8);
    expect(twoDays.statusCode).toBe(201);
  });

  it('validates the participant: CPF check digits, gender, birth date', async () => {
    const event = await newEvent();
    const bad = await pixFor(participant(event, [cat(event)], { cpf: '403.644.788-28' }), 89.9);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toMatchObject({ cpf: 'CPF inválido.' });
    expect((await pixFor(participant(event, [cat(event)], { genero: 'X' }), 89.9)).statusCode).toBe(400);
    expect(
      (await pixFor(participant(event, [cat(event)], { data_nascimento: '2030-01-01' }), 89.9)).statusCode,
    ).toBe(400);
  });

  it('refuses sold-out categories with 409 and gives places back once when a charge expires', async () => {
    const event = await newEvent({ days: [[{ name: '5 km', priceCents: 5000, placesLeft: 1 }]] });
    const id = cat(event);
    const first = await pixFor(participant(event, [id], { cpf: cpfFrom(600000001) }), 50);
    expect(first.statusCode).toBe(201);
    expect(await placesLeft(id)).toBe(0);
    const other = await createUserAndToken(t.app);
    const second = await pixFor(participant(event, [id], { cpf: cpfFrom(600000002) }), 50, other.headers);
    expect(second.statusCode).toBe(409);
    expect(second.json().code).toBe('esgotado');

    // 31 minutes later the first charge expired: its place is back, exactly once.
    t.clock = new Date(START.getTime() + 31 * 60_000);
    await t.app.payments.expireDue();
    await t.app.payments.expireDue();
    expect(await placesLeft(id)).toBe(1);
    const { txid } = first.json();
    const [row] = await t.app.db.select().from(charges).where(eq(charges.txid, txid));
    expect(row?.status).toBe('EXPIRADA');
    expect((await simulatePay(txid)).statusCode).toBe(409);
    expect(await placesLeft(id)).toBe(1);
  });

  it('pays by card for someone else: approved creates it, refused gives the place back', async () => {
    const event = await newEvent({ name: 'Maratona do Sol' });
    const id = cat(event);
    const tokenize = (number: string) =>
      cardToken(t.app, { number, holderName: 'Titular da Conta', holderDocument: OTHER_CPF });
    const pay = async (number: string, draft: Record<string, unknown>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/pagar-cartao/',
        headers: { ...user.headers, 'idempotency-key': `inscricao-${number}` },
        payload: {
          birth: '1985-07-30',
          payment_token: await tokenize(number),
          name: 'Titular da Conta',
          cpf: OTHER_CPF,
          email: user.email,
          produto: 'Inscrição',
          total: 89.9,
          installments: 1,
          finalidade: 'inscricao',
          inscricao: draft,
        },
      });

    const friend = participant(event, [id], {
      cpf: cpfFrom(700000001),
      nome_completo: 'João Amigo',
      email: 'joao.amigo@example.com',
    });
    const refused = await pay('4000000000000002', friend);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe('pagamento_recusado');
    expect(await placesLeft(id)).toBe(100);

    const approved = await pay('4111111111111111', friend);
    expect(approved.statusCode).toBe(200);
    expect(approved.json().detalhes.data.status).toBe('paid');
    expect(await placesLeft(id)).toBe(99);
    const reg = await register(approved.json().txid, friend);
    expect(reg.statusCode).toBe(201);
    expect(reg.json()).toMatchObject({ nome_completo: 'João Amigo', id: approved.json().inscricao_id });
    // Made by this account for another person: the account finds it, nobody else does.
    expect((await lookup(cpfFrom(700000001), user.headers, `?evento=${event.id}`)).statusCode).toBe(200);
  });

  it('shows a registration only to the account that made it', async () => {
    const event = await newEvent();
    const cpf = cpfFrom(800000001);
    const { txid } = (await pixFor(participant(event, [cat(event)], { cpf }), 89.9)).json();
    await simulatePay(txid);
    expect((await lookup(cpf)).statusCode).toBe(200);

    const stranger = await createUserAndToken(t.app);
    const guess = await lookup(cpf, stranger.headers);
    expect(guess.statusCode).toBe(404);
    // "Minhas inscrições": the registration paid on the event page is the account's, and only its.
    const mine = (headers: Record<string, string>) =>
      t.app.inject({ method: 'GET', url: '/api/inscricoes/', headers });
    expect((await mine(user.headers)).json()).toContainEqual(
      expect.objectContaining({
        evento_detalhes: expect.objectContaining({ id: event.id }),
        cancelada_em: null,
      }),
    );
    expect((await mine(stranger.headers)).json()).toEqual([]);
    expect((await mine({ authorization: '' })).statusCode).toBe(401);
    // The list draws no QR code (docs/decisions/0047); the ticket route draws this one, the same code
    // the CPF lookup shows, for this account only.
    const listed = (await mine(user.headers))
      .json()
      .find((r: { evento_detalhes: { id: number } }) => r.evento_detalhes.id === event.id);
    expect(listed).not.toHaveProperty('qr_code');
    const qr = (headers: Record<string, string>) =>
      t.app.inject({ method: 'GET', url: `/api/inscricoes/${listed.id}/qr-code/`, headers });
    const ticket = await qr(user.headers);
    expect(ticket.statusCode).toBe(200);
    expect(await readQr(ticket.json().qr_code)).toBe(await ticketOf(t.app, user.headers, cpf, event.id));
    expect((await qr(stranger.headers)).statusCode).toBe(404);
    expect((await qr({ authorization: '' })).statusCode).toBe(401);
    expect(guess.json().detail).toBe('Inscrição não encontrada para o CPF fornecido.');
    expect((await lookup(cpfFrom(800000002))).statusCode).toBe(404);
    const otherEvent = await newEvent();
    expect((await lookup(cpf, user.headers, `?evento=${otherEvent.id}`)).statusCode).toBe(404);
    expect((await lookup(cpf, { authorization: '' })).statusCode).toBe(401);
  });
});
