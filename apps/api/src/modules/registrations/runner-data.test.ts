import { randomUUID } from 'node:crypto';
import { addDays } from '@passada/core/calendar';
import { desc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog, lotteryEntries, registrationTransfers, waitlistEntries } from '../../db/schema/index.ts';
import { confirmationTokenIn, confirmEmailByLink, readOutbox } from '../../test/factories/accounts.ts';
import { type MadeEvent, makeEvent } from '../../test/factories/events.ts';
import { makeBuyer } from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import {
  cpfFrom,
  participant,
  registrationCard,
  registrationPix,
} from '../../test/factories/registrations.ts';
import { useClockedTestApp } from '../../test/test-app.ts';
import { untilJobsDone } from '../../test/wait-until.ts';
import { RUNNER_DATA_JOB_ACTOR } from './runner-data.repository.ts';

/** Who the audit log names for the lottery entries' retention (the opening module's job). */
const LOTTERY_DATA_JOB_ACTOR = 'sistema (privacy.lottery-data)';

// 10:00 in Fortaleza on 24 November 2026; the races start on the 28th.
const START = new Date('2026-11-24T13:00:00Z');
const TODAY = '2026-11-24';

type Buyer = Awaited<ReturnType<typeof makeBuyer>>;

/**
 * What runners give for a waitlist (name, CPF, e-mail) and a transfer (both runners' names, CPF and
 * e-mails) is personal data like the rest (docs/decisions/0047): in the account's download, erased
 * with the account, and cleared by the nightly job a while after the event, audited.
 */
describe('waitlist and transfer data under the LGPD', () => {
  const t = useClockedTestApp(START, {
    env: { WAITLIST_RETENTION_DAYS_AFTER_EVENT: '30', TRANSFER_RETENTION_DAYS_AFTER_EVENT: '60' },
  });
  let admin: TestStaff;
  let cpfSeq = 580_000_000;

  beforeAll(async () => {
    admin = await createStaffAndLogin(t.app, 'admin');
  });

  const db = () => t.app.db;
  const request = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    who: { headers: Record<string, string> } | null,
    url: string,
    payload?: object,
  ) => t.app.inject({ method, url, headers: who?.headers ?? {}, ...(payload ? { payload } : {}) });

  /** A race whose "5 km" has one place (sold to the buyer's runner) and a waitlist; the "10 km" has places. */
  async function soldOutRace(name: string, buyer: Buyer) {
    const event = await makeEvent(db(), {
      name,
      today: TODAY,
      startDate: '2026-11-28',
      registrationDeadline: '2026-11-27',
      days: [
        [
          { name: '5 km', priceCents: 5000, placesLeft: 1 },
          { name: '10 km', priceCents: 8000, placesLeft: 10 },
        ],
      ],
    });
    const url = `/api/painel/events/${event.id}/pos-venda/`;
    const { texto: _, ...rules } = (await request('GET', admin, url)).json();
    expect(
      (await request('PUT', admin, url, { ...rules, lista_espera_categorias: [five(event)] })).statusCode,
    ).toBe(200);
    const draft = participant(event, [five(event)], {
      cpf: cpfFrom(cpfSeq++),
      email: buyer.email,
      nome_completo: 'Rui Titular',
    });
    const paid = await registrationCard(t.app, {
      number: '4111111111111111',
      draft,
      total: 50,
      user: buyer,
      key: randomUUID(),
    });
    expect(paid.statusCode).toBe(200);
    return { event, id: paid.json().inscricao_id as number };
  }
  const five = (e: MadeEvent) => e.days[0]!.categories[0]!.id;

  /** The friend joins the 5 km's line, and the buyer asks to hand their registration to the friend. */
  async function friendInLineAndInvited(
    event: MadeEvent,
    id: number,
    buyer: Buyer,
    friend: { email: string },
  ) {
    const cpf = cpfFrom(cpfSeq++);
    const joined = await request('POST', null, `/api/events/${event.id}/lista-espera/`, {
      categoria: five(event),
      nome_completo: 'Flora Amiga',
      cpf,
      email: friend.email,
    });
    expect(joined.statusCode).toBe(201);
    const asked = await request('POST', buyer, `/api/inscricoes/${id}/transferir/`, {
      nome_completo: 'Flora Amiga',
      cpf,
      email: friend.email,
    });
    expect(asked.statusCode).toBe(201);
    return cpf;
  }

  const exportOf = async (who: Buyer) => {
    const res = await request('GET', who, '/api/users/profile/dados/');
    expect(res.statusCode).toBe(200);
    return res.json();
  };
  const transferOf = async (id: number) =>
    (await db().select().from(registrationTransfers).where(eq(registrationTransfers.registrationId, id)))[0]!;
  const entriesOf = (event: MadeEvent) =>
    db().select().from(waitlistEntries).where(eq(waitlistEntries.eventId, event.id));

  it('reach an account with the same e-mail only once its owner confirmed it: a stranger signing up first reads and erases nothing', async () => {
    const buyer = await makeBuyer(t.app);
    // W2 joined the line and was invited to a transfer, with her e-mail and no account.
    const w2 = { email: `w2-${randomUUID().slice(0, 8)}@example.com` };
    const { event, id } = await soldOutRace('Corrida do Endereço Alheio', buyer);
    const cpf = await friendInLineAndInvited(event, id, buyer, w2);
    const signUp = async (username: string) => {
      const password = `senha-longa-${randomUUID()}`;
      const made = await request('POST', null, '/api/users/', {
        username,
        email: w2.email,
        full_name: 'Alguém',
        password,
      });
      expect(made.statusCode, made.body).toBe(201);
      const login = await request('POST', null, '/api/token-auth/', { username, password });
      expect(login.statusCode).toBe(200);
      return { email: w2.email, password, headers: { authorization: `Token ${login.json().token}` } };
    };

    // A stranger signs up with W2's address first: the download has none of W2's data.
    const stranger = await signUp(`estranho${randomUUID().slice(0, 6)}`);
    // Its confirmation link is mailed by a job: let it run before the account goes, as it would.
    await untilJobsDone(db(), 'mail.email-confirmation');
    const seen = await request('GET', stranger, '/api/users/profile/dados/');
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toMatchObject({ lista_de_espera: [], transferencias: [], sorteios: [] });
    expect(seen.body).not.toContain(cpf);
    // Deleting that account removes W2 from nothing: her place in line and the invitation stay.
    expect(
      (await request('DELETE', stranger, '/api/users/profile/', { password: stranger.password })).statusCode,
    ).toBe(204);
    expect(await entriesOf(event)).toEqual([
      expect.objectContaining({ email: w2.email, status: 'aguardando' }),
    ]);
    expect(await transferOf(id)).toMatchObject({ status: 'pendente', toEmail: w2.email, toCpf: cpf });

    // W2 herself signs up and opens the link mailed to her address: now it is hers to read.
    const owner = await signUp(`dona${randomUUID().slice(0, 6)}`);
    // The first link went to her mailbox at the stranger's sign-up, and died with that account.
    const links = () =>
      readOutbox(t.dataDir).filter(
        (m) => m.toLowerCase().includes(`to: ${w2.email}`) && m.includes('confirmar-email'),
      );
    await untilJobsDone(db(), 'mail.email-confirmation');
    expect(links()).toHaveLength(2);
    const token = confirmationTokenIn(links().at(-1)!);
    expect((await request('POST', null, '/api/users/confirmar-email/', { token })).statusCode).toBe(200);
    expect((await request('GET', owner, '/api/users/profile/')).json().email_confirmado).toBe(true);
    const hers = (await request('GET', owner, '/api/users/profile/dados/')).json();
    expect(hers.lista_de_espera).toEqual([expect.objectContaining({ cpf, email: w2.email })]);
    expect(hers.transferencias).toEqual([
      expect.objectContaining({ inscricao: id, para: expect.objectContaining({ cpf }) }),
    ]);
    // And hers to erase: her own deletion takes her out of the line and ends the invitation.
    expect(
      (await request('DELETE', owner, '/api/users/profile/', { password: owner.password })).statusCode,
    ).toBe(204);
    expect(await entriesOf(event)).toEqual([]);
    expect(await transferOf(id)).toMatchObject({ status: 'cancelada', toCpf: '', toEmail: '' });
  });

  it('are in the download of both accounts, and go with the account that asks to be erased', async () => {
    const buyer = await makeBuyer(t.app);
    const friend = await makeBuyer(t.app);
    const { event, id } = await soldOutRace('Corrida dos Dados Guardados', buyer);
    const cpf = await friendInLineAndInvited(event, id, buyer, friend);
    // What she gave without the account is hers once she proves the address (docs/decisions/0057).
    await confirmEmailByLink(t.app, t.dataDir, friend);

    const mine = await exportOf(friend);
    expect(mine.lista_de_espera).toEqual([
      expect.objectContaining({
        evento: 'Corrida dos Dados Guardados',
        categoria: '5 km',
        nome_completo: 'Flora Amiga',
        cpf,
        email: friend.email,
        situacao: 'aguardando',
      }),
    ]);
    expect(mine.transferencias).toEqual([
      expect.objectContaining({
        inscricao: id,
        situacao: 'pendente',
        de: { nome_completo: 'Rui Titular', email: buyer.email },
        para: { nome_completo: 'Flora Amiga', cpf, email: friend.email },
      }),
    ]);
    // The holder's download shows the transfer of their registration too.
    expect((await exportOf(buyer)).transferencias).toEqual([
      expect.objectContaining({ inscricao: id, para: expect.objectContaining({ email: friend.email }) }),
    ]);

    // The friend deletes her account: her place in line goes, the pending transfer to her ends and
    // forgets her; the registration stays the buyer's.
    const deleted = await request('DELETE', friend, '/api/users/profile/', { password: friend.password });
    expect(deleted.statusCode).toBe(204);
    expect(await entriesOf(event)).toEqual([]);
    expect(await transferOf(id)).toMatchObject({
      status: 'cancelada',
      toName: 'Dados apagados',
      toCpf: '',
      toEmail: '',
      fromEmail: buyer.email,
    });
    expect((await exportOf(buyer)).transferencias[0]).toMatchObject({
      situacao: 'cancelada',
      para: { nome_completo: 'Dados apagados', cpf: '', email: '' },
    });
  });

  it('the nightly job deletes the line 30 days after the event and erases transfers 60 days after, audited', async () => {
    const buyer = await makeBuyer(t.app);
    const friend = await makeBuyer(t.app);
    const { event, id } = await soldOutRace('Corrida dos Dados Vencidos', buyer);
    await friendInLineAndInvited(event, id, buyer, friend);

    async function runJob() {
      await t.app.jobs.send('privacy.runner-data', {});
      await untilJobsDone(db(), 'privacy.runner-data');
    }
    const noonOf = (date: string) => new Date(`${date}T15:00:00Z`);

    // 30 days after the last day: both kept.
    t.clock = noonOf(addDays(event.endDate, 30));
    await runJob();
    expect(await entriesOf(event)).toHaveLength(1);
    // 31 days: the line goes; the transfer is still whole.
    t.clock = noonOf(addDays(event.endDate, 31));
    await runJob();
    expect(await entriesOf(event)).toEqual([]);
    expect(await transferOf(id)).toMatchObject({ toEmail: friend.email, fromEmail: buyer.email });
    const [lineAudit] = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.staffEmail, RUNNER_DATA_JOB_ACTOR))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(lineAudit).toMatchObject({
      action: 'dados_de_corredores_apagados',
      after: expect.objectContaining({ lista_espera: { entradas: 1, eventos: [event.id] } }),
    });
    expect(JSON.stringify(lineAudit!.after)).not.toContain(friend.email);

    // 61 days: the transfer's CPF and e-mails are erased, once.
    t.clock = noonOf(addDays(event.endDate, 61));
    await runJob();
    expect(await transferOf(id)).toMatchObject({
      toName: 'Dados apagados',
      toCpf: '',
      toEmail: '',
      fromName: 'Dados apagados',
      fromEmail: '',
    });
    const audits = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.staffEmail, RUNNER_DATA_JOB_ACTOR))
      .orderBy(desc(auditLog.id));
    expect(audits[0]).toMatchObject({
      // The first two tests' transfers (events that ended the same day) still had the holder's e-mail.
      after: expect.objectContaining({
        transferencias: { linhas: 3, eventos: expect.arrayContaining([event.id]) },
      }),
    });
    const count = audits.length;
    await runJob();
    expect(
      await db().select().from(auditLog).where(eq(auditLog.staffEmail, RUNNER_DATA_JOB_ACTOR)),
    ).toHaveLength(count);
  });
});

/**
 * Lottery entries (name, CPF, e-mail, birth date; docs/decisions/0051) under the LGPD like the
 * waitlist's (docs/decisions/0047): in the download, gone with the account (deleted before the draw,
 * blanked after it so the published ranking stays recomputable, untouched while a winner pays), and
 * blanked by the nightly job a while after the event.
 */
describe('lottery entries under the LGPD', () => {
  const t = useClockedTestApp(START, { env: { LOTTERY_RETENTION_DAYS_AFTER_EVENT: '30' } });
  let staff: TestStaff;
  let cpfSeq = 590_000_000;

  beforeAll(async () => {
    staff = await createStaffAndLogin(t.app, 'gerente');
  });

  const db = () => t.app.db;
  const request = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    who: { headers: Record<string, string> } | null,
    url: string,
    payload?: object,
  ) => t.app.inject({ method, url, headers: who?.headers ?? {}, ...(payload ? { payload } : {}) });
  const minutes = (n: number) => new Date(START.getTime() + n * 60_000);

  /**
   * A race whose 10 km is drawn: entries from 10 to 60 minutes from START, `vagas` places. Each runner
   * enters with their own account, e-mail and a fresh CPF.
   */
  async function lotteryRace(name: string, runners: Buyer[], vagas: number) {
    const event = await makeEvent(db(), {
      name,
      today: TODAY,
      startDate: '2026-11-28',
      registrationDeadline: '2026-11-27',
      days: [[{ name: '10 km', priceCents: 5000, placesLeft: 10 }]],
    });
    const category = event.days[0]!.categories[0]!.id;
    const saved = await request('PUT', staff, `/api/painel/events/${event.id}/abertura/`, {
      modo: 'sorteio',
      abre_em: minutes(10).toISOString(),
      pre_fila_minutos: 0,
      admitidos_por_minuto: null,
      minutos_da_vez: 15,
      inscricoes_por_cpf: 1,
      inscricoes_por_comprador: 4,
      sorteio: {
        inscricoes_de: minutes(10).toISOString(),
        inscricoes_ate: minutes(60).toISOString(),
        vagas,
        horas_para_pagar: 2,
      },
    });
    expect(saved.statusCode).toBe(200);
    t.clock = minutes(10);
    expect(
      (await request('POST', staff, `/api/painel/events/${event.id}/sorteio/compromisso/`)).statusCode,
    ).toBe(200);
    const entered = [];
    for (const r of runners) {
      const cpf = cpfFrom(cpfSeq++);
      const payload = {
        nome_completo: `Sorteio ${r.id}`,
        cpf,
        email: r.email,
        data_nascimento: '1990-05-10',
        categoria: category,
      };
      // The opening's settings reach this process's copy a moment after the save on PostgreSQL.
      await expect
        .poll(async () => (await request('POST', r, `/api/events/${event.id}/sorteio/`, payload)).statusCode)
        .toBe(201);
      entered.push({ cpf, ...r });
    }
    const draw = async () => {
      t.clock = minutes(60);
      expect(
        (await request('POST', staff, `/api/painel/events/${event.id}/sorteio/sortear/`)).statusCode,
      ).toBe(200);
    };
    return { event, category, entered, draw };
  }
  const entryOf = async (cpfOrId: string | number) =>
    (
      await db()
        .select()
        .from(lotteryEntries)
        .where(typeof cpfOrId === 'number' ? eq(lotteryEntries.id, cpfOrId) : eq(lotteryEntries.cpf, cpfOrId))
    )[0];
  const ERASED = { fullName: 'Dados apagados', cpf: '', email: '', birthDate: null };

  it('are in the download, and go with the account: left before the draw, blanked after it, kept while paying', async () => {
    const [ana, bia, caio, dani] = [
      await makeBuyer(t.app),
      await makeBuyer(t.app),
      await makeBuyer(t.app),
      await makeBuyer(t.app),
    ];
    const { event, category, entered, draw } = await lotteryRace(
      'Corrida do Sorteio Esquecido',
      [ana!, bia!, caio!, dani!],
      3,
    );
    const [anaCpf, biaCpf, caioCpf, daniCpf] = entered.map((e) => e.cpf);

    const download = await request('GET', ana, '/api/users/profile/dados/');
    expect(download.json().sorteios).toEqual([
      expect.objectContaining({
        evento: 'Corrida do Sorteio Esquecido',
        categoria: '10 km',
        nome_completo: `Sorteio ${ana!.id}`,
        cpf: anaCpf,
        email: ana!.email,
        data_nascimento: '1990-05-10',
        posicao: null,
      }),
    ]);

    // Before the draw, Dani's account goes: her entry leaves the lottery.
    expect(
      (await request('DELETE', dani, '/api/users/profile/', { password: dani!.password })).statusCode,
    ).toBe(204);
    expect(await entryOf(daniCpf!)).toBeUndefined();

    // Three entries, three places: everyone left wins. Caio starts paying.
    await draw();
    const paying = await registrationPix(
      t.app,
      participant(event, [category], {
        cpf: caioCpf,
        email: caio!.email,
        nome_completo: `Sorteio ${caio!.id}`,
      }),
      50,
      caio!.headers,
    );
    expect(paying.statusCode).toBe(201);
    const anaEntry = (await entryOf(anaCpf!))!;
    expect(anaEntry).toMatchObject({ rank: expect.any(Number), wonInDraw: 1 });

    // After the draw, Ana's account goes: her entry keeps its id, place and draw, nothing of her.
    expect(
      (await request('DELETE', ana, '/api/users/profile/', { password: ana!.password })).statusCode,
    ).toBe(204);
    expect(await entryOf(anaEntry.id)).toMatchObject({
      ...ERASED,
      rank: anaEntry.rank,
      wonInDraw: 1,
      categoryId: category,
    });
    const published = (await request('GET', null, `/api/events/${event.id}/sorteio/`)).json();
    expect(published.ids_inscricoes).toContain(anaEntry.id);
    expect(published.classificacao).toContain(anaEntry.id);
    expect(JSON.stringify(published)).not.toContain(anaCpf);

    // Caio, a winner paying right now, deletes his account: his entry stays for that charge to end it.
    expect(
      (await request('DELETE', caio, '/api/users/profile/', { password: caio!.password })).statusCode,
    ).toBe(204);
    expect(await entryOf(caioCpf!)).toMatchObject({ email: caio!.email, birthDate: '1990-05-10' });
    // Bia's stays as it was.
    expect(await entryOf(biaCpf!)).toMatchObject({ email: bia!.email });
  });

  it('the nightly job blanks them 30 days after the event, keeping ids and ranking, audited once', async () => {
    const runners = [await makeBuyer(t.app), await makeBuyer(t.app)];
    const { event, entered, draw } = await lotteryRace('Corrida do Sorteio Vencido', runners, 1);
    await draw();
    const before = await Promise.all(entered.map(async (e) => (await entryOf(e.cpf))!));

    async function runJob() {
      await t.app.jobs.send('privacy.lottery-data', {});
      await untilJobsDone(db(), 'privacy.lottery-data');
    }
    const noonOf = (date: string) => new Date(`${date}T15:00:00Z`);

    t.clock = noonOf(addDays(event.endDate, 30));
    await runJob();
    expect(await entryOf(before[0]!.id)).toMatchObject({ cpf: entered[0]!.cpf, email: runners[0]!.email });

    t.clock = noonOf(addDays(event.endDate, 31));
    await runJob();
    for (const e of before)
      expect(await entryOf(e.id)).toMatchObject({ ...ERASED, rank: e.rank, wonInDraw: e.wonInDraw });
    const audits = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.staffEmail, LOTTERY_DATA_JOB_ACTOR))
      .orderBy(desc(auditLog.id));
    expect(audits[0]).toMatchObject({
      action: 'dados_de_sorteio_apagados',
      // The other test's race ended the same day: its entries still whole went too.
      after: expect.objectContaining({
        sorteio: { entradas: expect.any(Number), eventos: expect.arrayContaining([event.id]) },
      }),
    });
    expect(JSON.stringify(audits[0]!.after)).not.toContain(runners[0]!.email);
    // The public verification still lists every entry id, ranked.
    const published = (await request('GET', null, `/api/events/${event.id}/sorteio/`)).json();
    expect([...published.ids_inscricoes].sort()).toEqual(before.map((e) => e.id).sort());
    expect(published.classificacao).toHaveLength(2);

    const count = audits.length;
    await runJob();
    expect(
      await db().select().from(auditLog).where(eq(auditLog.staffEmail, LOTTERY_DATA_JOB_ACTOR)),
    ).toHaveLength(count);
  });
});
