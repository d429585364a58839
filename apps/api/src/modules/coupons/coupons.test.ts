import { randomUUID } from 'node:crypto';
import type { CouponInput } from '@passada/core/contracts/coupons';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog, charges, couponUses } from '../../db/schema/index.ts';
import { createUserAndToken, type TestUser, waitForMailContaining } from '../../test/factories/accounts.ts';
import { makeProduct } from '../../test/factories/catalog.ts';
import { couponInput, createCoupon, previewCoupon } from '../../test/factories/coupons.ts';
import { type MadeEvent, makeEvent } from '../../test/factories/events.ts';
import {
  type Buyer,
  createOrderPix,
  draftTotalCents,
  makeBuyer,
  orderDraft,
  postOrder,
} from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { cardToken, chargeByTxid, simulatePixPaid } from '../../test/factories/payments.ts';
import { cpfFrom, participant, registrationPix } from '../../test/factories/registrations.ts';
import { createTestApp, type TestApp, useClockedTestApp } from '../../test/test-app.ts';

// 09:00 in Fortaleza (UTC−3) on 23 November 2026.
const START = new Date('2026-11-23T12:00:00Z');
const TODAY = '2026-11-23';

describe('coupons', () => {
  const t = useClockedTestApp(START, {
    env: { PIX_EXPIRATION_SECONDS: '1800', COUPONS_RATE_LIMIT_PER_IP: '1000' },
  });
  let admin: TestStaff;
  let buyer: Buyer;

  beforeAll(async () => {
    admin = await createStaffAndLogin(t.app, 'admin');
    buyer = await makeBuyer(t.app);
  });

  const coupon = (overrides: Partial<CouponInput> = {}) => createCoupon(t.app, admin.headers, overrides);
  const usesOf = (couponId: number) =>
    t.app.db.select().from(couponUses).where(eq(couponUses.couponId, couponId));
  const countCharges = async () => (await t.app.db.select({ id: charges.id }).from(charges)).length;
  const painelCoupon = async (id: number) =>
    (await t.app.inject({ method: 'GET', url: `/api/painel/cupons/${id}/`, headers: admin.headers })).json();

  /** A shop cart of one product and its total before any coupon. */
  async function cart(who: Buyer, priceCents = 10000, category: 'feminino' | 'acessorios' = 'feminino') {
    const product = await makeProduct(t.app.db, { priceCents, category });
    const draft = orderDraft(who, [{ product }]);
    const totalCents = await draftTotalCents(t.app, who.zipCode, draft, [product]);
    return { product, draft, totalCents, shippingCents: totalCents - priceCents };
  }

  /** A Pix for the cart with a 10% coupon (of a R$ 100,00 product): the discounted total claimed. */
  const payWithTenPercent = (who: Buyer, c: Awaited<ReturnType<typeof cart>>, code: string) =>
    createOrderPix(t.app, who.headers, { ...c.draft, cupom: code }, c.totalCents - 1000);

  describe('in the shop', () => {
    it('is priced on the server for eligible products only, shown before paying, kept on the order and its e-mail', async () => {
      const code = couponInput().codigo;
      const made = await coupon({ codigo: code, valor: 10, categorias_produto: ['feminino'] });
      const shirt = await makeProduct(t.app.db, { priceCents: 10000, category: 'feminino' });
      const cap = await makeProduct(t.app.db, { priceCents: 5000, category: 'acessorios' });
      const draft = orderDraft(buyer, [{ product: shirt }, { product: cap }]);
      const fullCents = await draftTotalCents(t.app, buyer.zipCode, draft, [shirt, cap]);
      // 10% of the shirt only: the cap's category and the shipping are not covered.
      const expectedCents = fullCents - 1000;

      // Typed in lower case: codes are compared without case.
      const preview = await previewCoupon(t.app, buyer.headers, {
        cupom: code.toLowerCase(),
        finalidade: 'pedido',
        pedido: draft,
      });
      expect(preview.statusCode).toBe(200);
      expect(preview.json()).toEqual({
        cupom: code,
        desconto: 10,
        total_sem_desconto: fullCents / 100,
        total: expectedCents / 100,
        descricao: '10% nos produtos',
      });
      // The preview holds nothing.
      expect(await usesOf(made.id)).toEqual([]);

      // The browser's total without the discount is refused with the server's; what is charged is the server's.
      const withCoupon = { ...draft, cupom: code.toLowerCase() };
      const wrong = await createOrderPix(t.app, buyer.headers, withCoupon, fullCents);
      expect(wrong.statusCode).toBe(409);
      expect(wrong.json()).toMatchObject({ code: 'total_divergente', total_correto: expectedCents / 100 });
      // A discount the browser makes up itself is not a coupon.
      const madeUp = await createOrderPix(
        t.app,
        buyer.headers,
        { ...draft, desconto: 50 } as never,
        fullCents - 5000,
      );
      expect(madeUp.statusCode).toBe(409);
      expect(madeUp.json().total_correto).toBe(fullCents / 100);

      const created = await createOrderPix(t.app, buyer.headers, withCoupon, expectedCents);
      expect(created.statusCode).toBe(201);
      const { txid, valor } = created.json();
      expect(valor).toBe(expectedCents / 100);
      expect((await usesOf(made.id)).map((u) => [u.status, u.discountCents])).toEqual([['reservado', 1000]]);
      expect(await painelCoupon(made.id)).toMatchObject({ usos_reservados: 1, usos_confirmados: 0 });

      expect((await simulatePixPaid(t.app, txid)).json()).toMatchObject({ status: 'CONCLUIDA' });
      expect((await usesOf(made.id)).map((u) => u.status)).toEqual(['confirmado']);
      const order = (await postOrder(t.app, buyer.headers, txid)).json();
      expect(order).toMatchObject({
        subtotal: 150,
        cupom: code,
        desconto: 10,
        total: expectedCents / 100,
        preco_juros: expectedCents / 100,
        juros: 0,
      });
      const history = (
        await t.app.inject({ method: 'GET', url: '/api/orders/', headers: buyer.headers })
      ).json();
      expect(history.find((o: { id: number }) => o.id === order.id)).toMatchObject({
        cupom: code,
        desconto: 10,
      });
      const mail = await waitForMailContaining(t.dataDir, `pedido nº ${order.id}`);
      expect(mail).toContain(`Desconto (cupom ${code}): −R$\u00a010,00`);
      expect(mail).toContain(
        `Total pago: R$\u00a0${(expectedCents / 100).toFixed(2).replace('.', ',')} (Pix)`,
      );
      expect(await painelCoupon(made.id)).toMatchObject({
        usos_reservados: 0,
        usos_confirmados: 1,
        desconto_total: 10,
      });
    });

    it('by card in 4 instalments: the interest is charged on the discounted price', async () => {
      const made = await coupon({ valor: 10 });
      const c = await cart(buyer);
      const base = c.totalCents - 1000;
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/pagar-cartao/',
        headers: { ...buyer.headers, 'idempotency-key': randomUUID() },
        payload: {
          birth: '1988-03-09',
          payment_token: await cardToken(t.app, {
            number: '4111111111111111',
            holderName: 'Maria Silva',
            holderDocument: '40364478829',
          }),
          name: 'Maria Silva',
          cpf: '40364478829',
          email: buyer.email,
          total: base / 100,
          installments: 4,
          finalidade: 'pedido',
          pedido: { ...c.draft, metodo_pagamento: 'cartao', cupom: made.codigo },
        },
      });
      expect(res.statusCode).toBe(200);
      const data = res.json().detalhes.data;
      expect(data.total).toBeGreaterThan(base);
      const order = (await postOrder(t.app, buyer.headers, res.json().txid)).json();
      expect(order).toMatchObject({
        cupom: made.codigo,
        desconto: 10,
        parcelas: 4,
        juros: (data.total - base) / 100,
        total: data.total / 100,
      });
      expect((await usesOf(made.id)).map((u) => u.status)).toEqual(['confirmado']);
    });

    it('refuses every bad coupon with its message, in the preview and when the charge is created, holding nothing', async () => {
      const other = await makeBuyer(t.app);
      const usedUp = await coupon({ usos_max: 1 });
      const oncePerAccount = await coupon({ usos_por_conta: 1 });
      // The one use of each is held by an open charge: held uses count against the limits.
      const theirs = await cart(other);
      const held = await payWithTenPercent(other, theirs, usedUp.codigo);
      expect(held.statusCode).toBe(201);
      const mine = await cart(buyer);
      const paidOnce = await payWithTenPercent(buyer, mine, oncePerAccount.codigo);
      expect(paidOnce.statusCode).toBe(201);
      expect((await simulatePixPaid(t.app, paidOnce.json().txid)).json().status).toBe('CONCLUIDA');

      const cases: Array<[string, string, number, string, string]> = [
        ['unknown', 'NAOEXISTE', 400, 'cupom_invalido', 'Cupom inválido.'],
        ['inactive', (await coupon({ ativo: false })).codigo, 400, 'cupom_invalido', 'Cupom inválido.'],
        [
          'expired',
          (await coupon({ valido_ate: '2026-11-22' })).codigo,
          400,
          'cupom_expirado',
          'Cupom expirado.',
        ],
        [
          'not yet valid',
          (await coupon({ valido_de: '2026-11-24' })).codigo,
          400,
          'cupom_nao_iniciado',
          'Cupom ainda não está valendo.',
        ],
        [
          'for races',
          (await coupon({ escopo: 'corridas', tipo: 'fixo', valor: 20 })).codigo,
          400,
          'cupom_nao_aplicavel',
          'Cupom vale apenas para inscrições em corridas.',
        ],
        [
          'other product categories',
          (await coupon({ categorias_produto: ['acessorios', 'masculino'] })).codigo,
          400,
          'cupom_nao_aplicavel',
          'Cupom não vale para estes produtos.',
        ],
        [
          'minimum not reached',
          (await coupon({ valor_minimo: 500 })).codigo,
          400,
          'cupom_valor_minimo',
          'Cupom válido para compras a partir de R$\u00a0500,00.',
        ],
        ['used up', usedUp.codigo, 409, 'cupom_esgotado', 'Cupom esgotado.'],
        ['used by this account', oncePerAccount.codigo, 409, 'cupom_ja_usado', 'Você já usou este cupom.'],
      ];
      const { draft, totalCents } = await cart(buyer);
      const chargesBefore = await countCharges();
      for (const [why, code, status, errorCode, message] of cases) {
        const preview = await previewCoupon(t.app, buyer.headers, {
          cupom: code,
          finalidade: 'pedido',
          pedido: draft,
        });
        expect([why, preview.statusCode, preview.json()]).toEqual([
          why,
          status,
          { detail: message, code: errorCode, errors: { cupom: message } },
        ]);
        // Paying with it: the same answer, whatever total the browser claims.
        const pix = await createOrderPix(t.app, buyer.headers, { ...draft, cupom: code }, totalCents);
        expect([why, pix.statusCode, pix.json()]).toEqual([
          why,
          status,
          { detail: message, code: errorCode, errors: { cupom: message } },
        ]);
      }
      expect(await countCharges()).toBe(chargesBefore);
      // Not signed in: no preview at all.
      const anonymous = await previewCoupon(
        t.app,
        {},
        { cupom: 'NAOEXISTE', finalidade: 'pedido', pedido: draft },
      );
      expect(anonymous.statusCode).toBe(401);
    });

    it('counts validity days in Fortaleza: the last day lasts until 23:59 there', async () => {
      const made = await coupon({ valido_de: TODAY, valido_ate: TODAY });
      const { draft } = await cart(buyer);
      const ask = () =>
        previewCoupon(t.app, buyer.headers, { cupom: made.codigo, finalidade: 'pedido', pedido: draft });
      t.clock = new Date('2026-11-23T03:00:00Z'); // 00:00 in Fortaleza
      expect((await ask()).statusCode).toBe(200);
      t.clock = new Date('2026-11-24T02:59:00Z'); // 23:59 in Fortaleza, already the 24th in UTC
      expect((await ask()).statusCode).toBe(200);
      t.clock = new Date('2026-11-24T03:00:00Z');
      expect((await ask()).json().detail).toBe('Cupom expirado.');
      t.clock = new Date('2026-11-23T02:59:00Z');
      expect((await ask()).json().detail).toBe('Cupom ainda não está valendo.');
    });

    it('takes a whole charge (nothing to pay) or leaves at least R$ 1,00', async () => {
      const made = await coupon({ tipo: 'percentual', valor: 100 });
      const { draft, totalCents, shippingCents } = await cart(buyer, 5000);
      expect(shippingCents).toBeGreaterThan(100);
      const preview = (
        await previewCoupon(t.app, buyer.headers, { cupom: made.codigo, finalidade: 'pedido', pedido: draft })
      ).json();
      // 100% of the products; shipping is still paid.
      expect(preview).toMatchObject({ desconto: 50, total: (totalCents - 5000) / 100 });

      const fixed = await coupon({ tipo: 'fixo', valor: 1000, escopo: 'corridas' });
      const event = await makeEvent(t.app.db, { today: TODAY, days: [[{ name: '3 km', priceCents: 4000 }]] });
      const race = (
        await previewCoupon(t.app, buyer.headers, {
          cupom: fixed.codigo,
          finalidade: 'inscricao',
          inscricao: { evento: event.id, categoria_evento: [event.days[0]!.categories[0]!.id] },
        })
      ).json();
      // It covers the whole registration: nothing to pay, the free path (docs/decisions/0028).
      expect(race).toMatchObject({ desconto: 40, total: 0 });
      const almost = await coupon({ tipo: 'percentual', valor: 99, escopo: 'corridas' });
      const raceAlmost = (
        await previewCoupon(t.app, buyer.headers, {
          cupom: almost.codigo,
          finalidade: 'inscricao',
          inscricao: { evento: event.id, categoria_evento: [event.days[0]!.categories[0]!.id] },
        })
      ).json();
      expect(raceAlmost).toMatchObject({ desconto: 39, total: 1 });
    });

    it('gives the use back when the Pix expires unpaid, so the next buyer can take it', async () => {
      const made = await coupon({ usos_max: 1 });
      const first = await makeBuyer(t.app);
      const second = await makeBuyer(t.app);
      const a = await cart(first);
      const b = await cart(second);
      const pix = await payWithTenPercent(first, a, made.codigo);
      expect(pix.statusCode).toBe(201);
      const refused = await payWithTenPercent(second, b, made.codigo);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().detail).toBe('Cupom esgotado.');

      t.clock = new Date(START.getTime() + 31 * 60_000);
      const status = await t.app.inject({
        method: 'GET',
        url: `/api/status-pix/${pix.json().txid}/`,
        headers: first.headers,
      });
      expect(status.json().status).toBe('EXPIRADA');
      expect((await usesOf(made.id)).map((u) => [u.status, u.releasedAt])).toEqual([['liberado', t.clock]]);

      const taken = await payWithTenPercent(second, b, made.codigo);
      expect(taken.statusCode).toBe(201);
      expect((await usesOf(made.id)).filter((u) => u.status === 'reservado').map((u) => u.chargeId)).toEqual([
        (await chargeByTxid(t.app, taken.json().txid))!.id,
      ]);
    });
  });

  describe('on races', () => {
    let account: TestUser;
    let event: MadeEvent;
    const cat = (e: MadeEvent, i = 0) => e.days[0]!.categories[i]!.id;

    beforeAll(async () => {
      account = await createUserAndToken(t.app);
      event = await makeEvent(t.app.db, { today: TODAY, name: 'Corrida do Cupom' });
    });

    it('takes a fixed amount off the registration, once per participant CPF whichever account pays', async () => {
      const made = await coupon({
        escopo: 'corridas',
        tipo: 'fixo',
        valor: 20,
        usos_por_cpf: 1,
        eventos: [event.id],
      });
      const cpf = cpfFrom(710000001);
      const preview = await previewCoupon(t.app, account.headers, {
        cupom: made.codigo.toLowerCase(),
        finalidade: 'inscricao',
        inscricao: { evento: event.id, categoria_evento: [cat(event)], cpf },
      });
      expect(preview.json()).toEqual({
        cupom: made.codigo,
        desconto: 20,
        total_sem_desconto: 89.9,
        total: 69.9,
        descricao: 'R$\u00a020,00 na inscrição',
      });

      const draft = participant(event, [cat(event)], { cpf, cupom: made.codigo });
      expect((await registrationPix(t.app, draft, 89.9, account.headers)).json().total_correto).toBe(69.9);
      const pix = await registrationPix(t.app, draft, 69.9, account.headers);
      expect(pix.statusCode).toBe(201);
      const { txid } = pix.json();
      expect((await simulatePixPaid(t.app, txid)).json().status).toBe('CONCLUIDA');
      const registration = await t.app.inject({
        method: 'POST',
        url: '/api/participantes/cadastrar/',
        headers: account.headers,
        payload: { txid, ...draft },
      });
      expect(registration.json()).toMatchObject({ total: 69.9, cupom: made.codigo, desconto: 20 });
      const mail = await waitForMailContaining(t.dataDir, `Inscrição nº ${registration.json().id}`);
      expect(mail).toContain(`Desconto (cupom ${made.codigo}): −R$\u00a020,00`);
      expect(mail).toContain('Valor: R$\u00a069,90');
      // The participant's lookup by CPF shows what was paid and the coupon.
      const lookup = await t.app.inject({
        method: 'GET',
        url: `/api/participantes/cpf/${cpf}/?evento=${event.id}`,
        headers: account.headers,
      });
      expect(lookup.json()).toMatchObject({ total: 69.9, cupom: made.codigo, desconto: 20 });

      // The same person, registered by someone else in the other category: the CPF already used it.
      const stranger = await createUserAndToken(t.app);
      const again = participant(event, [cat(event, 1)], { cpf, cupom: made.codigo });
      for (const res of [
        await previewCoupon(t.app, stranger.headers, {
          cupom: made.codigo,
          finalidade: 'inscricao',
          inscricao: { evento: event.id, categoria_evento: [cat(event, 1)], cpf },
        }),
        await registrationPix(t.app, again, 89.9, stranger.headers),
      ]) {
        expect(res.statusCode).toBe(409);
        expect(res.json()).toMatchObject({ code: 'cupom_ja_usado', detail: 'Você já usou este cupom.' });
      }
      // Another participant from that account still can.
      const friend = participant(event, [cat(event, 1)], { cpf: cpfFrom(710000002), cupom: made.codigo });
      expect((await registrationPix(t.app, friend, 89.9, stranger.headers)).statusCode).toBe(201);
    });

    it('refuses a coupon of another event or category, and a shop coupon', async () => {
      const otherEvent = await makeEvent(t.app.db, { today: TODAY });
      const forOther = await coupon({ escopo: 'corridas', eventos: [otherEvent.id] });
      const forTenK = await coupon({
        escopo: 'corridas',
        eventos: [event.id],
        categorias_evento: [cat(event, 1)],
      });
      const shop = await coupon({ escopo: 'loja' });
      const cases: Array<[string, string]> = [
        [forOther.codigo, 'Cupom não vale para este evento.'],
        [forTenK.codigo, 'Cupom não vale para esta categoria.'],
        [shop.codigo, 'Cupom vale apenas para compras na loja.'],
      ];
      const cpf = cpfFrom(710000010);
      for (const [code, message] of cases) {
        const preview = await previewCoupon(t.app, account.headers, {
          cupom: code,
          finalidade: 'inscricao',
          inscricao: { evento: event.id, categoria_evento: [cat(event)] },
        });
        expect([preview.statusCode, preview.json().detail]).toEqual([400, message]);
        const pix = await registrationPix(
          t.app,
          participant(event, [cat(event)], { cpf, cupom: code }),
          89.9,
          account.headers,
        );
        expect([pix.statusCode, pix.json()]).toEqual([
          400,
          { detail: message, code: 'cupom_nao_aplicavel', errors: { cupom: message } },
        ]);
      }
      // The 10 km coupon does apply to the 10 km.
      const tenK = await previewCoupon(t.app, account.headers, {
        cupom: forTenK.codigo,
        finalidade: 'inscricao',
        inscricao: { evento: event.id, categoria_evento: [cat(event, 1)] },
      });
      expect(tenK.json()).toMatchObject({ desconto: 10.99, total: 98.91 });
    });

    it('does not add up with the 60+ half price: the better of the two applies', async () => {
      const senior = { data_nascimento: '1950-03-01' };
      const small = await coupon({ escopo: 'corridas', tipo: 'fixo', valor: 20 });
      const big = await coupon({ escopo: 'corridas', tipo: 'percentual', valor: 60 });
      const ask = (code: string) =>
        previewCoupon(t.app, account.headers, {
          cupom: code,
          finalidade: 'inscricao',
          inscricao: { evento: event.id, categoria_evento: [cat(event)], ...senior },
        });
      // Half of R$ 89,90 (R$ 44,95) beats R$ 89,90 − R$ 20,00.
      const refused = await ask(small.codigo);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({
        code: 'cupom_nao_acumula',
        detail: 'Cupom não se soma à meia-entrada (60+), que já dá um desconto maior.',
      });
      // 60% off the full price (R$ 35,96) beats the half price: the coupon applies instead of it.
      expect((await ask(big.codigo)).json()).toMatchObject({
        total_sem_desconto: 89.9,
        desconto: 53.94,
        total: 35.96,
      });
      const draft = participant(event, [cat(event)], {
        ...senior,
        cpf: cpfFrom(710000020),
        cupom: big.codigo,
      });
      const pix = await registrationPix(t.app, draft, 35.96, account.headers);
      expect(pix.statusCode).toBe(201);
      const stored = (await chargeByTxid(t.app, pix.json().txid))!.draft as Record<string, unknown>;
      expect(stored).toMatchObject({ senior: false, totalCents: 3596, items: [{ priceCents: 8990 }] });
    });
  });

  describe('in the back office', () => {
    const postCoupon = (payload: CouponInput, who: TestStaff = admin) =>
      t.app.inject({ method: 'POST', url: '/api/painel/cupons/', headers: who.headers, payload });

    it('admins create, list, edit and deactivate coupons, each write audited', async () => {
      const create = await postCoupon(
        couponInput({ codigo: 'verao-25', tipo: 'fixo', valor: 25.5, usos_max: 100 }),
        admin,
      );
      expect(create.statusCode).toBe(201);
      const made = create.json();
      expect(made).toMatchObject({
        codigo: 'VERAO-25',
        tipo: 'fixo',
        valor: 25.5,
        usos_max: 100,
        ativo: true,
        usos_confirmados: 0,
        usos_reservados: 0,
      });
      // The code is unique without case.
      const twice = await postCoupon(couponInput({ codigo: 'Verao-25' }));
      expect(twice.statusCode).toBe(409);
      expect(twice.json().errors).toEqual({ codigo: 'Já existe um cupom com este código.' });

      const invalid = await postCoupon(couponInput({ valor: 150 }));
      expect(invalid.statusCode).toBe(400);
      expect(invalid.json().errors).toMatchObject({ valor: 'Use um percentual inteiro de 1 a 100.' });
      const unknownEvent = await postCoupon(couponInput({ escopo: 'corridas', eventos: [999999] }));
      expect(unknownEvent.statusCode).toBe(400);

      const off = await t.app.inject({
        method: 'PUT',
        url: `/api/painel/cupons/${made.id}/`,
        headers: admin.headers,
        payload: couponInput({ codigo: 'VERAO-25', tipo: 'fixo', valor: 25.5, usos_max: 100, ativo: false }),
      });
      expect(off.statusCode).toBe(200);
      expect(off.json().ativo).toBe(false);
      const list = await t.app.inject({ method: 'GET', url: '/api/painel/cupons/', headers: admin.headers });
      expect(list.json().find((c: { id: number }) => c.id === made.id)).toMatchObject({ ativo: false });

      const lines = await t.app.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.entity, 'cupom'), eq(auditLog.entityId, String(made.id))));
      expect(lines.map((l) => [l.action, l.staffEmail])).toEqual([
        ['criado', admin.email],
        ['desativado', admin.email],
      ]);
      expect(
        await t.app.inject({ method: 'GET', url: '/api/painel/cupons/999999/', headers: admin.headers }),
      ).toMatchObject({
        statusCode: 404,
      });
    });

    it('is for admins only', async () => {
      const operador = await createStaffAndLogin(t.app, 'operador');
      const asOperator = await t.app.inject({
        method: 'GET',
        url: '/api/painel/cupons/',
        headers: operador.headers,
      });
      expect(asOperator.statusCode).toBe(403);
      const write = await postCoupon(couponInput(), operador);
      expect(write.statusCode).toBe(403);
      const asCustomer = await t.app.inject({
        method: 'GET',
        url: '/api/painel/cupons/',
        headers: buyer.headers,
      });
      expect(asCustomer.statusCode).toBe(401);
    });
  });
});

describe('coupon preview rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { COUPONS_RATE_LIMIT_PER_ACCOUNT: '3', COUPONS_RATE_LIMIT_PER_IP: '5' } });
    return () => t.close();
  });

  it('answers 429 once an account or an address tried too many codes', async () => {
    const one = await makeBuyer(t.app);
    const two = await makeBuyer(t.app);
    const guess = (who: Buyer, code: string) =>
      previewCoupon(t.app, who.headers, { cupom: code, finalidade: 'pedido', pedido: {} });
    for (const code of ['A1', 'A2', 'A3']) expect((await guess(one, code)).statusCode).toBe(400);
    const limited = await guess(one, 'A4');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().detail).toBe('Muitas tentativas. Aguarde alguns minutos e tente novamente.');
    // Another account from the same address: the address has two tries left, then 429 too.
    expect((await guess(two, 'B1')).statusCode).toBe(400);
    expect((await guess(two, 'B2')).statusCode).toBe(429);
  });
});
