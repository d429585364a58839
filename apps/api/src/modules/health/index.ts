import fp from 'fastify-plugin';
import { healthRoutes } from './health.routes.ts';

/** Liveness with a database check, and the public settings the browser reads. */
export default fp(
  async (app) => {
    await app.register(healthRoutes);
  },
  { name: 'health', dependencies: ['infra'] },
);
