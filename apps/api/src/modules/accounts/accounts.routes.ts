import rateLimit from '@fastify/rate-limit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { addressesRoutes } from './addresses.routes.ts';
import { cepRoutes } from './cep.routes.ts';
import { usersRoutes } from './users.routes.ts';

/** Accounts: users and tokens, addresses, CEP lookup. Rate limits apply only to routes that ask for one. */
export const accountsRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(rateLimit, { global: false });
  await app.register(usersRoutes);
  await app.register(addressesRoutes);
  await app.register(cepRoutes);
};
