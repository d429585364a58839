import { createHmac } from 'node:crypto';
import { CheckinPreviewSchema } from '@passada/core/contracts/painel';
import { parse } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registrationCheckins, registrations } from '../../db/schema/index.ts';
import { createUserAndToken, type TestUser, waitForMail } from '../../test/factories/accounts.ts';
import { type MadeEvent, makeEvent } from '../../test/factories/events.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { simulatePixPaid } from '../../test/factories/payments.ts';
import {
  cpfFrom,
  outboxAttachments,
  participant,
  readQr,
  registrationPix,
  ticketOf,
} from '../../test/factories/registrations.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { csvField } from './csv.ts';

const START = new Date('2026-11-22T12:00:00Z');

describe('painel: kit pickup with a signed QR code, preview, confirmation and undo', () => {
  let t: TestApp;
  let user: TestUser;
  let operator: TestStaff;
  let admin: TestStaff;
  let praia: MadeEvent;
  let serra: MadeEvent;
  let cpfSeq = 200000001;

  async function registerPaid(event: MadeEvent, name: string, extra: Record<string, unknown> = {}) {
    const cpf = cpfFrom(cpfSeq++);
    const draft = participant(event, [event.days[0]!.categories[0]!.id], {
      nome_completo: name,
      cpf,
      ...extra,
    });
    const price = await registrationPix(t.app, draft, 0.01, user.headers);
    const pix = await registrationPix(t.app, draft, price.json().total_correto, user.headers);
    expect(pix.statusCode).toBe(201);
    const paid = await simulatePixPaid(t.app, pix.json().txid);
    return { id: paid.json().inscricao_id as number, cpf };
  }

  const post = (url: string, payload: Record<string, unknown>, who: TestStaff = operator) =>
    t.app.inject({ method: 'POST', url: `/api/painel${url}`, headers: who.headers, payload });
  const checkinsOf = (id: number) =>
    t.app.db.select().from(registrationCheckins).where(eq(registrationCheckins.registrationId, id));

  beforeAll(async () => {
    t = await createTestApp({ now: () => START });
    user = await createUserAndToken(t.app);
    // Checks in every event and exports the participants, which needs `eventos` (PERSONAL_DATA_PERMISSIONS).
    operator = await createStaffAndLogin(t.app, 'gerente');
    admin = await createStaffAndLogin(t.app, 'admin');
    praia = await makeEvent(t.app.db, {
      name: 'Corrida da Praia',
      today: '2026-11-22',
      kitSizes: [
        { size: 'M', left: 10 },
        { size: 'G', left: 10 },
      ],
    });
    serra = await makeEvent(t.app.db, { name: 'Subida da Serra', today: '2026-11-22' });
  });
  afterAll(() => t.close());

  it('refuses the old sequential code, a tampered ticket and one signed with another secret; nothing is checked in', async () => {
    const { id, cpf } = await registerPaid(praia, 'Paula Prova');
    const ticket = await ticketOf(t.app, user.headers, cpf, praia.id);
    expect(ticket).toMatch(/^PASSADA-KIT:\d+\.\d+\.[0-9a-f]{32}\.[A-Za-z0-9_-]{22}$/);
    expect(ticket).not.toContain(`PASSADA-INSCRICAO:${id}`);

    // What anyone could print before: the registration's sequential number.
    for (const url of ['/checkin/preview/', '/checkin/']) {
      const old = await post(url, { evento: praia.id, codigo: `PASSADA-INSCRICAO:${id}` });
      expect(old.statusCode).toBe(400);
      expect(old.json()).toMatchObject({ code: 'qr_antigo' });
      expect(old.json().detail).toMatch(/^Este QR code é do modelo antigo, sem assinatura/);
    }

    const [prefix, signature] = [ticket.slice(0, ticket.lastIndexOf('.') + 1), ticket.split('.').at(-1)!];
    const flipped = `${prefix}${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    // Another registration's number with this ticket's nonce and signature.
    const otherNumber = ticket.replace(/^PASSADA-KIT:\d+/, `PASSADA-KIT:${id + 1000}`);
    // A ticket signed right, but with a secret other than the server's.
    const nonce = ticket.split('.')[2]!;
    const mac = createHmac('sha256', 'um-segredo-qualquer-com-mais-de-32-caracteres')
      .update(`${id}.${praia.id}.${nonce}`)
      .digest()
      .subarray(0, 16)
      .toString('base64url');
    const wrongSecret = `PASSADA-KIT:${id}.${praia.id}.${nonce}.${mac}`;
    for (const codigo of [flipped, otherNumber, wrongSecret, `${ticket}x`]) {
      const res = await post('/checkin/', { evento: praia.id, codigo });
      expect(res.statusCode, codigo).toBe(400);
      expect(res.json()).toMatchObject({ code: 'qr_invalido' });
      expect(res.json().detail).toMatch(/^QR code inválido: a assinatura não confere/);
    }
    const foreign = await post('/checkin/preview/', { evento: praia.id, codigo: 'https://example.com/x' });
    expect(foreign.json()).toMatchObject({
      code: 'qr_invalido',
      detail: 'Este QR code não é de uma inscrição da Passada.',
    });
    expect(await checkinsOf(id)).toEqual([]);

    // A ticket whose nonce the database no longer holds is void, even with a valid signature.
    const [row] = await t.app.db.select().from(registrations).where(eq(registrations.id, id));
    await t.app.db
      .update(registrations)
      .set({ checkinNonce: 'f'.repeat(32) })
      .where(eq(registrations.id, id));
    expect((await post('/checkin/', { evento: praia.id, codigo: ticket })).json()).toMatchObject({
      code: 'qr_invalido',
    });
    await t.app.db
      .update(registrations)
      .set({ checkinNonce: row!.checkinNonce })
      .where(eq(registrations.id, id));
    expect((await post('/checkin/', { evento: praia.id, codigo: ticket })).statusCode).toBe(200);
  });

  it('the confirmation e-mail carries the same signed ticket as the lookup page', async () => {
    const { cpf } = await registerPaid(praia, 'Elisa Email', { email: 'elisa.email@example.com' });
    const mail = await waitForMail(t.dataDir, 'elisa.email@example.com', 'Sua inscrição está confirmada');
    // The QR is an attachment the HTML shows by its Content-ID (not a data: URI).
    const cid = /src="cid:([^"]+)"/.exec(mail.replace(/=\r?\n/g, ''))?.[1];
    expect(cid).toBeDefined();
    const [png] = outboxAttachments(t.dataDir, cid!);
    expect(await readQr(`data:image/png;base64,${png!.toString('base64')}`)).toBe(
      await ticketOf(t.app, user.headers, cpf, praia.id),
    );
    expect(mail).toContain('Este QR code é pessoal');
  });

  it('scanning first shows who it is, changing nothing; only the confirmation hands the kit out', async () => {
    const { id, cpf } = await registerPaid(praia, 'Rita Retirada', { equipe: 'Assessoria Maré' });
    const codigo = await ticketOf(t.app, user.headers, cpf, praia.id);

    const preview = await post('/checkin/preview/', { evento: praia.id, codigo });
    expect(preview.statusCode).toBe(200);
    const seen = CheckinPreviewSchema.parse(preview.json());
    expect(seen).toMatchObject({
      evento: { id: praia.id, nome: 'Corrida da Praia' },
      situacao: 'pode_retirar',
      confira_documento: false,
      participante: {
        id,
        nome_completo: 'Rita Retirada',
        tamanho_camisa: 'M',
        retirada: null,
        equipe: 'Assessoria Maré',
      },
    });
    expect(seen.participante.categorias.map((c) => c.nome)).toEqual(['5 km']);
    expect(await checkinsOf(id)).toEqual([]);

    const confirmed = await post('/checkin/', { evento: praia.id, codigo });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().retirada).toMatchObject({
      at: START.toISOString(),
      staff_name: expect.any(String),
    });
    expect(await checkinsOf(id)).toHaveLength(1);

    const again = CheckinPreviewSchema.parse(
      (await post('/checkin/preview/', { evento: praia.id, codigo })).json(),
    );
    expect(again.situacao).toBe('retirado');
    expect(again.participante.retirada?.at).toBe(START.toISOString());
    const twice = await post('/checkin/', { evento: praia.id, codigo });
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({ code: 'ja_retirado' });

    // The search by name leads to the same preview, by the registration's number.
    const found = await t.app.inject({
      method: 'GET',
      url: `/api/painel/checkin/search/?evento=${praia.id}&busca=${encodeURIComponent('rita')}`,
      headers: operator.headers,
    });
    expect(found.json().map((p: { id: number }) => p.id)).toEqual([id]);
    const byNumber = await post('/checkin/preview/', { evento: praia.id, inscricao: id });
    expect(CheckinPreviewSchema.parse(byNumber.json())).toEqual(again);
  });

  it('says to check a document when the registration was paid at the 60+ half price', async () => {
    const { cpf } = await registerPaid(praia, 'Seu Severino', {
      data_nascimento: '1950-03-01',
      genero: 'Masculino',
    });
    const codigo = await ticketOf(t.app, user.headers, cpf, praia.id);
    const seen = CheckinPreviewSchema.parse(
      (await post('/checkin/preview/', { evento: praia.id, codigo })).json(),
    );
    expect(seen.participante.meia_entrada).toBe(true);
    expect(seen.confira_documento).toBe(true);
  });

  it("refuses a ticket of another event on this event's screen, naming the event it belongs to", async () => {
    const { id, cpf } = await registerPaid(serra, 'Sérgio Serrano');
    const codigo = await ticketOf(t.app, user.headers, cpf, serra.id);
    for (const url of ['/checkin/preview/', '/checkin/']) {
      const res = await post(url, { evento: praia.id, codigo });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        code: 'outro_evento',
        evento: { id: serra.id, nome: 'Subida da Serra' },
      });
      expect(res.json().detail).toBe(
        'Esta inscrição é do evento "Subida da Serra", não de "Corrida da Praia": o kit não é entregue neste check-in.',
      );
    }
    // By number too: the server checks the event, whatever the screen sends.
    expect((await post('/checkin/', { evento: praia.id, inscricao: id })).json()).toMatchObject({
      code: 'outro_evento',
    });
    expect((await post('/checkin/', { evento: praia.id })).statusCode).toBe(400);
    expect((await post('/checkin/', { codigo })).statusCode).toBe(400);
    expect(await checkinsOf(id)).toEqual([]);
    expect((await post('/checkin/', { evento: serra.id, codigo })).statusCode).toBe(200);
  });

  it('undoes a pickup only with a reason, audited with who and when; the kit can then be checked in again', async () => {
    const { id, cpf } = await registerPaid(praia, 'Diego Desfeito');
    const codigo = await ticketOf(t.app, user.headers, cpf, praia.id);
    const first = await post('/checkin/', { evento: praia.id, codigo });
    const at = first.json().retirada.at as string;

    // The pickup on screen, at the desk's event; each call changes only what it tests.
    const undo = (fields: Record<string, unknown>) =>
      post('/checkin/undo/', { evento: praia.id, inscricao: id, retirada_em: at, ...fields });
    const noReason = await undo({});
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().errors).toHaveProperty('motivo');
    const blank = await undo({ motivo: '  ' });
    expect(blank.statusCode).toBe(400);
    // Undoing a pickup other than the one on screen is refused: a newer one is never removed unseen.
    const stale = await undo({ retirada_em: '2026-11-22T08:00:00.000Z', motivo: 'Entregue à pessoa errada' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'retirada_alterada' });
    const elsewhere = await undo({ evento: serra.id, motivo: 'Entregue à pessoa errada' });
    expect(elsewhere.json()).toMatchObject({ code: 'outro_evento' });
    expect(await checkinsOf(id)).toHaveLength(1);

    const undone = await undo({ motivo: '  Entregue à pessoa errada ' });
    expect(undone.statusCode).toBe(200);
    expect(undone.json().retirada).toBeNull();
    expect(await checkinsOf(id)).toEqual([]);
    const audit = await t.app.inject({
      method: 'GET',
      url: '/api/painel/audit/?entity=inscricao',
      headers: admin.headers,
    });
    expect(audit.json().results[0]).toMatchObject({
      action: 'kit_retirada_desfeita',
      entity_id: String(id),
      staff_email: operator.email,
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      before: { retirada: at },
      after: { retirada: null, motivo: 'Entregue à pessoa errada' },
    });
    const nothingLeft = await undo({ motivo: 'De novo' });
    expect(nothingLeft.json()).toMatchObject({ code: 'sem_retirada' });

    // Back at the desk: the preview says it can go, and the kit is checked in again.
    const seen = CheckinPreviewSchema.parse(
      (await post('/checkin/preview/', { evento: praia.id, codigo })).json(),
    );
    expect(seen.situacao).toBe('pode_retirar');
    expect((await post('/checkin/', { evento: praia.id, codigo })).statusCode).toBe(200);
    // Picked up again, the kit still blocks a cancellation.
    const cancel = await post(`/registrations/${id}/cancel/`, {}, admin);
    expect(cancel.statusCode).toBe(409);
    expect(cancel.json()).toMatchObject({ code: 'kit_retirado' });
  });

  it('shows a cancelled registration as cancelled and never hands its kit out', async () => {
    const { id, cpf } = await registerPaid(praia, 'Carlos Cancelado');
    const codigo = await ticketOf(t.app, user.headers, cpf, praia.id);
    expect((await post(`/registrations/${id}/cancel/`, { motivo: 'Desistiu' }, admin)).statusCode).toBe(200);
    const seen = CheckinPreviewSchema.parse(
      (await post('/checkin/preview/', { evento: praia.id, inscricao: id })).json(),
    );
    expect(seen.situacao).toBe('cancelada');
    const res = await post('/checkin/', { evento: praia.id, codigo });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'inscricao_cancelada' });
    expect(await checkinsOf(id)).toEqual([]);
  });

  it('writes a team that is a formula as text in the CSV, read back by a CSV parser', async () => {
    const formula = '=HYPERLINK("http://x","y")';
    const a = await registerPaid(praia, 'Fábio Fórmula', { equipe: formula });
    const b = await registerPaid(praia, 'Arroba Alves', { equipe: '@corredores' });
    const c = await registerPaid(praia, 'Mário Menos', { equipe: '-10 km Club' });
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/painel/events/${praia.id}/participants.csv`,
      headers: operator.headers,
    });
    expect(res.statusCode).toBe(200);
    const rows: string[][] = parse(res.rawPayload, { bom: true, delimiter: ';', relax_column_count: false });
    const header = rows[0]!;
    const team = header.indexOf('Equipe');
    const paid = header.indexOf('Valor pago (R$)');
    const byId = (id: number) => rows.find((r) => r[0] === String(id))!;
    expect(byId(a.id)[team]).toBe(`'${formula}`);
    expect(byId(b.id)[team]).toBe("'@corredores");
    expect(byId(c.id)[team]).toBe("'-10 km Club");
    // The shop's own numbers are untouched.
    expect(byId(a.id)[paid]).toMatch(/^\d+,\d{2}$/);
    expect(byId(a.id)[1]).toBe('Fábio Fórmula');
    // On the wire the cell is quoted, as OWASP asks.
    expect(res.rawPayload.toString('utf8')).toContain(`;"'=HYPERLINK(""http://x"",""y"")";`);
  });

  it('escapes every formula start, and leaves plain numbers (negative ones included) as numbers', () => {
    expect(csvField('+55 85 9999')).toBe(`"'+55 85 9999"`);
    expect(csvField('\tcmd')).toBe(`"'\tcmd"`);
    expect(csvField('\r=1+1')).toBe(`"'\r=1+1"`);
    expect(csvField('-12,50')).toBe('-12,50');
    expect(csvField(-3)).toBe('-3');
    expect(csvField('-1+1')).toBe(`"'-1+1"`);
    expect(csvField('Equipe; "Sul"')).toBe('"Equipe; ""Sul"""');
    expect(csvField('Maria')).toBe('Maria');
  });
});
