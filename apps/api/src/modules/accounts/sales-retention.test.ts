import { desc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog, charges, orderItems, orders, registrations } from '../../db/schema/index.ts';
import { makeProduct } from '../../test/factories/catalog.ts';
import { makeEvent } from '../../test/factories/events.ts';
import { createOrderPix, draftTotalCents, makeBuyer, orderDraft } from '../../test/factories/orders.ts';
import { simulatePixPaid } from '../../test/factories/payments.ts';
import { participantsFrom } from '../../test/factories/registrations.ts';
import { useClockedTestApp } from '../../test/test-app.ts';
import { untilJobsDone } from '../../test/wait-until.ts';
import { SALES_RETENTION_ACTOR, salesRetentionCutoff } from './sales-retention.ts';

// 10:00 in Fortaleza on 24 November 2026; the race ends on the 28th.
const START = new Date('2026-11-24T13:00:00Z');

/**
 * Orders and registrations are the shop's fiscal and commercial records: kept with the buyer's and
 * participant's data for SALES_RETENTION_YEARS counted from the year after (CTN art. 173/174), then
 * anonymised by the nightly job, items and amounts kept, and older audit-log lines deleted.
 */
describe('the sales records after their legal period', () => {
  const t = useClockedTestApp(START, { env: { SALES_RETENTION_YEARS: '5' } });
  const db = () => t.app.db;

  async function runJob() {
    await t.app.jobs.send('privacy.sales-retention', {});
    await untilJobsDone(db(), 'privacy.sales-retention');
  }
  const jobAudits = () =>
    db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.staffEmail, SALES_RETENTION_ACTOR))
      .orderBy(desc(auditLog.id));

  it('counts five whole years after the year of the sale', () => {
    expect(salesRetentionCutoff('2031-12-31', 5)).toBe('2026-01-01');
    expect(salesRetentionCutoff('2032-01-01', 5)).toBe('2027-01-01');
  });

  let buyerEmail = '';
  let orderId = 0;
  let registrationId = 0;
  let cpf = '';
  beforeAll(async () => {
    const buyer = await makeBuyer(t.app);
    buyerEmail = buyer.email;
    const product = await makeProduct(db());
    const draft = orderDraft(buyer, [{ product }]);
    const total = await draftTotalCents(t.app, buyer.zipCode, draft, [product]);
    const pix = await createOrderPix(t.app, buyer.headers, { ...draft, cpf: '529.982.247-25' }, total);
    expect(pix.statusCode, pix.body).toBe(201);
    const paid = await simulatePixPaid(t.app, pix.json().txid);
    orderId = paid.json().pedido_id;
    expect(orderId).toEqual(expect.any(Number));

    const event = await makeEvent(db(), {
      name: 'Corrida dos Livros Fiscais',
      today: '2026-11-24',
      startDate: '2026-11-28',
      registrationDeadline: '2026-11-27',
      days: [[{ name: '5 km', priceCents: 0 }]],
    });
    const participant = participantsFrom(590_000_000)(
      event,
      'Lia Guardada',
      event.days[0]!.categories[0]!.id,
      { equipe: 'Equipe Arquivo' },
    );
    cpf = participant.cpf;
    const free = await t.app.inject({
      method: 'POST',
      url: '/api/confirmar-gratuito/',
      headers: buyer.headers,
      payload: { total: 0, finalidade: 'inscricao', inscricao: participant },
    });
    expect(free.statusCode, free.body).toBeLessThan(300);
    const [row] = await db().select().from(registrations).where(eq(registrations.cpf, cpf));
    registrationId = row!.id;
    // The sale's mails clear `confirmationPending` on their own time: done before the order is read.
    await untilJobsDone(db(), 'mail.order-confirmation', 'mail.registration-confirmation');
    // A back-office line of the same year, and one of the next.
    await db()
      .insert(auditLog)
      .values([
        {
          staffId: null,
          staffEmail: 'gerente@passada.com.br',
          action: 'alterado',
          entity: 'produto',
          at: START,
        },
        {
          staffId: null,
          staffEmail: 'gerente@passada.com.br',
          action: 'alterado',
          entity: 'produto',
          at: new Date('2027-02-01T12:00:00Z'),
        },
      ]);
  });

  it('keeps everything through the fifth year after the sale, then anonymises once, audited with counts', async () => {
    const [orderBefore] = await db().select().from(orders).where(eq(orders.id, orderId));
    const itemsBefore = await db().select().from(orderItems).where(eq(orderItems.orderId, orderId));
    expect(orderBefore!.address?.full_name).not.toBe('Dados apagados');
    expect(orderBefore!.buyerCpf).toBe('52998224725');

    // The last day of 2031: the sales of 2026 are still within the period.
    t.clock = new Date('2031-12-31T15:00:00Z');
    await runJob();
    const [kept] = await db().select().from(orders).where(eq(orders.id, orderId));
    expect(kept).toEqual(orderBefore);
    expect(await jobAudits()).toEqual([]);

    // The person the runner authorised to collect the kit is erased with the runner's own data.
    await db()
      .update(registrations)
      .set({ pickupDelegateName: 'Beto Amigo', pickupDelegateCpf: '39053344705' })
      .where(eq(registrations.id, registrationId));
    // 1 January 2032 in Fortaleza: 2026 is past.
    t.clock = new Date('2032-01-01T12:00:00Z');
    await runJob();
    const [order] = await db().select().from(orders).where(eq(orders.id, orderId));
    expect(order).toMatchObject({
      userId: null,
      buyerCpf: null,
      totalCents: orderBefore!.totalCents,
      subtotalCents: orderBefore!.subtotalCents,
      shippingCents: orderBefore!.shippingCents,
      personalDataErasedAt: expect.any(Date),
      address: {
        full_name: 'Dados apagados',
        phone: '',
        street: '',
        number: '',
        complement: '',
        neighborhood: '',
        zip_code: '',
        city: orderBefore!.address!.city,
        state: orderBefore!.address!.state,
      },
    });
    expect(await db().select().from(orderItems).where(eq(orderItems.orderId, orderId))).toEqual(itemsBefore);

    const [registration] = await db()
      .select()
      .from(registrations)
      .where(eq(registrations.id, registrationId));
    expect(registration).toMatchObject({
      fullName: 'Dados apagados',
      cpf: `apagado-${registrationId}`,
      email: '',
      phone: '',
      address: '',
      street: '',
      zipCode: '',
      team: null,
      emergencyName: null,
      emergencyPhone: null,
      accountUserId: null,
      pickupDelegateName: null,
      pickupDelegateCpf: null,
      personalDataErasedAt: expect.any(Date),
    });
    expect(registration!.birthDate).toMatch(/^\d{4}-01-01$/);

    // The charges' drafts no longer hold the buyer or the participant.
    const paidCharges = await db()
      .select()
      .from(charges)
      .where(sql`${charges.id} in (${order!.chargeId}, ${registration!.chargeId})`);
    for (const c of paidCharges) {
      expect(c.personalDataClearedAt).not.toBeNull();
      expect(JSON.stringify(c.draft)).not.toContain(buyerEmail);
      expect(JSON.stringify(c.draft)).not.toContain(cpf);
      expect(JSON.stringify(c.draft)).not.toContain('52998224725');
    }

    // Audit lines of 2026 are gone; those of 2027 stay.
    const lines = await db().select().from(auditLog).where(eq(auditLog.staffEmail, 'gerente@passada.com.br'));
    expect(lines.map((l) => l.at.toISOString())).toEqual(['2027-02-01T12:00:00.000Z']);

    const [audit] = await jobAudits();
    expect(audit).toMatchObject({
      action: 'dados_de_vendas_anonimizados',
      after: {
        pedidos: 1,
        inscricoes: 1,
        cobrancas: paidCharges.length,
        registros_de_auditoria_apagados: expect.any(Number),
        anteriores_a: '2027-01-01',
      },
    });
    expect(JSON.stringify(audit)).not.toContain(buyerEmail);
    expect(JSON.stringify(audit)).not.toContain(cpf);

    // Again the next night: nothing more to do, nothing written.
    t.clock = new Date('2032-01-02T12:00:00Z');
    await runJob();
    expect(await jobAudits()).toHaveLength(1);
  });
});
