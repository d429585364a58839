import { AuditPageSchema, CustomerDetailSchema, CustomerPageSchema } from '@passada/core/contracts/painel';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  customerNotes,
  customerTags,
  messageLog,
  registrations,
  registrationTransfers,
  waitlistEntries,
  whatsappOptOuts,
} from '../../db/schema/index.ts';
import { createUserAndToken, type TestUser } from '../../test/factories/accounts.ts';
import { makeEvent } from '../../test/factories/events.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { cpfFrom, participantsFrom } from '../../test/factories/registrations.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

describe('painel: customers, their orders and registrations, LGPD export and erasure', () => {
  let t: TestApp;
  let manager: TestStaff;
  let customer: TestUser;
  const cpf = cpfFrom(410_000_000);

  const call = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url: `/api/painel${url}`,
      headers: manager.headers,
      ...(payload ? { payload } : {}),
    });
  const search = async (busca: string) =>
    CustomerPageSchema.parse((await call('POST', '/clientes/busca/', { busca })).json());

  beforeAll(async () => {
    t = await createTestApp();
    manager = await createStaffAndLogin(t.app, 'gerente');
    customer = await createUserAndToken(t.app, { full_name: 'Joana Cliente Fiel' });
    await createUserAndToken(t.app, { full_name: 'Outro Corredor' });
    // A free registration made from the account, so the CPF is on record for it.
    const event = await makeEvent(t.app.db, { days: [[{ name: '5 km', priceCents: 0 }]] });
    const draft = participantsFrom(410_000_000)(
      event,
      'Joana Cliente Fiel',
      event.days[0]!.categories[0]!.id,
    );
    expect(draft.cpf).toBe(cpf);
    const free = await t.app.inject({
      method: 'POST',
      url: '/api/confirmar-gratuito/',
      headers: customer.headers,
      payload: { total: 0, finalidade: 'inscricao', inscricao: draft },
    });
    expect(free.statusCode, free.body).toBeLessThan(300);
  });
  afterAll(() => t.close());

  it('finds a customer by part of the name, the e-mail or the CPF, on the server', async () => {
    expect((await search('cliente fiel')).results.map((c) => c.id)).toEqual([customer.id]);
    expect((await search(customer.email.toUpperCase())).results.map((c) => c.id)).toEqual([customer.id]);
    const formatted = `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;
    expect((await search(formatted)).results.map((c) => c.id)).toEqual([customer.id]);
    expect((await search('ninguém com este nome')).count).toBe(0);
  });

  it("shows the customer's registrations, exports and erases their data, auditing without the data", async () => {
    const detail = CustomerDetailSchema.parse((await call('GET', `/clientes/${customer.id}/`)).json());
    expect(detail.inscricoes).toEqual([
      expect.objectContaining({ participante: 'Joana Cliente Fiel', cancelada: false }),
    ]);

    const exported = await call('POST', `/clientes/${customer.id}/exportar/`);
    expect(exported.statusCode).toBe(200);
    expect(JSON.stringify(exported.json())).toContain(customer.email);

    const refused = await call('POST', `/clientes/${customer.id}/excluir/`, { motivo: '' });
    expect(refused.statusCode).toBe(400);
    const erased = await call('POST', `/clientes/${customer.id}/excluir/`, {
      motivo: 'Pedido por e-mail em 20/11',
    });
    expect(erased.statusCode).toBe(204);
    expect((await call('POST', `/clientes/${customer.id}/excluir/`, { motivo: 'De novo' })).statusCode).toBe(
      404,
    );
    const after = CustomerDetailSchema.parse((await call('GET', `/clientes/${customer.id}/`)).json());
    expect(after.cliente).toMatchObject({ nome: 'Conta excluída', excluida: true });

    const admin = await createStaffAndLogin(t.app, 'admin');
    const log = AuditPageSchema.parse(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/painel/audit/?entity=cliente',
          headers: admin.headers,
        })
      ).json(),
    );
    expect(log.results.map((e) => e.action).sort()).toEqual(['dados_excluidos', 'dados_exportados']);
    const written = JSON.stringify(log.results);
    expect(written).not.toContain(cpf);
    expect(written).not.toContain(customer.email);
  });

  it('exports, for an incident window, the accounts held then and the kinds of data each holds, admin only and audited', async () => {
    const admin = await createStaffAndLogin(t.app, 'admin');
    const today = new Date().toISOString().slice(0, 10);
    const url = `/api/painel/clientes/incidente.csv?desde=2020-01-01&ate=${today}`;
    expect((await t.app.inject({ method: 'GET', url, headers: manager.headers })).statusCode).toBe(403);
    const res = await t.app.inject({ method: 'GET', url, headers: admin.headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toContain(
      'Conta;Nome;E-mail;Criada em;Excluída em;Dados da conta (nome, e-mail);Endereços',
    );
    // Joana asked for erasure above: she is still listed (her data was held in the window) with the
    // dates, without name nor e-mail, and no account data held any more.
    const joana = lines.find((l) => l.startsWith(`${customer.id};`));
    expect(joana).toMatch(/^\d+;;;[^;]+;[^;]+;Não;0;0;\d+;Não;Não;Não$/);
    const other = lines.find((l) => l.includes(';Outro Corredor;'));
    expect(other).toMatch(/^\d+;Outro Corredor;[^;]+@[^;]+;[^;]+;;Sim;0;0;0;Não;Não;Não$/);
    // A window before the shop existed holds nobody.
    const empty = await t.app.inject({
      method: 'GET',
      url: '/api/painel/clientes/incidente.csv?desde=2000-01-01&ate=2000-01-31',
      headers: admin.headers,
    });
    // The accounts' header, then a blank line and the header of the people without an account line.
    expect(
      empty.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n'),
    ).toEqual([expect.stringMatching(/^Conta;/), '', 'Origem;Nome;E-mail ou WhatsApp;Desde;Dados guardados']);
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/painel/clientes/incidente.csv?desde=2026-02-01&ate=2026-01-01',
      headers: admin.headers,
    });
    expect(bad.statusCode).toBe(400);
    const audit = AuditPageSchema.parse(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/painel/audit/?entity=cliente',
          headers: admin.headers,
        })
      ).json(),
    );
    expect(audit.results.some((e) => e.action === 'incidente_exportado')).toBe(true);
  });

  it('adds the people held without an account line: unknown numbers and addresses, waitlists, transfers', async () => {
    const admin = await createStaffAndLogin(t.app, 'admin');
    const event = await makeEvent(t.app.db, { days: [[{ name: '10 km', priceCents: 0 }]] });
    const category = event.days[0]!.categories[0]!.id;
    const carla = await createUserAndToken(t.app, { full_name: 'Carla Com Conta' });
    const draft = participantsFrom(410_000_100)(event, 'Carla Com Conta', category, {
      numero_contato: '(85) 98888-1234',
    });
    const free = await t.app.inject({
      method: 'POST',
      url: '/api/confirmar-gratuito/',
      headers: carla.headers,
      payload: { total: 0, finalidade: 'inscricao', inscricao: draft },
    });
    expect(free.statusCode, free.body).toBeLessThan(300);
    const [registration] = await t.database.db
      .select({ id: registrations.id })
      .from(registrations)
      .where(eq(registrations.cpf, draft.cpf));
    const sent = (channel: 'email' | 'whatsapp', recipient: string) => ({
      channel,
      recipient,
      kind: 'whatsapp.order-update',
      status: 'sent' as const,
    });
    await t.database.db.insert(messageLog).values([
      sent('whatsapp', '5585988881234'), // Carla's registration phone: on her line already
      sent('whatsapp', '5585977770001'),
      sent('whatsapp', '5585977770001'),
      sent('email', carla.email.toUpperCase()), // her account's e-mail, whatever the case
      sent('email', 'sem.conta@example.com'),
    ]);
    await t.database.db.insert(whatsappOptOuts).values({
      phone: '5585977770002',
      request: 'PARAR',
      messageId: 'wamid.teste',
      requestedAt: new Date(),
    });
    await t.database.db.insert(waitlistEntries).values({
      categoryId: category,
      eventId: event.id,
      fullName: 'Wanda Espera',
      cpf: cpfFrom(410_000_200),
      email: 'wanda@example.com',
      createdAt: new Date(),
    });
    await t.database.db.insert(registrationTransfers).values({
      registrationId: registration!.id,
      tokenHash: 'hash-da-transferencia-do-teste-de-incidente',
      status: 'pendente',
      actor: 'comprador',
      toName: 'Tiago Novo',
      toCpf: cpfFrom(410_000_201),
      toEmail: 'tiago@example.com',
      fromName: 'Carla Com Conta',
      fromEmail: carla.email,
      feeCents: 0,
      expiresAt: new Date(Date.now() + 86_400_000),
      createdAt: new Date(),
    });

    const today = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/painel/clientes/incidente.csv?desde=2020-01-01&ate=${today}`,
      headers: admin.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    const others = lines.slice(lines.indexOf('') + 1);
    expect(others[0]).toBe('Origem;Nome;E-mail ou WhatsApp;Desde;Dados guardados');
    const row = (contact: string) => others.filter((l) => l.split(';')[2] === contact);
    expect(row('5585977770001')).toEqual([
      expect.stringMatching(
        /^Número de WhatsApp sem conta;;5585977770001;[^;]+;número de WhatsApp no registro de mensagens \(2\)$/,
      ),
    ]);
    expect(row('5585977770002')[0]).toMatch(
      /;pedido para parar as mensagens \(número, palavra enviada e data\)$/,
    );
    expect(row('sem.conta@example.com')[0]).toMatch(
      /^E-mail sem conta;;sem.conta@example.com;[^;]+;e-mail no registro de mensagens \(1\)$/,
    );
    expect(row('5585988881234')).toEqual([]);
    expect(row(carla.email.toLowerCase()).map((l) => l.split(';')[0])).toEqual(['Transferência feita']);
    expect(row('wanda@example.com')[0]).toMatch(
      /^Lista de espera;Wanda Espera;wanda@example.com;[^;]+;lista de espera: nome, CPF e e-mail$/,
    );
    expect(row('tiago@example.com')[0]).toMatch(
      /^Transferência recebida;Tiago Novo;tiago@example.com;[^;]+;transferência de inscrição recebida: nome, CPF e e-mail$/,
    );
    // No CPF in the file: the notice goes to the e-mail or number.
    expect(res.body).not.toContain(cpfFrom(410_000_200));
    expect(res.body).not.toContain(cpfFrom(410_000_201));
  });

  it('keeps notes and tags on a customer: two staff at once keep both, tags filter the search, they leave with the data', async () => {
    const ana = await createUserAndToken(t.app, { full_name: 'Ana Etiquetada' });
    const colleague = await createStaffAndLogin(t.app, 'admin');
    const as = (who: TestStaff, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
      t.app.inject({
        method,
        url: `/api/painel${url}`,
        headers: who.headers,
        ...(payload ? { payload } : {}),
      });

    // Two staff on the same screen write at the same moment: both notes and both tags are kept.
    const [first, second] = await Promise.all([
      as(manager, 'POST', `/clientes/${ana.id}/notas/`, { texto: 'Prefere retirar na loja.' }),
      as(colleague, 'POST', `/clientes/${ana.id}/notas/`, { texto: 'Treina com a assessoria Sol.' }),
    ]);
    expect([first.statusCode, second.statusCode], first.body + second.body).toEqual([201, 201]);
    await Promise.all([
      as(manager, 'POST', `/clientes/${ana.id}/etiquetas/`, { etiqueta: '  VIP   Ouro ' }),
      as(colleague, 'POST', `/clientes/${ana.id}/etiquetas/`, { etiqueta: 'assessoria' }),
    ]);
    // The same tag again changes nothing.
    const again = await as(manager, 'POST', `/clientes/${ana.id}/etiquetas/`, { etiqueta: 'vip ouro' });
    expect(again.json()).toEqual(['assessoria', 'vip ouro']);
    const detail = CustomerDetailSchema.parse((await call('GET', `/clientes/${ana.id}/`)).json());
    expect(detail.etiquetas).toEqual(['assessoria', 'vip ouro']);
    expect(detail.notas.map((n) => n.texto).sort()).toEqual([
      'Prefere retirar na loja.',
      'Treina com a assessoria Sol.',
    ]);
    expect(new Set(detail.notas.map((n) => n.autor)).size).toBe(2);

    // Bad input: a clear message, nothing written.
    const badTag = await as(manager, 'POST', `/clientes/${ana.id}/etiquetas/`, { etiqueta: '#vip!' });
    expect(badTag.statusCode).toBe(400);
    expect(badTag.body).toContain('Use só letras, números, espaços e hífens.');
    expect((await as(manager, 'POST', `/clientes/${ana.id}/notas/`, { texto: '   ' })).statusCode).toBe(400);
    const long = await as(manager, 'POST', `/clientes/${ana.id}/notas/`, { texto: 'x'.repeat(1001) });
    expect(long.statusCode).toBe(400);
    expect((await as(manager, 'POST', '/clientes/999999/notas/', { texto: 'Ninguém' })).statusCode).toBe(404);
    // A role without the customers' permission reads and writes none of it.
    const stock = await createStaffAndLogin(t.app, 'estoque');
    expect((await as(stock, 'POST', `/clientes/${ana.id}/notas/`, { texto: 'Oi' })).statusCode).toBe(403);
    expect((await as(stock, 'GET', '/clientes/etiquetas/')).statusCode).toBe(403);

    // The tag filters the search, alone or with a name.
    const byTag = async (etiqueta: string, busca = '') =>
      CustomerPageSchema.parse((await call('POST', '/clientes/busca/', { busca, etiqueta })).json());
    expect((await byTag('VIP OURO')).results.map((c) => c.id)).toEqual([ana.id]);
    expect((await byTag('vip ouro', 'outro corredor')).count).toBe(0);
    expect((await byTag('assessoria', 'ana')).results.map((c) => c.id)).toEqual([ana.id]);
    expect((await call('POST', '/clientes/busca/', { busca: '' })).statusCode).toBe(400);
    expect((await call('GET', '/clientes/etiquetas/')).json()).toEqual(
      expect.arrayContaining([{ etiqueta: 'vip ouro', clientes: 1 }]),
    );

    // Removing one tag leaves the other; a note goes by its id, once.
    const removed = await as(
      colleague,
      'DELETE',
      `/clientes/${ana.id}/etiquetas/${encodeURIComponent('vip ouro')}/`,
    );
    expect(removed.json()).toEqual(['assessoria']);
    const noteId = detail.notas[0]!.id;
    expect((await as(manager, 'DELETE', `/clientes/${customer.id}/notas/${noteId}/`)).statusCode).toBe(404);
    expect((await as(manager, 'DELETE', `/clientes/${ana.id}/notas/${noteId}/`)).statusCode).toBe(204);
    expect((await as(manager, 'DELETE', `/clientes/${ana.id}/notas/${noteId}/`)).statusCode).toBe(404);

    // The person reads what staff wrote in their own download (LGPD art. 18 II).
    const own = await t.app.inject({ method: 'GET', url: '/api/users/profile/dados/', headers: ana.headers });
    expect(own.json()).toMatchObject({
      notas_da_loja: [expect.objectContaining({ texto: detail.notas[1]!.texto })],
      etiquetas_da_loja: ['assessoria'],
    });
    // The audit names the customer and the note's number, never the note's text.
    const admin = await createStaffAndLogin(t.app, 'admin');
    const log = AuditPageSchema.parse((await as(admin, 'GET', `/audit/?entity=cliente`)).json());
    const lines = log.results.filter((e) => e.entity_id === String(ana.id));
    expect(lines.map((e) => e.action).sort()).toEqual([
      'etiqueta_cliente_dada',
      'etiqueta_cliente_dada',
      'etiqueta_cliente_dada',
      'etiqueta_cliente_tirada',
      'nota_cliente_apagada',
      'nota_cliente_escrita',
      'nota_cliente_escrita',
    ]);
    expect(JSON.stringify(lines)).not.toContain('assessoria Sol');

    // Erasure takes the notes and tags with the rest; nothing more is written about an erased account.
    expect(
      (await call('POST', `/clientes/${ana.id}/excluir/`, { motivo: 'Pedido no balcão' })).statusCode,
    ).toBe(204);
    const [left] = await t.app.db
      .select({ n: count() })
      .from(customerNotes)
      .where(eq(customerNotes.userId, ana.id));
    expect(left?.n).toBe(0);
    const [tagsLeft] = await t.app.db
      .select({ n: count() })
      .from(customerTags)
      .where(eq(customerTags.userId, ana.id));
    expect(tagsLeft?.n).toBe(0);
    const late = await as(manager, 'POST', `/clientes/${ana.id}/notas/`, { texto: 'Depois' });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ code: 'cliente_excluido' });
  });
});
