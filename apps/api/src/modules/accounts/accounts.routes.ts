import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const accountsRoutes: FastifyPluginAsyncZod = async () => {};
