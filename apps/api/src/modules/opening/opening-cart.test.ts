import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MadeEvent, makeEvent } from '../../test/factories/events.ts';
import { createStaffAndLogin } from '../../test/factories/painel.ts';
import { makeUser } from '../../test/factories/payments.ts';
import { cpfFrom, participant, registrationPix } from '../../test/factories/registrations.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

const MINUTE = 60_000;
const T0 = new Date(Math.floor(Date.now() / MINUTE) * MINUTE + 30 * MINUTE);
let clock = new Date(T0.getTime() - 5 * MINUTE);

/**
 * "Inscrições por comprador" counts a cart's runners of the event together with what the buyer already
 * holds or is paying for (one cart bought three registrations under a limit of one).
 */
describe('the per-buyer limit of a waiting room over a cart', () => {
  let t: TestApp;
  let seq = 736_200_000;

  beforeAll(async () => {
    t = await createTestApp({ now: () => clock, env: { JOBS_ENABLED: 'false' } });
  });
  afterAll(() => t.close());

  /** An event whose waiting room admits everyone at once, with `perBuyer` registrations per account. */
  async function admitted(name: string, perBuyer: number) {
    clock = new Date(T0.getTime() - 5 * MINUTE);
    const event = await makeEvent(t.app.db, {
      name,
      days: [[{ name: '10 km', priceCents: 5000, placesLeft: 20 }]],
    });
    const staff = await createStaffAndLogin(t.app, 'gerente');
    const saved = await t.app.inject({
      method: 'PUT',
      url: `/api/painel/events/${event.id}/abertura/`,
      headers: staff.headers,
      payload: {
        modo: 'fila',
        abre_em: T0.toISOString(),
        pre_fila_minutos: 30,
        admitidos_por_minuto: 100,
        minutos_da_vez: 30,
        inscricoes_por_cpf: 1,
        inscricoes_por_comprador: perBuyer,
      },
    });
    expect(saved.statusCode).toBe(200);
    await t.app.opening.refresh();
    const buyer = await makeUser(t.app);
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/events/${event.id}/fila/`, headers: buyer.headers }))
        .statusCode,
    ).toBe(200);
    clock = new Date(T0.getTime() + MINUTE);
    await t.app.opening.refresh();
    return { event, buyer };
  }
  const runner = (event: MadeEvent) =>
    participant(event, [event.days[0]!.categories[0]!.id], {
      cpf: cpfFrom(seq++),
      email: `carrinho${seq}@example.com`,
    });
  const cart = (headers: Record<string, string>, inscricoes: unknown[]) =>
    t.app.inject({
      method: 'POST',
      url: '/api/pagar-pix/',
      headers,
      payload: {
        total: 50 * inscricoes.length,
        finalidade: 'pedido',
        pedido: { metodo_pagamento: 'pix', inscricoes },
      },
    });

  it('refuses a cart of three under a limit of one, and writes nothing', async () => {
    const { event, buyer } = await admitted('Corrida do Carrinho de Três', 1);
    const three = await cart(buyer.headers, [runner(event), runner(event), runner(event)]);
    expect(three.statusCode, three.body).toBe(409);
    expect(three.json().code).toBe('limite_por_comprador');
    expect(three.json().detail).toMatch(/limite/);
    // Nothing held: the buyer's one registration still passes.
    const one = await registrationPix(t.app, runner(event), 50, buyer.headers);
    expect(one.statusCode, one.body).toBe(201);
  });

  it('counts a cart together with what the buyer is already paying for', async () => {
    const { event, buyer } = await admitted('Corrida do Carrinho Somado', 3);
    expect((await registrationPix(t.app, runner(event), 50, buyer.headers)).statusCode).toBe(201);
    const three = await cart(buyer.headers, [runner(event), runner(event), runner(event)]);
    expect(three.statusCode).toBe(409);
    expect(three.json().code).toBe('limite_por_comprador');
    const two = await cart(buyer.headers, [runner(event), runner(event)]);
    expect(two.statusCode, two.body).toBe(201);
  });
});
