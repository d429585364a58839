import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../db/schema/index.ts';
import { kitLeft, type MadeEvent, makeEvent, placesLeft } from '../../test/factories/events.ts';
import { makeBuyer } from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { cpfFrom, participant, registrationCard } from '../../test/factories/registrations.ts';
import { useClockedTestApp } from '../../test/test-app.ts';

const START = new Date('2026-11-24T13:00:00Z');
const TODAY = '2026-11-24';
const APPROVED_CARD = '4111111111111111';

/**
 * Staff change a registration's distance and shirt size in the back office (docs/decisions/0060):
 * through the change manager, so the new sale's rules hold (places, the CPF free in the category,
 * shirts in stock), audited, and written in the registration's history as done by staff.
 */
describe("staff change a registration's distance and shirt size", () => {
  const t = useClockedTestApp(START);
  let buyer: Awaited<ReturnType<typeof makeBuyer>>;
  let gerente: TestStaff;
  let financeiro: TestStaff;
  let cpfSeq = 562_000_000;

  beforeAll(async () => {
    buyer = await makeBuyer(t.app);
    gerente = await createStaffAndLogin(t.app, 'gerente');
    financeiro = await createStaffAndLogin(t.app, 'financeiro');
  });

  const db = () => t.app.db;
  /** 5 km R$ 50 (10 places), 10 km R$ 80 (the last place); shirts M (10) and G (the last one). */
  const newEvent = (name: string) =>
    makeEvent(db(), {
      name,
      today: TODAY,
      startDate: '2026-11-28',
      registrationDeadline: '2026-11-27',
      days: [
        [
          { name: '5 km', priceCents: 5000, placesLeft: 10 },
          { name: '10 km', priceCents: 8000, placesLeft: 1 },
        ],
      ],
      kitSizes: [
        { size: 'M', left: 10 },
        { size: 'G', left: 1 },
      ],
    });
  const cats = (e: MadeEvent) => e.days[0]!.categories.map((c) => c.id) as [number, number];
  const sizes = (e: MadeEvent) => e.kitSizes!.map((k) => k.id) as [number, number];

  async function registered(event: MadeEvent, cat: 0 | 1 = 0, cpf = cpfFrom(cpfSeq++)) {
    const paid = await registrationCard(t.app, {
      number: APPROVED_CARD,
      draft: participant(event, [cats(event)[cat]], {
        cpf,
        email: `equipe.troca.${cpfSeq}@example.com`,
        tamanho_camisa: sizes(event)[0],
      }),
      total: cat === 0 ? 50 : 80,
      user: buyer,
      key: randomUUID(),
    });
    expect(paid.statusCode, paid.body).toBe(200);
    return paid.json().inscricao_id as number;
  }

  const change = (who: TestStaff, id: number, payload: object) =>
    t.app.inject({
      method: 'POST',
      url: `/api/painel/registrations/${id}/alterar/`,
      headers: who.headers,
      payload,
    });

  it('moves the distance and the shirt, places and shirts follow, audited and in the history', async () => {
    const event = await newEvent('Corrida da Troca pela Equipe');
    const [five, ten] = cats(event);
    const [m, g] = sizes(event);
    const id = await registered(event);

    const res = await change(gerente, id, { de: five, para: ten, tamanho_camisa: g });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.inscricao.categorias.map((c: { nome: string }) => c.nome)).toEqual(['10 km']);
    expect(body.inscricao.tamanho_camisa).toBe('G');
    expect(body.historico).toEqual([
      expect.stringMatching(/Distância trocada para 10 km pela equipe\.$/),
      expect.stringMatching(/Camisa trocada de M para G pela equipe\.$/),
    ]);
    expect(await placesLeft(db(), ten)).toBe(0);
    expect(await placesLeft(db(), five)).toBe(10);
    expect(await kitLeft(db(), g)).toBe(0);
    expect(await kitLeft(db(), m)).toBe(10);
    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'inscricao'), eq(auditLog.entityId, String(id))));
    expect(entry).toMatchObject({
      action: 'alterado',
      staffEmail: gerente.email,
      before: { categorias: [five], tamanho_camisa: 'M' },
      after: { categorias: [ten], tamanho_camisa: 'G' },
    });
  });

  it("runs the new sale's rules: no place left, the CPF already there, the last shirt gone, a cancelled one", async () => {
    const event = await newEvent('Corrida das Regras da Equipe');
    const [five, ten] = cats(event);
    const [, g] = sizes(event);
    const cpf = cpfFrom(cpfSeq++);
    const first = await registered(event, 0, cpf);
    // The same CPF already runs the 10 km (its last place) on another registration.
    await registered(event, 1, cpf);
    const other = await registered(event);

    const taken = await change(gerente, other, { de: five, para: ten });
    expect(taken.statusCode, taken.body).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'esgotado' });

    const twice = await change(gerente, first, { de: five, para: ten });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().detail).toMatch(/CPF|inscri/);

    expect((await change(gerente, other, { tamanho_camisa: g })).statusCode).toBe(200);
    const noShirt = await change(gerente, first, { tamanho_camisa: g });
    expect(noShirt.statusCode).toBe(409);
    expect(noShirt.json()).toMatchObject({ code: 'tamanho_esgotado' });

    const half = await change(gerente, first, { para: ten });
    expect(half.statusCode).toBe(400);
    expect(half.json().detail).toMatch(/distância atual e a nova/);

    // Only who runs events changes places and shirts.
    expect((await change(financeiro, first, { tamanho_camisa: sizes(event)[0] })).statusCode).toBe(403);

    const admin = await createStaffAndLogin(t.app, 'admin');
    const cancelled = await t.app.inject({
      method: 'POST',
      url: `/api/painel/registrations/${first}/cancel/`,
      headers: admin.headers,
      payload: { motivo: 'Pedido do corredor' },
    });
    expect(cancelled.statusCode).toBe(200);
    const gone = await change(gerente, first, { tamanho_camisa: sizes(event)[0] });
    expect(gone.statusCode).toBe(409);
    expect(gone.json()).toMatchObject({ code: 'inscricao_cancelada' });
  });
});
