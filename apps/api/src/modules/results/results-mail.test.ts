import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserAndToken, readOutbox } from '../../test/factories/accounts.ts';
import { type MadeProduct, makeProduct } from '../../test/factories/catalog.ts';
import { type MadeEvent, makeEvent } from '../../test/factories/events.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { simulatePixPaid } from '../../test/factories/payments.ts';
import { participantsFrom, registrationPix } from '../../test/factories/registrations.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { untilJobsDone } from '../../test/wait-until.ts';

const START = new Date('2026-11-22T12:00:00Z');

/**
 * A publication e-mails each finisher whose result is new or changed, with the certificate attached
 * (decision 0064, later): never a runner who did not finish, never twice for the same result.
 */
describe('results by e-mail with the certificate', () => {
  let t: TestApp;
  let manager: TestStaff;
  let event: MadeEvent;
  let timerId: number;
  let shirt: MadeProduct;
  let nextYear: MadeEvent;
  const bibOf = new Map<string, number>();
  const mailOf = new Map<string, string>();

  const painel = (url: string, payload?: unknown) =>
    t.app.inject({
      method: 'POST',
      url: `/api/painel${url}`,
      headers: manager.headers,
      ...(payload ? { payload } : {}),
    });
  async function publish(file: string) {
    const preview = await painel(`/events/${event.id}/resultados/importacoes/`, {
      cronometragem: timerId,
      conteudo: file,
    });
    expect(preview.statusCode, preview.body).toBe(201);
    const done = await painel(`/events/${event.id}/resultados/importacoes/${preview.json().id}/publicar/`);
    expect(done.statusCode, done.body).toBe(200);
    await untilJobsDone(t.app.db, 'mail.result-certificate');
    await untilJobsDone(t.app.db, 'whatsapp.result-published');
  }
  /** The WhatsApp messages the offline provider wrote (its outbox, one JSON file each). */
  const resultWhatsApps = () => {
    const dir = path.join(t.dataDir, 'outbox', 'whatsapp');
    const files = existsSync(dir) ? readdirSync(dir).sort() : [];
    return files
      .map(
        (f) =>
          JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as {
            to: string;
            template: string;
            parameters: string[];
          },
      )
      .filter((m) => m.template === 'resultado_publicado');
  };
  const certificateMails = () =>
    readOutbox(t.dataDir).filter((m) => m.includes('foram publicados. Parabéns'));
  const queued = async () =>
    Number(
      (
        (await t.app.db.execute(
          sql`select count(*) as n from pgboss.job where name = 'mail.result-certificate'`,
        )) as { rows: Array<{ n: string }> }
      ).rows[0]?.n,
    );

  beforeAll(async () => {
    t = await createTestApp({ now: () => START });
    const user = await createUserAndToken(t.app);
    manager = await createStaffAndLogin(t.app, 'gerente');
    event = await makeEvent(t.app.db, {
      name: 'Corrida do Certificado',
      today: '2026-11-22',
      startDate: '2026-12-20',
      kitSizes: [{ size: 'M', left: 50 }],
    });
    // After the finish line, back to the shop: the finisher shirt (3 left in M) and next year's race.
    shirt = await makeProduct(t.app.db, { stock: [{ color: 'Preto', size: 'M', quantity: 3 }] });
    nextYear = await makeEvent(t.app.db, {
      name: 'Corrida do Certificado 2027',
      today: '2026-11-22',
      startDate: '2027-12-19',
    });
    const next = participantsFrom(650000001);
    const tenKm = event.days[0]!.categories[1]!;
    for (const name of ['Ana Chegada', 'Bia Chegada', 'Caio Abandono']) {
      const email = `${name.split(' ')[0]!.toLowerCase()}.certificado@example.com`;
      mailOf.set(name, email);
      // Ana ticked the WhatsApp opt-in at registration; the others did not.
      const whatsapp = name === 'Ana Chegada' ? { whatsapp: true, numero_contato: '(85) 98877-6655' } : {};
      const draft = next(event, name, tenKm.id, { email, ...whatsapp });
      const price = await registrationPix(t.app, draft, 0.01, user.headers);
      const pix = await registrationPix(t.app, draft, price.json().total_correto, user.headers);
      expect(pix.statusCode, pix.body).toBe(201);
      expect((await simulatePixPaid(t.app, pix.json().txid)).statusCode).toBe(200);
    }
    expect(
      (await painel(`/events/${event.id}/numeros-de-peito/`, { modo: 'sequencia', inicio: 1 })).statusCode,
    ).toBe(200);
    // Bibs in name order: Ana 1, Bia 2, Caio 3.
    bibOf.set('Ana Chegada', 1).set('Bia Chegada', 2).set('Caio Abandono', 3);
    const timer = await painel('/cronometragens/', {
      nome: 'Chip do Certificado',
      colunas: { numero: 'Peito', tempo_bruto: 'Bruto', tempo_liquido: null, situacao: 'Status' },
    });
    timerId = timer.json().id;
  });
  afterAll(() => t.close());

  const links = (payload: object) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/painel/events/${event.id}/resultados/loja/`,
      headers: manager.headers,
      payload,
    });

  it('links the finisher shirt and a later edition, refusing an unknown product or an earlier event', async () => {
    expect((await links({ camisa_finisher_id: 999999, proxima_edicao_id: null })).json()).toMatchObject({
      code: 'produto_inexistente',
    });
    const earlier = await makeEvent(t.app.db, { today: '2026-11-22', startDate: '2026-12-01' });
    const refused = await links({ camisa_finisher_id: null, proxima_edicao_id: earlier.id });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'edicao_anterior' });
    const saved = await links({ camisa_finisher_id: shirt.id, proxima_edicao_id: nextYear.id });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ camisa_finisher_id: shirt.id, proxima_edicao_id: nextYear.id });
  });

  it('sends each finisher the result with the certificate attached, no one who did not finish, and only the changed result again', async () => {
    await publish('Peito;Bruto;Status\n1;0:41:00;\n2;0:45:30;\n3;;DNF');
    const mails = certificateMails();
    expect(mails).toHaveLength(2);
    const ana = mails.find((m) => m.includes(`To: ${mailOf.get('Ana Chegada')}`)) ?? '';
    expect(ana).toContain('Corrida do Certificado');
    expect(ana).toContain('tempo bruto: 0:41:00');
    expect(ana).toContain('Colocação geral: 1º de 2');
    expect(ana).toMatch(/Content-Type: application\/pdf;?\s*name="?certificado-1\.pdf/i);
    expect(ana).toContain(`/eventos/resultados/${event.id}/1`);
    expect(mails.some((m) => m.includes(mailOf.get('Caio Abandono')!))).toBe(false);
    // On WhatsApp only to Ana, who opted in: her race, net time (the gun time when the file has none) and page.
    expect(resultWhatsApps()).toEqual([
      {
        to: '5585988776655',
        template: 'resultado_publicado',
        parameters: [
          'Ana',
          'Corrida do Certificado',
          '10 km',
          '0:41:00',
          `http://localhost:3000/eventos/resultados/${event.id}/1`.replace(
            'http://localhost:3000',
            t.env.publicUrl,
          ),
        ],
        id: expect.any(String),
        text: expect.stringContaining('O resultado da Corrida do Certificado foi publicado'),
      },
    ]);
    // The finisher shirt in her kit size from the live stock, and the next edition, one link each.
    const text = ana.replace(/=\r?\n/g, '');
    expect(text).toContain(`Camisa finisher da prova, ${shirt.name}: no seu tamanho (M) ainda h`);
    expect(text).toContain(`/produto/${shirt.id}`);
    expect(text).toContain('Corrida do Certificado 2027, em 19/12/2027');
    expect(text).toContain(`/eventos/register/${nextYear.id}`);
    expect(text).toContain(
      'Pré-inscrição em um clique (sorteio ou lista de espera), pela conta que fez a inscrição',
    );
    const page = await t.app.inject({ method: 'GET', url: `/api/events/${event.id}/resultados/1/` });
    expect(page.json().depois_da_chegada).toEqual({
      camisa_finisher_id: shirt.id,
      proxima_edicao: { id: nextYear.id, nome: 'Corrida do Certificado 2027', data: '2027-12-19' },
    });

    // The same file published again: no result changed, no e-mail.
    const before = await queued();
    await publish('Peito;Bruto;Status\n1;0:41:00;\n2;0:45:30;\n3;;DNF');
    expect(await queued()).toBe(before);
    expect(certificateMails()).toHaveLength(2);

    // Bia's time corrected: only Bia is told, with the corrected time.
    await publish('Peito;Bruto;Status\n1;0:41:00;\n2;0:45:05;\n3;;DNF');
    expect(await queued()).toBe(before + 1);
    const after = certificateMails();
    expect(after).toHaveLength(3);
    expect(after.at(-1)).toContain(`To: ${mailOf.get('Bia Chegada')}`);
    expect(after.at(-1)).toContain('tempo bruto: 0:45:05');
    // Bia did not opt in: still one WhatsApp, Ana's.
    expect(resultWhatsApps()).toHaveLength(1);
  });
});
