import { AddressInputSchema, AddressSchema } from '@passada/core/contracts/accounts';
import { IdParamSchema } from '@passada/core/contracts/common';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '../../plugins/auth.ts';
import type { AddressesService } from './addresses.service.ts';

/** The signed-in user's delivery addresses (spec §7). Every route looks up by id AND owner. */
export const addressesRoutes: FastifyPluginAsyncZod<{ addresses: AddressesService }> = async (
  app,
  { addresses },
) => {
  app.get(
    '/api/users/addresses/',
    { config: { auth: 'user' }, schema: { response: { 200: z.array(AddressSchema) } } },
    async (request) => addresses.list((await requireUser(request)).id),
  );

  app.post(
    '/api/users/addresses/',
    { config: { auth: 'user' }, schema: { body: AddressInputSchema, response: { 201: AddressSchema } } },
    async (request, reply) => {
      const user = await requireUser(request);
      return reply.status(201).send(await addresses.create(user.id, request.body));
    },
  );

  app.get(
    '/api/users/addresses/:id/',
    { config: { auth: 'user' }, schema: { params: IdParamSchema, response: { 200: AddressSchema } } },
    async (request) => addresses.get((await requireUser(request)).id, request.params.id),
  );

  app.put(
    '/api/users/addresses/:id/',
    {
      config: { auth: 'user' },
      schema: { params: IdParamSchema, body: AddressInputSchema, response: { 200: AddressSchema } },
    },
    async (request) => addresses.update((await requireUser(request)).id, request.params.id, request.body),
  );

  app.delete(
    '/api/users/addresses/:id/',
    { config: { auth: 'user' }, schema: { params: IdParamSchema } },
    async (request, reply) => {
      await addresses.remove((await requireUser(request)).id, request.params.id);
      return reply.status(204).send();
    },
  );
};
