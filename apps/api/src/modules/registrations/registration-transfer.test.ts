import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { registrationChanges, registrations, registrationTransfers } from '../../db/schema/index.ts';
import { readOutbox, waitForMail } from '../../test/factories/accounts.ts';
import { kitLeft, type MadeEvent, makeEvent, placesLeft } from '../../test/factories/events.ts';
import { makeBuyer } from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { removalDelayed } from '../../test/factories/payments.ts';
import { cpfFrom, participant, registrationCard, ticketOf } from '../../test/factories/registrations.ts';
import { useClockedTestApp } from '../../test/test-app.ts';
import { participantLinkToken } from './participant-link.ts';

// 10:00 in Fortaleza on 24 November 2026; the race starts on the 28th at 06:00 (09:00 UTC).
const START = new Date('2026-11-24T13:00:00Z');
const TODAY = '2026-11-24';
const APPROVED_CARD = '4111111111111111';

type Who = { headers: Record<string, string>; email: string };

/**
 * A registration handed to another runner (docs/decisions/0041): asked by the holder within the
 * event's rules, completed and paid by the new runner through the e-mailed link, the old QR code
 * refused afterwards; and the participant's own signed link.
 */
describe('transferring a registration to another runner', () => {
  const t = useClockedTestApp(START);
  let buyer: Awaited<ReturnType<typeof makeBuyer>>;
  let friend: Awaited<ReturnType<typeof makeBuyer>>;
  let stranger: Awaited<ReturnType<typeof makeBuyer>>;
  let admin: TestStaff;
  let operator: TestStaff;
  let cpfSeq = 530_000_000;

  beforeAll(async () => {
    buyer = await makeBuyer(t.app);
    friend = await makeBuyer(t.app);
    stranger = await makeBuyer(t.app);
    admin = await createStaffAndLogin(t.app, 'admin');
    operator = await createStaffAndLogin(t.app, 'operador');
  });

  const db = () => t.app.db;
  const request = (
    method: 'GET' | 'POST' | 'PUT',
    who: { headers: Record<string, string> } | null,
    url: string,
    payload?: object,
  ) => t.app.inject({ method, url, headers: who?.headers ?? {}, ...(payload ? { payload } : {}) });
  const newEvent = (name: string) =>
    makeEvent(db(), {
      name,
      today: TODAY,
      startDate: '2026-11-28',
      registrationDeadline: '2026-11-27',
      kitSizes: [{ size: 'M', left: 10 }],
    });
  const cat = (e: MadeEvent) => e.days[0]!.categories[1]!.id;
  const nextCpf = () => cpfFrom(cpfSeq++);

  /** One runner registered by the buyer on the direct path and paid by card (R$ 109,90, or half for 60+). */
  async function paidRegistration(event: MadeEvent, birth = '1990-05-10') {
    const senior = birth < '1966-11-28';
    const draft = participant(event, [cat(event)], {
      nome_completo: 'Rita Corredora',
      cpf: nextCpf(),
      data_nascimento: birth,
      email: `rita.${cpfSeq}@example.com`,
      tamanho_camisa: event.kitSizes![0]!.id,
    });
    const paid = await registrationCard(t.app, {
      number: APPROVED_CARD,
      draft,
      total: senior ? 54.95 : 109.9,
      user: buyer,
      key: randomUUID(),
    });
    expect(paid.statusCode).toBe(200);
    return { draft, id: paid.json().inscricao_id as number };
  }

  async function saveRules(event: MadeEvent, changes: Record<string, unknown>) {
    const url = `/api/painel/events/${event.id}/pos-venda/`;
    const { texto: _, ...body } = (await request('GET', admin, url)).json();
    const saved = await request('PUT', admin, url, { ...body, ...changes });
    expect(saved.statusCode).toBe(200);
  }

  /** The holder names the new runner; answers the response and the token of the e-mailed link. */
  async function ask(
    id: number,
    to: { nome_completo: string; cpf: string; email: string },
    who: Who = buyer,
  ) {
    const res = await request('POST', who, `/api/inscricoes/${id}/transferir/`, to);
    const mail = readOutbox(t.dataDir)
      .filter((m) => m.includes(to.email))
      .at(-1);
    const token = mail?.match(/\/inscricoes\/transferencia\/([A-Za-z0-9_-]+)/)?.[1];
    return { res, token };
  }

  /** The new runner's own data, as the link's form sends it. */
  const friendDraft = (
    event: MadeEvent,
    token: string,
    to: { nome_completo: string; cpf: string; email: string },
    birth = '1992-03-04',
  ) => ({
    ...participant(event, [cat(event)], { ...to, data_nascimento: birth }),
    transferencia: token,
  });

  async function payByCard(draft: object, total: number, who = friend) {
    return registrationCard(t.app, { number: APPROVED_CARD, draft, total, user: who, key: randomUUID() });
  }

  const scan = (event: MadeEvent, codigo: string) =>
    request('POST', operator, '/api/painel/checkin/preview/', { evento: event.id, codigo });

  it('the friend completes it and pays the fee: new holder, new ticket, the old QR refused, both told, history kept', async () => {
    const event = await newEvent('Corrida da Transferência');
    await saveRules(event, { transferencia_taxa: 15 });
    const { draft, id } = await paidRegistration(event);
    const oldTicket = await ticketOf(t.app, buyer.headers, draft.cpf, event.id);
    expect((await scan(event, oldTicket)).statusCode).toBe(200);

    // Nobody else can ask for it.
    const to = { nome_completo: 'Bruno Amigo', cpf: nextCpf(), email: `bruno.${cpfSeq}@example.com` };
    expect((await request('POST', stranger, `/api/inscricoes/${id}/transferir/`, to)).statusCode).toBe(404);
    expect((await request('GET', buyer, `/api/inscricoes/${id}/transferencia/`)).json()).toEqual({
      permitido: true,
      motivo: null,
      taxa: 15,
      pendente: null,
    });

    const { res, token } = await ask(id, to);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ permitido: false, pendente: { nome_completo: 'Bruno Amigo' } });
    expect(token).toBeDefined();

    // The link shows the registration without login; the price for their birth date is the fee only.
    const invite = await request('GET', null, `/api/transferencias/${token}/`);
    expect(invite.statusCode).toBe(200);
    expect(invite.json()).toMatchObject({
      status: 'pendente',
      inscricao: id,
      nome_completo: 'Bruno Amigo',
      de: 'Rita Corredora',
      taxa: 15,
      tamanho_camisa: 'M',
    });
    expect(
      (await request('GET', null, `/api/transferencias/${token}/preco/?data_nascimento=1992-03-04`)).json(),
    ).toEqual({
      taxa: 15,
      diferenca: 0,
      total: 15,
      meia_entrada: false,
    });

    // Someone else's CPF on the link is refused; a wrong total too; an outdated termo too.
    const other = await payByCard(friendDraft(event, token!, { ...to, cpf: nextCpf() }), 15);
    expect(other.statusCode).toBe(400);
    expect(other.json().code).toBe('cpf_divergente');
    const oldTerms = await payByCard({ ...friendDraft(event, token!, to), termo_versao: 'antigo' }, 15);
    expect(oldTerms.statusCode).toBe(409);
    expect(oldTerms.json().code).toBe('termo_atualizado');

    const paid = await payByCard(friendDraft(event, token!, to), 15);
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toMatchObject({ inscricao_id: id });

    // The registration is the friend's now: their data, their account, the same place and shirt.
    const [row] = await db().select().from(registrations).where(eq(registrations.id, id));
    expect(row).toMatchObject({
      fullName: 'Bruno Amigo',
      cpf: to.cpf,
      accountUserId: friend.id,
      kitSize: 'M',
    });
    expect(await placesLeft(db(), cat(event))).toBe(99);
    expect(await kitLeft(db(), event.kitSizes![0]!.id)).toBe(9);

    // The old QR is refused at kit pickup; the new holder's ticket is accepted.
    const refused = await scan(event, oldTicket);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe('qr_invalido');
    const newTicket = await ticketOf(t.app, friend.headers, to.cpf, event.id);
    expect(newTicket).not.toBe(oldTicket);
    expect((await scan(event, newTicket)).statusCode).toBe(200);

    // The new holder gets their ticket, the old one is told; the history says who, to whom, how much.
    await waitForMail(t.dataDir, to.email, 'Sua inscrição está confirmada');
    await waitForMail(t.dataDir, draft.email, 'foi concluída');
    const history = await db()
      .select()
      .from(registrationChanges)
      .where(eq(registrationChanges.registrationId, id));
    expect(history).toMatchObject([
      {
        kind: 'transferencia',
        actor: 'comprador',
        feeCents: 1500,
        detail: { de: 'Rita Corredora', para: 'Bruno Amigo', taxa_cents: 1500, diferenca_cents: 0 },
      },
    ]);
    // The history reads the same on the lookup page, the back office's registration page and the CSV.
    const line =
      /Transferida de Rita Corredora para Bruno Amigo pela conta que comprou \(pago R\$\s15,00\)\./;
    const lookup = await request('GET', friend, `/api/participantes/cpf/${to.cpf}/?evento=${event.id}`);
    expect(lookup.json().historico).toEqual([expect.stringMatching(line)]);
    const page = await request('GET', admin, `/api/painel/registrations/${id}/`);
    expect(page.json().historico).toEqual([expect.stringMatching(line)]);
    const csv = await request('GET', admin, `/api/painel/events/${event.id}/participants.csv`);
    const csvLine = csv.body.split('\r\n').find((l) => l.startsWith(`${id};`))!;
    // The changes' column, before the start wave's two (docs/decisions/0066).
    expect(csvLine.split(';').at(-3)).toMatch(line);

    // The link is spent; the buyer no longer holds the registration.
    expect((await request('GET', null, `/api/transferencias/${token}/`)).json().status).toBe('concluida');
    expect((await request('GET', buyer, `/api/inscricoes/${id}/transferencia/`)).statusCode).toBe(404);
    expect((await payByCard(friendDraft(event, token!, to), 15)).statusCode).toBe(409);
  });

  it('a fee of zero completes without paying; a CPF already in the category is refused', async () => {
    const event = await newEvent('Corrida da Transferência Grátis');
    const { id } = await paidRegistration(event);
    const taken = await paidRegistration(event);

    const already = await ask(id, {
      nome_completo: 'Rita Outra',
      cpf: taken.draft.cpf,
      email: 'outra@example.com',
    });
    expect(already.res.statusCode).toBe(409);
    expect(already.res.json().code).toBe('cpf_ja_inscrito');

    const to = { nome_completo: 'Carla Amiga', cpf: nextCpf(), email: `carla.${cpfSeq}@example.com` };
    const { res, token } = await ask(id, to);
    expect(res.statusCode).toBe(201);
    const free = await request('POST', friend, '/api/confirmar-gratuito/', {
      total: 0,
      finalidade: 'inscricao',
      inscricao: friendDraft(event, token!, to),
    });
    expect(free.statusCode).toBe(201);
    expect(free.json()).toMatchObject({ status: 'CONCLUIDA', inscricao_id: id });
    const [row] = await db().select().from(registrations).where(eq(registrations.id, id));
    expect(row!.cpf).toBe(to.cpf);
    expect(await placesLeft(db(), cat(event))).toBe(98);
  });

  it('staff transfer for the runner who asked them: same rules and invitation, the history says the shop, the audit how it was asked (decision 0083)', async () => {
    const event = await newEvent('Corrida da Transferência no Balcão');
    const { id, draft } = await paidRegistration(event);
    const url = (path: string) => `/api/painel/registrations/${id}/${path}`;
    expect((await request('GET', admin, url('transferencia/'))).json()).toMatchObject({
      permitido: true,
      pendente: null,
    });
    const to = { nome_completo: 'Bruna do Balcão', cpf: nextCpf(), email: `bruna.${cpfSeq}@example.com` };
    // How the runner asked is required; the same checks as the runner's own request follow.
    expect((await request('POST', admin, url('transferir/'), to)).statusCode).toBe(400);
    const sameCpf = await request('POST', admin, url('transferir/'), {
      ...to,
      cpf: draft.cpf,
      motivo: 'Pedido por telefone',
    });
    expect(sameCpf.statusCode).toBe(400);
    expect(sameCpf.json().code).toBe('mesmo_titular');
    // A role without events' permission cannot.
    expect(
      (await request('POST', operator, url('transferir/'), { ...to, motivo: 'Pedido por telefone' }))
        .statusCode,
    ).toBe(403);

    const asked = await request('POST', admin, url('transferir/'), { ...to, motivo: 'Pedido por telefone' });
    expect(asked.statusCode, asked.body).toBe(201);
    expect(asked.json().pendente).toMatchObject({ nome_completo: to.nome_completo, email: to.email });
    // A second one while it waits is refused, as the runner's own.
    const twice = await request('POST', admin, url('transferir/'), { ...to, motivo: 'De novo' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().code).toBe('transferencia_pendente');

    // The new runner gets the same invitation and completes it, paying the fee (R$ 0 here: free).
    const mail = await waitForMail(t.dataDir, to.email);
    const token = mail.match(/\/inscricoes\/transferencia\/([A-Za-z0-9_-]+)/)?.[1];
    expect(token).toBeDefined();
    const free = await request('POST', friend, '/api/confirmar-gratuito/', {
      total: 0,
      finalidade: 'inscricao',
      inscricao: friendDraft(event, token!, to),
    });
    expect(free.statusCode, free.body).toBe(201);
    const [row] = await db().select().from(registrations).where(eq(registrations.id, id));
    expect(row!.fullName).toBe(to.nome_completo);
    const [transfer] = await db()
      .select()
      .from(registrationTransfers)
      .where(eq(registrationTransfers.registrationId, id));
    expect(transfer).toMatchObject({ actor: 'loja', status: 'concluida' });
    const changes = await db()
      .select()
      .from(registrationChanges)
      .where(eq(registrationChanges.registrationId, id));
    expect(changes.map((c) => [c.kind, c.actor])).toContainEqual(['transferencia', 'loja']);

    // The audit names who asked it and how, never the new runner's CPF or e-mail.
    const audit = await request('GET', admin, '/api/painel/audit/?entity=inscricao');
    const line = (audit.json().results as Array<{ action: string; entity_id: string; after: unknown }>).find(
      (e) => e.action === 'transferencia_pedida' && e.entity_id === String(id),
    );
    expect(line?.after).toEqual({ para: to.nome_completo, motivo: 'Pedido por telefone' });
    expect(JSON.stringify(audit.json())).not.toContain(to.cpf);
  });

  it('staff withdraw a pending transfer they asked; the invitation no longer opens', async () => {
    const event = await newEvent('Corrida da Transferência Desfeita');
    const { id } = await paidRegistration(event);
    const to = { nome_completo: 'Dora Desistente', cpf: nextCpf(), email: `dora.${cpfSeq}@example.com` };
    const asked = await request('POST', admin, `/api/painel/registrations/${id}/transferir/`, {
      ...to,
      motivo: 'Pedido no balcão',
    });
    expect(asked.statusCode).toBe(201);
    const mail = await waitForMail(t.dataDir, to.email);
    const token = mail.match(/\/inscricoes\/transferencia\/([A-Za-z0-9_-]+)/)?.[1];
    const undone = await request('POST', admin, `/api/painel/registrations/${id}/transferencia/cancelar/`);
    expect(undone.statusCode).toBe(200);
    expect(undone.json().pendente).toBeNull();
    expect((await request('GET', null, `/api/transferencias/${token}/`)).json().status).not.toBe('pendente');
    expect(
      (await request('POST', admin, `/api/painel/registrations/${id}/transferencia/cancelar/`)).statusCode,
    ).toBe(404);
  });

  it('the 60+ half price: a holder who loses it pays the difference, one who gains it pays nothing more', async () => {
    const event = await newEvent('Corrida da Meia-Entrada');
    await saveRules(event, { transferencia_taxa: 10 });
    // A senior registered at half price hands it to a younger runner: R$ 10 + R$ 54,95.
    const senior = await paidRegistration(event, '1950-01-01');
    const young = { nome_completo: 'Davi Jovem', cpf: nextCpf(), email: `davi.${cpfSeq}@example.com` };
    const up = await ask(senior.id, young);
    expect(
      (
        await request('GET', null, `/api/transferencias/${up.token}/preco/?data_nascimento=1995-01-01`)
      ).json(),
    ).toEqual({
      taxa: 10,
      diferenca: 54.95,
      total: 64.95,
      meia_entrada: false,
    });
    const short = await payByCard(friendDraft(event, up.token!, young, '1995-01-01'), 10);
    expect(short.statusCode).toBe(409);
    expect(short.json().total_correto).toBe(64.95);
    const paid = await payByCard(friendDraft(event, up.token!, young, '1995-01-01'), 64.95);
    expect(paid.statusCode).toBe(200);
    const [history] = await db()
      .select()
      .from(registrationChanges)
      .where(eq(registrationChanges.registrationId, senior.id));
    expect(history).toMatchObject({ feeCents: 6495, detail: { diferenca_cents: 5495 } });
    const [youngRow] = await db().select().from(registrations).where(eq(registrations.id, senior.id));
    expect(youngRow!.seniorDiscount).toBe(false);

    // A full-price registration handed to a 60+ runner: the fee only, nothing returned.
    const adult = await paidRegistration(event);
    const elder = { nome_completo: 'Elza Sênior', cpf: nextCpf(), email: `elza.${cpfSeq}@example.com` };
    const down = await ask(adult.id, elder);
    const refundsBefore = t.app.providers.payments.simulator!.refunds().length;
    expect((await payByCard(friendDraft(event, down.token!, elder, '1955-06-01'), 10)).statusCode).toBe(200);
    expect(t.app.providers.payments.simulator!.refunds()).toHaveLength(refundsBefore);
    const [elderRow] = await db().select().from(registrations).where(eq(registrations.id, adult.id));
    expect(elderRow).toMatchObject({ fullName: 'Elza Sênior', seniorDiscount: true });
  });

  it('until the last minute of the rules’ day; the link ends with it, and a pending one can be withdrawn', async () => {
    const event = await newEvent('Corrida do Prazo de Transferência');
    await saveRules(event, { transferencia_ate: '2026-11-25' });
    const { id } = await paidRegistration(event);
    const to = { nome_completo: 'Fábio Amigo', cpf: nextCpf(), email: `fabio.${cpfSeq}@example.com` };

    // 23:59 in Fortaleza on the 25th: still allowed; the link lasts until the day ends.
    t.clock = new Date('2026-11-26T02:59:00Z');
    const { res, token } = await ask(id, to);
    expect(res.statusCode).toBe(201);
    expect(res.json().pendente.expira_em).toBe('2026-11-26T02:59:59.999Z');

    // A second one while it is pending is refused; the holder withdraws it and the link closes.
    const second = await ask(id, { ...to, cpf: nextCpf() });
    expect(second.res.statusCode).toBe(409);
    expect(second.res.json().code).toBe('transferencia_pendente');
    const withdrawn = await request('POST', buyer, `/api/inscricoes/${id}/transferencia/cancelar/`);
    expect(withdrawn.statusCode).toBe(200);
    expect(withdrawn.json()).toMatchObject({ permitido: true, pendente: null });
    expect((await request('GET', null, `/api/transferencias/${token}/`)).json().status).toBe('cancelada');
    const late = await payByCard(friendDraft(event, token!, to), 0.01);
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('transferencia_encerrada');

    // Asked again, unpaid: at midnight it has expired and the day is over for new ones.
    const again = await ask(id, to);
    expect(again.res.statusCode).toBe(201);
    t.clock = new Date('2026-11-26T03:00:00Z');
    expect((await request('GET', null, `/api/transferencias/${again.token}/`)).json().status).toBe(
      'expirada',
    );
    const closed = await ask(id, { ...to, cpf: nextCpf() });
    expect(closed.res.statusCode).toBe(409);
    expect(closed.res.json()).toMatchObject({
      code: 'transferencia_nao_permitida',
      detail: 'O prazo de transferência deste evento terminou.',
    });
    const [row] = await db().select().from(registrations).where(eq(registrations.id, id));
    expect(row!.fullName).toBe('Rita Corredora');
    const ended = await db()
      .select({ status: registrationTransfers.status })
      .from(registrationTransfers)
      .where(eq(registrationTransfers.registrationId, id));
    expect(ended.map((r) => r.status).sort()).toEqual(['cancelada', 'pendente']);
  });

  it('a transfer the holder withdrew after the friend opened a Pix: the late payment is returned', async () => {
    const event = await newEvent('Corrida do Pix Tardio');
    await saveRules(event, { transferencia_taxa: 5 });
    const { id } = await paidRegistration(event);
    const to = { nome_completo: 'Gil Amigo', cpf: nextCpf(), email: `gil.${cpfSeq}@example.com` };
    const { token } = await ask(id, to);
    const pix = await request('POST', friend, '/api/pagar-pix/', {
      total: 5,
      descricao: 'Transferência',
      finalidade: 'inscricao',
      inscricao: friendDraft(event, token!, to),
    });
    expect(pix.statusCode).toBe(201);
    const refundsBefore = t.app.providers.payments.simulator!.refunds().length;
    // The friend's bank pays before the shop's removal of the Pix reaches it.
    await removalDelayed(t.app, async () => {
      expect((await request('POST', buyer, `/api/inscricoes/${id}/transferencia/cancelar/`)).statusCode).toBe(
        200,
      );
      const payNow = await request('POST', null, `/api/simulador/pix/${pix.json().txid}/pagar`);
      expect(payNow.statusCode).toBeLessThan(300);
    });
    // Polling settles it: the transfer ended, so the payment cannot complete it and goes back.
    const polled = await request('GET', friend, `/api/status-pix/${pix.json().txid}/`);
    expect(polled.json().status).toBe('DEVOLVIDA');
    expect(t.app.providers.payments.simulator!.refunds()).toHaveLength(refundsBefore + 1);
    const [row] = await db().select().from(registrations).where(eq(registrations.id, id));
    expect(row!.fullName).toBe('Rita Corredora');
  });

  it('the participant’s signed link opens that one registration; a tampered, expired or older link is refused', async () => {
    const event = await newEvent('Corrida do Link');
    const { draft, id } = await paidRegistration(event);
    const mail = await waitForMail(t.dataDir, draft.email, '/inscricoes/link/');
    const token = mail.match(/\/inscricoes\/link\/([A-Za-z0-9._-]+)/)![1]!;

    const view = await request('GET', null, `/api/inscricoes/link/${token}/`);
    expect(view.statusCode).toBe(200);
    expect(view.json()).toMatchObject({
      inscricao: id,
      nome_completo: 'Rita Corredora',
      categoria_evento: [cat(event)],
      cancelamento: { permitido: true, valor_devolvido: 109.9 },
      transferencia: { permitido: true },
    });

    // One changed character of the signature, another registration's number, an expired link.
    // A character in the middle of the signature (the last one of base64url may only carry padding bits).
    const at = token.length - 10;
    const swapped = token[at] === 'A' ? 'B' : 'A';
    for (const bad of [
      `${token.slice(0, at)}${swapped}${token.slice(at + 1)}`,
      token.replace(/^\d+/, String(id + 1)),
      participantLinkToken(t.env.CHECKIN_TOKEN_SECRET, {
        registrationId: id,
        expiresAt: new Date(START.getTime() - 1000),
        nonce: (await db().select().from(registrations).where(eq(registrations.id, id)))[0]!
          .participantLinkNonce,
      }),
    ]) {
      const res = await request('GET', null, `/api/inscricoes/link/${bad}/`);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('link_invalido');
    }

    // The buyer sends a new link: the old one stops working, the new one works.
    expect((await request('POST', buyer, `/api/inscricoes/${id}/link/`)).statusCode).toBe(204);
    expect((await request('GET', null, `/api/inscricoes/link/${token}/`)).statusCode).toBe(403);
    const fresh = readOutbox(t.dataDir)
      .filter((m) => m.includes('o link da sua inscrição'))
      .at(-1)!
      .match(/\/inscricoes\/link\/([A-Za-z0-9._-]+)/)![1]!;
    expect((await request('GET', null, `/api/inscricoes/link/${fresh}/`)).statusCode).toBe(200);

    // Through the link the participant transfers and cancels: the history says it was them.
    const to = { nome_completo: 'Hugo Amigo', cpf: nextCpf(), email: `hugo.${cpfSeq}@example.com` };
    const asked = await request('POST', null, `/api/inscricoes/link/${fresh}/transferir/`, to);
    expect(asked.statusCode).toBe(201);
    expect(
      (await request('POST', null, `/api/inscricoes/link/${fresh}/transferencia/cancelar/`)).statusCode,
    ).toBe(200);
    const cancelled = await request('POST', null, `/api/inscricoes/link/${fresh}/cancelar/`, {
      valor_devolvido: 109.9,
    });
    expect(cancelled.statusCode).toBe(200);
    expect(t.app.providers.payments.simulator!.refunds().at(-1)).toMatchObject({ amountCents: 10990 });
    const history = await db()
      .select()
      .from(registrationChanges)
      .where(eq(registrationChanges.registrationId, id));
    expect(history).toMatchObject([{ kind: 'cancelamento', actor: 'participante', refundCents: 10990 }]);
  });
});
