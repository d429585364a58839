import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registrations, registrationTransfers } from '../../db/schema/index.ts';
import { readOutbox } from '../../test/factories/accounts.ts';
import { makeEvent } from '../../test/factories/events.ts';
import { makeUser, simulatePixPaid } from '../../test/factories/payments.ts';
import { cpfFrom, participant, registrationPix } from '../../test/factories/registrations.ts';
import { createTestApp, requirePostgres, type TestApp } from '../../test/test-app.ts';

// Transfers asked and completed by connections that really race: PostgreSQL only (npm test provides one).
requirePostgres();

const TODAY = '2026-11-22';

describe('transferring a registration on PostgreSQL, concurrently', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date('2026-11-22T12:00:00Z') });
  });
  afterAll(() => t.close());

  async function paidRegistration(seq: number) {
    const event = await makeEvent(t.app.db, {
      today: TODAY,
      days: [[{ name: '5 km', priceCents: 5000, placesLeft: 10 }]],
    });
    const categoryId = event.days[0]!.categories[0]!.id;
    const runner = await makeUser(t.app);
    const created = await registrationPix(
      t.app,
      participant(event, [categoryId], { cpf: cpfFrom(seq) }),
      50,
      runner.headers,
    );
    expect(created.statusCode).toBe(201);
    const paid = await simulatePixPaid(t.app, created.json().txid);
    return { event, categoryId, runner, id: paid.json().inscricao_id as number };
  }

  it('two transfers of one registration asked at once: one is pending, the other refused', async () => {
    const { runner, id } = await paidRegistration(931000000);
    const results = await Promise.all(
      [0, 1].map((i) =>
        t.app.inject({
          method: 'POST',
          url: `/api/inscricoes/${id}/transferir/`,
          headers: runner.headers,
          payload: {
            nome_completo: `Amigo ${i === 0 ? 'Um' : 'Dois'}`,
            cpf: cpfFrom(931000100 + i),
            email: `amigo${i}@example.com`,
          },
        }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(results.find((r) => r.statusCode === 409)!.json().code).toBe('transferencia_pendente');
    const rows = await t.app.db
      .select()
      .from(registrationTransfers)
      .where(eq(registrationTransfers.registrationId, id));
    expect(rows.map((r) => r.status)).toEqual(['pendente']);
  });

  it('the new runner pays while the holder cancels the registration: exactly one wins, no money kept for nothing', async () => {
    const { event, categoryId, runner, id } = await paidRegistration(931000200);
    const to = { nome_completo: 'Amiga Três', cpf: cpfFrom(931000300), email: 'amiga3@example.com' };
    const asked = await t.app.inject({
      method: 'POST',
      url: `/api/inscricoes/${id}/transferir/`,
      headers: runner.headers,
      payload: to,
    });
    expect(asked.statusCode).toBe(201);
    const token = readOutbox(t.dataDir)
      .filter((m) => m.includes(to.email))
      .at(-1)!
      .match(/\/inscricoes\/transferencia\/([A-Za-z0-9_-]+)/)![1]!;
    const friend = await makeUser(t.app);
    // The fee is zero: the confirmation itself completes the transfer, in one transaction.
    const [completed, cancelled] = await Promise.all([
      t.app.inject({
        method: 'POST',
        url: '/api/confirmar-gratuito/',
        headers: friend.headers,
        payload: {
          total: 0,
          finalidade: 'inscricao',
          inscricao: { ...participant(event, [categoryId], to), transferencia: token },
        },
      }),
      t.app.inject({
        method: 'POST',
        url: `/api/inscricoes/${id}/cancelar/`,
        headers: runner.headers,
        payload: { valor_devolvido: 50 },
      }),
    ]);
    const [row] = await t.app.db.select().from(registrations).where(eq(registrations.id, id));
    if (completed.statusCode === 201) {
      // The transfer won: the registration is the friend's, and the old holder's account no longer holds it.
      expect(row).toMatchObject({ fullName: 'Amiga Três', cancelledAt: null });
      expect(cancelled.statusCode).toBe(404);
    } else {
      // The cancellation won: the transfer cannot complete on a cancelled registration.
      expect(cancelled.statusCode).toBe(200);
      expect(row!.cancelledAt).not.toBeNull();
      expect(row!.fullName).not.toBe('Amiga Três');
      expect(completed.statusCode).toBe(409);
    }
  });
});
