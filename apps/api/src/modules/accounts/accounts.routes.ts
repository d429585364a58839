import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { addressesRoutes } from './addresses.routes.ts';
import type { AddressesService } from './addresses.service.ts';
import { cepRoutes } from './cep.routes.ts';
import { usersRoutes } from './users.routes.ts';
import type { UsersService } from './users.service.ts';

/** Accounts: users and tokens, addresses, CEP lookup. */
export const accountsRoutes: FastifyPluginAsyncZod<{
  users: UsersService;
  addresses: AddressesService;
}> = async (app, { users, addresses }) => {
  await app.register(usersRoutes, { users });
  await app.register(addressesRoutes, { addresses });
  await app.register(cepRoutes);
};
