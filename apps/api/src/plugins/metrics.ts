import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, collectDefaultMetrics, type Histogram, Registry } from 'prom-client';

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

/** Upper bounds of the request duration histogram, in seconds. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

/** The requests answered with one method, route pattern and status: how many, and how long they took. */
interface Series {
  method: string;
  route: string;
  status: number;
  count: number;
  sumSeconds: number;
  /** Requests per bucket (not cumulative); the last slot is past the highest bound (+Inf). */
  buckets: number[];
}

/**
 * The request figures as plain counters, kept per series by a string key: a request costs a map
 * lookup and a few additions. prom-client's own `inc` and `observe` hash and validate the labels on
 * every call, a fifth of the CPU of a small cached answer; here that work happens when Prometheus
 * scrapes, once per series.
 */
function requestFigures() {
  const series = new Map<string, Series>();
  return {
    series,
    record(method: string, route: string, status: number, seconds: number) {
      const key = `${method} ${status} ${route}`;
      let s = series.get(key);
      if (!s) {
        s = {
          method,
          route,
          status,
          count: 0,
          sumSeconds: 0,
          buckets: new Array(BUCKETS.length + 1).fill(0),
        };
        series.set(key, s);
      }
      s.count++;
      s.sumSeconds += seconds;
      let slot = 0;
      while (slot < BUCKETS.length && seconds > BUCKETS[slot]!) slot++;
      s.buckets[slot]!++;
    },
  };
}

type Figures = ReturnType<typeof requestFigures>;

/**
 * The duration histogram in prom-client's shape (what its Histogram's `get()` answers), by method,
 * route and status class, summed from the series at scrape time.
 */
function durationHistogram(figures: Figures) {
  const name = `${METRIC_PREFIX}http_request_duration_seconds`;
  const help = 'Tempo até a resposta, por método, rota e classe de status (2xx, 4xx, 5xx).';
  return {
    name,
    help,
    type: 'histogram',
    aggregator: 'sum',
    async get() {
      const byClass = new Map<
        string,
        { labels: Record<string, string>; count: number; sum: number; buckets: number[] }
      >();
      for (const s of figures.series.values()) {
        const labels = { method: s.method, route: s.route, status_class: `${Math.floor(s.status / 100)}xx` };
        const key = `${labels.method} ${labels.status_class} ${labels.route}`;
        const into = byClass.get(key) ?? {
          labels,
          count: 0,
          sum: 0,
          buckets: new Array(BUCKETS.length + 1).fill(0),
        };
        into.count += s.count;
        into.sum += s.sumSeconds;
        s.buckets.forEach((n, i) => {
          into.buckets[i]! += n;
        });
        byClass.set(key, into);
      }
      const values = [];
      for (const { labels, count, sum, buckets } of byClass.values()) {
        let cumulative = 0;
        BUCKETS.forEach((le, i) => {
          cumulative += buckets[i]!;
          values.push({ labels: { ...labels, le }, value: cumulative, metricName: `${name}_bucket` });
        });
        values.push({ labels: { ...labels, le: '+Inf' }, value: count, metricName: `${name}_bucket` });
        values.push({ labels, value: sum, metricName: `${name}_sum` });
        values.push({ labels, value: count, metricName: `${name}_count` });
      }
      return { name, help, type: 'histogram', aggregator: 'sum', values };
    },
    reset() {
      figures.series.clear();
    },
  };
}

/**
 * Request counts and durations by method, route pattern (never the raw URL: ids and CPFs would make a
 * series per customer) and status. One registry per app, so tests and several apps in one process keep
 * their figures apart (docs/operations.md).
 */
export default fp(
  async (app: FastifyInstance) => {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry, prefix: METRIC_PREFIX });
    const figures = requestFigures();
    new Counter({
      name: `${METRIC_PREFIX}http_requests_total`,
      help: 'Requisições HTTP respondidas, por método, rota e status.',
      labelNames: ['method', 'route', 'status'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const s of figures.series.values()) {
          this.inc({ method: s.method, route: s.route, status: String(s.status) }, s.count);
        }
      },
    });
    // A metric object of prom-client's shape: the registry reads it through `get()` like its own.
    registry.registerMetric(durationHistogram(figures) as unknown as Histogram);
    app.decorate('metrics', registry);
    // Answers the server's door gives (front-door.ts) skip the hooks below: it counts them itself.
    app.frontDoor?.onServed(figures.record);
    app.addHook('onResponse', (request, reply, done) => {
      // Paths no route declares (the SPA's pages, unknown /api/ paths) share one label.
      figures.record(
        request.method,
        request.routeOptions.url ?? 'sem_rota',
        reply.statusCode,
        reply.elapsedTime / 1000,
      );
      done();
    });
  },
  { name: 'metrics', fastify: '5.x' },
);
