import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { chargeRefunds, charges, eventCategories, registrations } from '../../db/schema/index.ts';
import { createUserAndToken, type TestUser } from '../../test/factories/accounts.ts';
import { type MadeEvent, makeEvent } from '../../test/factories/events.ts';
import { simulatePixPaid } from '../../test/factories/payments.ts';
import {
  cpfFrom,
  participant,
  registrationCard,
  registrationPix,
} from '../../test/factories/registrations.ts';
import { useClockedTestApp } from '../../test/test-app.ts';

// 09:00 in Fortaleza (UTC−3) on 22 November 2026.
const START = new Date('2026-11-22T12:00:00Z');
const TODAY = '2026-11-22';
const MINUTE = 60_000;

/** Draft fields that name, reach or identify the participant: none may survive a clearing. */
const PERSONAL = [
  'nome_completo',
  'cpf',
  'email',
  'data_nascimento',
  'numero_contato',
  'contato_emergencia_nome',
  'contato_emergencia_telefone',
  'street',
  'zip_code',
  'neighborhood',
  'genero',
];

describe('LGPD: personal data leaves charge drafts (registrations, simulado)', () => {
  const t = useClockedTestApp(START);
  let user: TestUser;
  beforeAll(async () => {
    user = await createUserAndToken(t.app);
  });

  const cat = (e: MadeEvent) => e.days[0]!.categories[0]!.id;
  const newEvent = () => makeEvent(t.app.db, { today: TODAY });
  const row = async (txid: string) =>
    (await t.app.db.select().from(charges).where(eq(charges.txid, txid)))[0]!;
  const placesLeft = async (id: number) =>
    (await t.app.db.select().from(eventCategories).where(eq(eventCategories.id, id)))[0]?.placesLeft;
  const registrationsOf = async (cpf: string) =>
    t.app.db.select().from(registrations).where(eq(registrations.cpf, cpf));

  /** The stored draft, read from the row: no personal field, no CPF or name anywhere in it. */
  function expectCleared(charge: { draft: unknown; personalDataClearedAt: Date | null }, cpf: string) {
    const draft = charge.draft as Record<string, unknown>;
    for (const key of PERSONAL) expect(draft).not.toHaveProperty(key);
    expect(JSON.stringify(draft)).not.toContain(cpf);
    expect(JSON.stringify(draft)).not.toContain('Maria');
    expect(charge.personalDataClearedAt).not.toBeNull();
    // What accounting needs stays.
    expect(draft).toMatchObject({
      evento: expect.any(Number),
      items: [expect.objectContaining({ priceCents: 8990 })],
    });
  }

  it('an expired Pix keeps the data while a late payment could still come, then loses it; paying again works', async () => {
    const event = await newEvent();
    const cpf = cpfFrom(910000001);
    const draft = participant(event, [cat(event)], { cpf });
    const pix = await registrationPix(t.app, draft, 89.9, user.headers);
    expect(pix.statusCode).toBe(201);
    const { txid } = pix.json();

    t.clock = new Date(START.getTime() + 31 * MINUTE);
    await t.app.payments.reconcileAll();
    const expired = await row(txid);
    expect(expired.status).toBe('EXPIRADA');
    // Reconciliation still watches it for a day (a payment may have raced the expiry).
    expect((expired.draft as { cpf?: string }).cpf).toBe(cpf);

    t.clock = new Date(START.getTime() + 25 * 3600_000);
    await t.app.payments.reconcileAll();
    expectCleared(await row(txid), cpf);
    expect(await placesLeft(cat(event))).toBe(100);

    // The same person pays a new charge: the registration is made from the new draft.
    const again = await registrationPix(t.app, draft, 89.9, user.headers);
    expect(again.statusCode).toBe(201);
    const paid = await simulatePixPaid(t.app, again.json().txid);
    expect(paid.json()).toMatchObject({ status: 'CONCLUIDA', inscricao_id: expect.any(Number) });
    expect(await registrationsOf(cpf)).toHaveLength(1);
  });

  it('a refused card loses the data at once; the next card pays and registers', async () => {
    const event = await newEvent();
    const cpf = cpfFrom(910000002);
    const draft = participant(event, [cat(event)], { cpf });
    const pay = (number: string) =>
      registrationCard(t.app, { number, draft, total: 89.9, user, key: `lgpd-${number}-${cpf}` });
    const refused = await pay('4000000000000002');
    expect(refused.statusCode).toBe(400);
    const refusedRow = await row(refused.json().txid);
    expect(refusedRow.status).toBe('RECUSADA');
    expectCleared(refusedRow, cpf);

    const approved = await pay('4111111111111111');
    expect(approved.statusCode).toBe(200);
    expect(await registrationsOf(cpf)).toHaveLength(1);
    // A paid charge keeps its draft: the registration answer after paying still checks it.
    expect(((await row(approved.json().txid)).draft as { cpf?: string }).cpf).toBe(cpf);
  });

  it('deleting the account clears every one of its charges; a payment still arriving is returned', async () => {
    const owner = await createUserAndToken(t.app);
    const event = await newEvent();
    const paidCpf = cpfFrom(910000003);
    const openCpf = cpfFrom(910000004);
    const paid = await registrationPix(
      t.app,
      participant(event, [cat(event)], { cpf: paidCpf }),
      89.9,
      owner.headers,
    );
    expect((await simulatePixPaid(t.app, paid.json().txid)).json().status).toBe('CONCLUIDA');
    const open = await registrationPix(
      t.app,
      participant(event, [cat(event)], { cpf: openCpf }),
      89.9,
      owner.headers,
    );
    expect(open.statusCode).toBe(201);

    const deleted = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/profile/',
      headers: owner.headers,
      payload: { password: owner.password },
    });
    expect(deleted.statusCode).toBe(204);
    expectCleared(await row(paid.json().txid), paidCpf);
    expectCleared(await row(open.json().txid), openCpf);
    // What was paid keeps its registration.
    expect(await registrationsOf(paidCpf)).toHaveLength(1);

    // The open charge is paid anyway: nothing left to register from, so the money goes back.
    const late = await simulatePixPaid(t.app, open.json().txid);
    expect(late.json()).toMatchObject({ status: 'DEVOLVIDA' });
    expect(await registrationsOf(openCpf)).toHaveLength(0);
    const openRow = await row(open.json().txid);
    const [refund] = await t.app.db
      .select()
      .from(chargeRefunds)
      .where(eq(chargeRefunds.chargeId, openRow.id));
    expect(refund).toMatchObject({ status: 'DEVOLVIDO', amountCents: 8990 });
    expect(
      t.app.providers.payments.simulator!.refunds().some((r) => r.endToEndId === openRow.endToEndId),
    ).toBe(true);
    expect(await placesLeft(cat(event))).toBe(99);
  });
});
