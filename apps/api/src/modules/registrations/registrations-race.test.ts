import { EventSchema } from '@passada/core/contracts/events';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { charges, eventKitSizes, registrations } from '../../db/schema/index.ts';
import { createUserAndToken, readOutbox, type TestUser } from '../../test/factories/accounts.ts';
import { type MadeEvent, makeEvent } from '../../test/factories/events.ts';
import { cardToken, simulatePixPaid } from '../../test/factories/payments.ts';
import { cpfFrom, OTHER_CPF, participant, registrationPix } from '../../test/factories/registrations.ts';
import { useClockedTestApp } from '../../test/test-app.ts';

// 09:00 in Fortaleza (UTC−3) on 22 November 2026.
const START = new Date('2026-11-22T12:00:00Z');
const TODAY = '2026-11-22';

/** Kit sizes, price lots, the participant's extra data and the age group of a registration. */
describe('race registration: kit, lots, participant data', () => {
  const t = useClockedTestApp(START);
  let user: TestUser;

  beforeAll(async () => {
    user = await createUserAndToken(t.app, { email: 'corredora@example.com' });
  });

  const pixFor = (draft: unknown, total: number, headers = user.headers) =>
    registrationPix(t.app, draft, total, headers);
  const newEvent = (overrides: Parameters<typeof makeEvent>[1] = {}) =>
    makeEvent(t.app.db, { today: TODAY, ...overrides });
  const cat = (e: MadeEvent, day = 0, i = 0) => e.days[day]!.categories[i]!.id;
  const size = (e: MadeEvent, name: string) => e.kitSizes!.find((k) => k.size === name)!.id;
  const sizesLeft = async (e: MadeEvent) =>
    Object.fromEntries(
      (await t.app.db.select().from(eventKitSizes).where(eq(eventKitSizes.eventId, e.id))).map((k) => [
        k.size,
        k.left,
      ]),
    );
  const eventPage = async (e: MadeEvent) =>
    EventSchema.parse((await t.app.inject({ method: 'GET', url: `/api/events/${e.id}/` })).json());
  const registrationOf = async (cpf: string) =>
    (await t.app.db.select().from(registrations).where(eq(registrations.cpf, cpf)))[0];

  describe('kit sizes', () => {
    it('shows sizes and pickup on the event page; the last shirt of a size goes once, then "esgotado"', async () => {
      const event = await newEvent({
        kitSizes: [
          { size: 'P', left: 1 },
          { size: 'M', left: 5 },
        ],
      });
      const page = await eventPage(event);
      expect(page.kit).toEqual({
        tamanhos: [
          { id: size(event, 'P'), tamanho: 'P', quantidade_disponivel: 1 },
          { id: size(event, 'M'), tamanho: 'M', quantidade_disponivel: 5 },
        ],
        local_retirada: 'Ginásio de Teste',
        horarios_retirada: '04/12 (sex), 10h às 20h',
      });

      const noSize = await pixFor(
        participant(event, [cat(event)], { cpf: cpfFrom(810000001), tamanho_camisa: undefined }),
        89.9,
      );
      expect(noSize.statusCode).toBe(400);
      expect(noSize.json()).toMatchObject({
        code: 'tamanho_invalido',
        errors: { tamanho_camisa: 'Escolha o tamanho da camisa.' },
      });

      const first = await pixFor(
        participant(event, [cat(event)], { cpf: cpfFrom(810000002), tamanho_camisa: size(event, 'P') }),
        89.9,
      );
      expect(first.statusCode).toBe(201);
      expect(await sizesLeft(event)).toEqual({ P: 0, M: 5 });
      expect((await eventPage(event)).kit.tamanhos[0]?.quantidade_disponivel).toBe(0);

      const other = await createUserAndToken(t.app);
      const second = await pixFor(
        participant(event, [cat(event)], { cpf: cpfFrom(810000003), tamanho_camisa: size(event, 'P') }),
        89.9,
        other.headers,
      );
      expect(second.statusCode).toBe(409);
      expect(second.json()).toMatchObject({
        code: 'tamanho_esgotado',
        detail: 'Este tamanho de camisa esgotou. Escolha outro.',
      });

      // The first charge expires: its shirt (and its place) come back, once.
      t.clock = new Date(START.getTime() + 31 * 60_000);
      await t.app.payments.expireDue();
      await t.app.payments.expireDue();
      expect(await sizesLeft(event)).toEqual({ P: 1, M: 5 });
    });

    it('refuses a size of another event and a size for an event without shirts', async () => {
      const event = await newEvent({ kitSizes: [{ size: 'G', left: 3 }] });
      const plain = await newEvent();
      const foreign = await pixFor(
        participant(event, [cat(event)], { cpf: cpfFrom(820000001), tamanho_camisa: size(event, 'G') + 999 }),
        89.9,
      );
      expect(foreign.statusCode).toBe(400);
      const extra = await pixFor(
        participant(plain, [cat(plain)], { cpf: cpfFrom(820000002), tamanho_camisa: size(event, 'G') }),
        89.9,
      );
      expect(extra.statusCode).toBe(400);
      expect(extra.json().code).toBe('tamanho_invalido');
      expect(await sizesLeft(event)).toEqual({ G: 3 });
    });

    it('gives the shirt back when the card is refused; paid, the size is on the registration, lookup and e-mail', async () => {
      const event = await newEvent({ name: 'Corrida das Camisas', kitSizes: [{ size: 'GG', left: 2 }] });
      const cpf = cpfFrom(830000001);
      const draft = participant(event, [cat(event)], { cpf, email: 'camisa@example.com' });
      const pay = async (number: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/pagar-cartao/',
          headers: { ...user.headers, 'idempotency-key': `kit-${number}` },
          payload: {
            birth: '1985-07-30',
            payment_token: await cardToken(t.app, {
              number,
              holderName: 'Titular da Conta',
              holderDocument: OTHER_CPF,
            }),
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
      expect((await pay('4000000000000002')).statusCode).toBe(400);
      expect(await sizesLeft(event)).toEqual({ GG: 2 });

      const pix = await pixFor(draft, 89.9);
      expect(pix.statusCode).toBe(201);
      expect((await simulatePixPaid(t.app, pix.json().txid)).statusCode).toBeLessThan(300);
      expect(await sizesLeft(event)).toEqual({ GG: 1 });
      expect(await registrationOf(cpf)).toMatchObject({ kitSize: 'GG' });
      const found = await t.app.inject({
        method: 'GET',
        url: `/api/participantes/cpf/${cpf}/?evento=${event.id}`,
        headers: user.headers,
      });
      expect(found.json()).toMatchObject({
        tamanho_camisa: 'GG',
        kit_local_retirada: 'Ginásio de Teste',
        kit_horarios_retirada: '04/12 (sex), 10h às 20h',
      });
      // readOutbox decodes each part of the multipart e-mail.
      const text = await vi.waitFor(
        () => {
          const mail = readOutbox(t.dataDir).find((m) => m.includes('Corrida das Camisas'));
          if (!mail) throw new Error('e-mail da inscrição ainda não enviado');
          return mail;
        },
        { timeout: 45_000, interval: 50 },
      );
      expect(text).toContain('Camisa: GG');
      expect(text).toContain('Retirada do kit: Ginásio de Teste');
      expect(text).toContain('04/12 (sex), 10h às 20h');
    });
  });

  describe('price lots', () => {
    const lots = [
      { name: '1º lote', priceCents: 8000, untilDate: TODAY, untilCount: 2 },
      { name: '2º lote', priceCents: 10000, untilDate: '2026-11-30' },
    ];

    it('prices by the lot of the day until 23:59 in Fortaleza, then by the next one', async () => {
      const event = await newEvent({ days: [[{ name: '10 km', priceCents: 12000, lots }]] });
      const category = (await eventPage(event)).dias_evento[0]?.categorias[0];
      expect(category).toMatchObject({
        preco_inscricao: 80,
        lote_atual: { nome: '1º lote', descricao: '1º lote até 22/11 ou 2 inscrições', preco: 80 },
        proximo_preco: { nome: '2º lote', preco: 100 },
      });

      // 23:59 in Fortaleza on the lot's last day.
      t.clock = new Date('2026-11-23T02:59:00Z');
      const quote = await t.app.inject({
        method: 'GET',
        url: `/api/events/${event.id}/preco/?categorias=${cat(event)}`,
      });
      expect(quote.json()).toMatchObject({ total: 80, itens: [{ lote: '1º lote' }] });
      const last = await pixFor(participant(event, [cat(event)], { cpf: cpfFrom(840000001) }), 80);
      expect(last.statusCode).toBe(201);

      // A minute later the 2nd lot is in force: the old price is refused with the right one.
      t.clock = new Date('2026-11-23T03:00:00Z');
      const late = participant(event, [cat(event)], { cpf: cpfFrom(840000002) });
      const stale = await pixFor(late, 80);
      expect(stale.statusCode).toBe(409);
      expect(stale.json()).toMatchObject({ code: 'total_divergente', total_correto: 100 });
      expect((await pixFor(late, 100)).statusCode).toBe(201);

      // After the last lot, the category's own price; nothing comes after it.
      t.clock = new Date('2026-12-01T12:00:00Z');
      expect((await eventPage(event)).dias_evento[0]?.categorias[0]).toMatchObject({
        preco_inscricao: 120,
        lote_atual: null,
        proximo_preco: null,
      });
    });

    it('ends a lot when its count of places is sold (held places count), and reopens it when one is given back', async () => {
      const event = await newEvent({ days: [[{ name: '5 km', priceCents: 12000, lots }]] });
      const other = await createUserAndToken(t.app);
      expect(
        (await pixFor(participant(event, [cat(event)], { cpf: cpfFrom(850000001) }), 80)).statusCode,
      ).toBe(201);
      // The second place is the lot's last one.
      expect(
        (await pixFor(participant(event, [cat(event)], { cpf: cpfFrom(850000002) }), 80, other.headers))
          .statusCode,
      ).toBe(201);
      // A third account: an account's new charge would replace its own open one and free its place.
      const third = participant(event, [cat(event)], { cpf: cpfFrom(850000003) });
      const thirdAccount = await createUserAndToken(t.app);
      const refused = await pixFor(third, 80, thirdAccount.headers);
      expect(refused.json()).toMatchObject({ code: 'total_divergente', total_correto: 100 });
      expect((await eventPage(event)).dias_evento[0]?.categorias[0]?.lote_atual?.nome).toBe('2º lote');

      // Both charges expire: the places come back and the 1st lot is in force again (same day).
      t.clock = new Date(START.getTime() + 31 * 60_000);
      await t.app.payments.expireDue();
      const again = await pixFor(third, 80, thirdAccount.headers);
      expect(again.statusCode).toBe(201);
      const [row] = await t.app.db.select().from(charges).where(eq(charges.txid, again.json().txid));
      expect(row?.draft).toMatchObject({ items: [{ priceCents: 8000, lotName: '1º lote' }] });
    });

    it('halves the lot price for 60+ and records that half price was applied', async () => {
      const event = await newEvent({
        startDate: '2026-12-20',
        days: [[{ name: '5 km', priceCents: 12000, lots }]],
      });
      const cpf = cpfFrom(860000001);
      const draft = participant(event, [cat(event)], { cpf, data_nascimento: '1966-12-20' });
      const pix = await pixFor(draft, 40);
      expect(pix.statusCode).toBe(201);
      await simulatePixPaid(t.app, pix.json().txid);
      expect(await registrationOf(cpf)).toMatchObject({ seniorDiscount: true, totalCents: 4000 });
      const [staffRow] = await t.app.registrationsAdmin.participants(event.id);
      expect(staffRow).toMatchObject({ seniorDiscount: true, ageGroup: '60 a 64 anos' });
    });
  });

  describe('participant data', () => {
    it('requires the emergency contact and the acceptance of the current termo; stores team, version and time', async () => {
      const event = await newEvent({ offersPcd: true });
      const cpf = cpfFrom(870000001);
      const missing = await pixFor(
        participant(event, [cat(event)], {
          cpf,
          contato_emergencia_nome: '',
          contato_emergencia_telefone: '123',
          aceite_termo: false,
        }),
        89.9,
      );
      expect(missing.statusCode).toBe(400);
      expect(missing.json().errors).toMatchObject({
        contato_emergencia_nome: 'Informe o nome do contato de emergência.',
        aceite_termo: 'Aceite o termo de responsabilidade para continuar.',
      });
      expect(missing.json().errors.contato_emergencia_telefone).toBeTruthy();

      const outdated = await pixFor(participant(event, [cat(event)], { cpf, termo_versao: 'antiga' }), 89.9);
      expect(outdated.statusCode).toBe(409);
      expect(outdated.json().code).toBe('termo_atualizado');

      const ok = participant(event, [cat(event)], {
        cpf,
        equipe: 'Assessoria Beira-Mar',
        pcd: true,
        pcd_consentimento: true,
      });
      const pix = await pixFor(ok, 89.9);
      expect(pix.statusCode).toBe(201);
      await simulatePixPaid(t.app, pix.json().txid);
      const row = await registrationOf(cpf);
      expect(row).toMatchObject({
        team: 'Assessoria Beira-Mar',
        pcd: true,
        emergencyName: 'João da Silva',
        emergencyPhone: '85988887777',
        termsVersion: (await eventPage(event)).termo_versao,
        termsAcceptedAt: START,
        seniorDiscount: false,
      });
      const found = await t.app.inject({
        method: 'GET',
        url: `/api/participantes/cpf/${cpf}/?evento=${event.id}`,
        headers: user.headers,
      });
      expect(found.json()).toMatchObject({
        equipe: 'Assessoria Beira-Mar',
        pcd: true,
        faixa_etaria: '35 a 39 anos',
      });
    });

    it('refuses PCD where the event does not offer it', async () => {
      const event = await newEvent();
      const res = await pixFor(
        participant(event, [cat(event)], { cpf: cpfFrom(880000001), pcd: true, pcd_consentimento: true }),
        89.9,
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('pcd_indisponivel');
    });
  });
});
