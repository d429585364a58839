import { describe, expect, it } from 'vitest';
import { messageLog } from '../../db/schema/index.ts';
import { makeProduct } from '../../test/factories/catalog.ts';
import { createOrderPix, draftTotalCents, makeBuyer, orderDraft } from '../../test/factories/orders.ts';
import { useClockedTestApp } from '../../test/test-app.ts';

const TOKEN = 'raspador-de-metricas-1234';

/** One figure of the Prometheus text: its value for the labels given (every label listed must match). */
function figure(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const has = Object.entries(labels).every(([k, v]) => (match[2] ?? '').includes(`${k}="${v}"`));
    if (has) return Number(match[3]);
  }
  return undefined;
}

describe('Prometheus metrics', () => {
  const start = new Date('2026-11-24T12:00:00Z');
  // The queue only enqueues here, so the confirmation e-mail waits and shows in the queue's depth.
  const t = useClockedTestApp(start, { env: { METRICS_TOKEN: TOKEN, JOBS_ENABLED: 'false' } });
  const scrape = (authorization?: string) =>
    t.app.inject({ method: 'GET', url: '/api/metrics', headers: authorization ? { authorization } : {} });

  it('answers only the scraper holding the token', async () => {
    expect((await scrape()).statusCode).toBe(401);
    expect((await scrape('Bearer outro-token-qualquer-123')).statusCode).toBe(401);
    expect((await scrape(`Bearer ${TOKEN}`)).statusCode).toBe(200);
  });

  it('publishes request figures and the charges, refunds, reconciliation lag and queue depth from the database', async () => {
    const product = await makeProduct(t.app.db);
    const buyer = await makeBuyer(t.app);
    const draft = orderDraft(buyer, [{ product }]);
    const total = await draftTotalCents(t.app, buyer.zipCode, draft, [product]);
    const paid = await createOrderPix(t.app, buyer.headers, draft, total);
    expect(paid.statusCode).toBe(201);
    const { txid } = paid.json<{ txid: string }>();
    expect((await t.app.inject({ method: 'POST', url: `/api/simulador/pix/${txid}/pagar` })).statusCode).toBe(
      200,
    );
    // A second Pix left open, then the clock passes its deadline with no reconciliation run.
    const open = await createOrderPix(t.app, buyer.headers, draft, total);
    expect(open.statusCode).toBe(201);
    t.clock = new Date(start.getTime() + (t.env.PIX_EXPIRATION_SECONDS + 90) * 1000);

    const res = await scrape(`Bearer ${TOKEN}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    const text = res.body;
    expect(figure(text, 'passada_charges_created_total', { method: 'pix' })).toBe(2);
    expect(figure(text, 'passada_charges_paid_total', { method: 'pix' })).toBe(1);
    expect(figure(text, 'passada_charges_expired_total', { method: 'pix' })).toBe(0);
    expect(figure(text, 'passada_charges_needing_attention')).toBe(0);
    // The open Pix's own deadline (the provider's) passed about 90 s ago.
    const lag = figure(text, 'passada_reconciliation_lag_seconds')!;
    expect(lag).toBeGreaterThan(60);
    expect(lag).toBeLessThan(120);
    expect(figure(text, 'passada_job_queue_depth', { queue: 'mail.order-confirmation' })).toBe(1);
    expect(figure(text, 'passada_jobs_failed', { queue: 'mail.order-confirmation' })).toBe(0);
    // Requests by route pattern, never by the raw address (a txid would make a series per charge).
    expect(
      figure(text, 'passada_http_requests_total', {
        method: 'POST',
        route: '/api/simulador/pix/:txid/pagar',
        status: '200',
      }),
    ).toBe(1);
    expect(
      figure(text, 'passada_http_requests_total', {
        method: 'POST',
        route: '/api/pagar-pix/',
        status: '201',
      }),
    ).toBe(2);
    expect(figure(text, 'passada_messages_failed', { channel: 'email', stage: 'envio' })).toBe(0);
    expect(text).not.toContain(txid);
    // The durations by status class: both charges in the +Inf bucket and the count, the buckets
    // cumulative (never falling as the bound rises), the sum positive.
    const charges = { method: 'POST', route: '/api/pagar-pix/', status_class: '2xx' };
    expect(figure(text, 'passada_http_request_duration_seconds_count', charges)).toBe(2);
    expect(figure(text, 'passada_http_request_duration_seconds_bucket', { ...charges, le: '+Inf' })).toBe(2);
    const bounds = ['0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '10', '+Inf'];
    const cumulative = bounds.map((le) =>
      figure(text, 'passada_http_request_duration_seconds_bucket', { ...charges, le }),
    );
    expect(cumulative.every((n, i) => n !== undefined && (i === 0 || n >= cumulative[i - 1]!))).toBe(true);
    expect(figure(text, 'passada_http_request_duration_seconds_sum', charges)).toBeGreaterThan(0);
    expect(text).toContain('passada_process_resident_memory_bytes');
  });

  it('counts the messages of the last 24 hours not sent, and those WhatsApp reported undelivered', async () => {
    const at = (hoursAgo: number) => new Date(t.clock.getTime() - hoursAgo * 3_600_000);
    await t.app.db.insert(messageLog).values([
      {
        channel: 'email',
        kind: 'mail.order-confirmation',
        recipient: 'a@example.com',
        status: 'failed',
        updatedAt: at(1),
      },
      {
        channel: 'email',
        kind: 'mail.order-confirmation',
        recipient: 'b@example.com',
        status: 'failed',
        updatedAt: at(30),
      },
      {
        channel: 'whatsapp',
        kind: 'whatsapp.pix-code',
        recipient: '5585999990000',
        status: 'sent',
        delivery: 'failed',
        updatedAt: at(2),
      },
      {
        channel: 'whatsapp',
        kind: 'whatsapp.pix-code',
        recipient: '5585999990001',
        status: 'sent',
        delivery: 'read',
        updatedAt: at(2),
      },
    ]);
    const text = (await scrape(`Bearer ${TOKEN}`)).body;
    expect(figure(text, 'passada_messages_failed', { channel: 'email', stage: 'envio' })).toBe(1);
    expect(figure(text, 'passada_messages_failed', { channel: 'whatsapp', stage: 'envio' })).toBe(0);
    expect(figure(text, 'passada_messages_failed', { channel: 'whatsapp', stage: 'entrega' })).toBe(1);
  });

  it('is not there at all without a token configured', async () => {
    const { createTestApp } = await import('../../test/test-app.ts');
    const bare = await createTestApp();
    try {
      expect((await bare.app.inject({ method: 'GET', url: '/api/metrics' })).statusCode).toBe(404);
    } finally {
      await bare.close();
    }
  });
});
