import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge } from 'prom-client';
import { notFound, unauthorized } from '../../plugins/errors.ts';
import { METRIC_PREFIX } from '../../plugins/metrics.ts';
import {
  chargeFigures,
  jobFigures,
  messageFigures,
  reconciliationLagSeconds,
  refundFigures,
} from './metrics.read-model.ts';

/** Queue states that mean "waiting to run" (pg-boss): the depth of a queue. */
const WAITING = new Set(['created', 'retry']);

/**
 * `GET /api/metrics`: Prometheus's text format, for a scraper holding `METRICS_TOKEN` (as a bearer
 * token); without the setting the route answers 404, so the shop's figures are never public. The
 * business figures are read from the database at each scrape (metrics.read-model.ts); what each one
 * means and when to alert is in docs/operations.md.
 */
export async function metricsRoutes(app: FastifyInstance) {
  const registers = [app.metrics];
  const p = METRIC_PREFIX;
  const chargesCreated = new Counter({
    name: `${p}charges_created_total`,
    help: 'Cobranças criadas, por método (pix, cartao, gratuito).',
    labelNames: ['method'] as const,
    registers,
  });
  const chargesPaid = new Counter({
    name: `${p}charges_paid_total`,
    help: 'Cobranças pagas (inclusive as depois devolvidas), por método.',
    labelNames: ['method'] as const,
    registers,
  });
  const chargesExpired = new Counter({
    name: `${p}charges_expired_total`,
    help: 'Cobranças que expiraram sem pagamento, por método.',
    labelNames: ['method'] as const,
    registers,
  });
  const chargesAttention = new Gauge({
    name: `${p}charges_needing_attention`,
    help: 'Cobranças marcadas para a equipe olhar (devolução não realizada, pagamento sem destino).',
    registers,
  });
  const refunds = new Counter({
    name: `${p}charges_refunded_total`,
    help: 'Devoluções pedidas ao provedor, pela última resposta dele.',
    labelNames: ['status'] as const,
    registers,
  });
  const lag = new Gauge({
    name: `${p}reconciliation_lag_seconds`,
    help: 'Segundos desde o prazo da cobrança aberta mais antiga já vencida (0: nenhuma).',
    registers,
  });
  const depth = new Gauge({
    name: `${p}job_queue_depth`,
    help: 'Tarefas esperando a vez (novas ou a repetir), por fila.',
    labelNames: ['queue'] as const,
    registers,
  });
  const failed = new Gauge({
    name: `${p}jobs_failed`,
    help: 'Tarefas que falharam de vez nas últimas 12 horas (antes de irem ao arquivo), por fila.',
    labelNames: ['queue'] as const,
    registers,
  });

  const messagesFailed = new Gauge({
    name: `${p}messages_failed`,
    help: 'Mensagens das últimas 24 horas que não saíram (etapa envio) ou que o WhatsApp informou não entregues (etapa entrega), por canal.',
    labelNames: ['channel', 'stage'] as const,
    registers,
  });

  async function collect() {
    const now = app.now();
    const [charges, refunded, lagSeconds, jobs, messages] = await Promise.all([
      chargeFigures(app.db),
      refundFigures(app.db),
      reconciliationLagSeconds(app.db, now),
      jobFigures(app.db),
      messageFigures(app.db, now),
    ]);
    for (const metric of [chargesCreated, chargesPaid, chargesExpired, refunds, depth, failed])
      metric.reset();
    let attention = 0;
    for (const c of charges) {
      chargesCreated.inc({ method: c.method }, c.created);
      chargesPaid.inc({ method: c.method }, c.paid);
      chargesExpired.inc({ method: c.method }, c.expired);
      attention += c.attention;
    }
    chargesAttention.set(attention);
    for (const r of refunded) refunds.inc({ status: r.status }, r.count);
    lag.set(lagSeconds);
    // Both channels and stages always show, 0 when nothing failed, so an alert's series never vanishes.
    for (const channel of ['email', 'whatsapp'])
      for (const stage of ['envio', 'entrega']) messagesFailed.set({ channel, stage }, 0);
    for (const m of messages) {
      messagesFailed.set({ channel: m.channel, stage: 'envio' }, m.failed);
      messagesFailed.set({ channel: m.channel, stage: 'entrega' }, m.undelivered);
    }
    for (const j of jobs) {
      // Every queue shows, with 0 when nothing waits or failed, so an alert's series never vanishes.
      if (WAITING.has(j.state)) depth.inc({ queue: j.queue }, j.count);
      else depth.inc({ queue: j.queue }, 0);
      if (j.state === 'failed') failed.inc({ queue: j.queue }, j.count);
      else failed.inc({ queue: j.queue }, 0);
    }
  }

  const expected = app.env.METRICS_TOKEN ? digest(app.env.METRICS_TOKEN) : null;
  app.get('/api/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!expected) throw notFound();
    const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (!given || !timingSafeEqual(digest(given), expected)) throw unauthorized();
    await collect();
    return reply
      .header('cache-control', 'no-store')
      .type(app.metrics.contentType)
      .send(await app.metrics.metrics());
  });
}

/** Compared as digests, so the comparison takes the same time whatever the token's length. */
function digest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}
