import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * This process's Prometheus registry: the request figures and Node's own (memory, event loop,
     * garbage collection). Modules add their gauges to it; `/api/metrics` (health) publishes it.
     */
    metrics: Registry;
  }
}

/** Every figure's name starts with this, so dashboards find the shop's among a host's others. */
export const METRIC_PREFIX = 'passada_';

/**
 * Request counts and durations by method, route pattern (never the raw URL: ids and CPFs would make a
 * series per customer) and status. One registry per app, so tests and several apps in one process keep
 * their figures apart (docs/operations.md).
 */
export default fp(
  async (app: FastifyInstance) => {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry, prefix: METRIC_PREFIX });
    const requests = new Counter({
      name: `${METRIC_PREFIX}http_requests_total`,
      help: 'Requisições HTTP respondidas, por método, rota e status.',
      labelNames: ['method', 'route', 'status'] as const,
      registers: [registry],
    });
    const duration = new Histogram({
      name: `${METRIC_PREFIX}http_request_duration_seconds`,
      help: 'Tempo até a resposta, por método, rota e classe de status (2xx, 4xx, 5xx).',
      labelNames: ['method', 'route', 'status_class'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
    app.decorate('metrics', registry);
    app.addHook('onResponse', async (request, reply) => {
      // Paths no route declares (the SPA's pages, unknown /api/ paths) share one label.
      const route = request.routeOptions.url ?? 'sem_rota';
      const status = reply.statusCode;
      requests.inc({ method: request.method, route, status: String(status) });
      duration.observe(
        { method: request.method, route, status_class: `${Math.floor(status / 100)}xx` },
        reply.elapsedTime / 1000,
      );
    });
  },
  { name: 'metrics', fastify: '5.x' },
);
