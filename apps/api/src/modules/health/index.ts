import fp from 'fastify-plugin';
import { healthRoutes } from './health.routes.ts';
import { metricsRoutes } from './metrics.routes.ts';

/**
 * Liveness, readiness (database answering and migrated), the Prometheus figures and the public settings
 * the browser reads.
 */
export default fp(
  async (app) => {
    await app.register(healthRoutes);
    await app.register(metricsRoutes);
  },
  { name: 'health', dependencies: ['infra', 'metrics', 'jobs'] },
);
