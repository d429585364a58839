import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const shippingRoutes: FastifyPluginAsyncZod = async () => {};
