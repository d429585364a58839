import { CepLookupSchema } from '@passada/core/contracts/accounts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest } from '../../plugins/errors.ts';

const INVALID_CEP = 'Digite um CEP válido!';

/** CEP lookup for the address form: the state always, street/neighbourhood/city when the provider knows. */
export const cepRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/cep/:cep/',
    { schema: { params: z.object({ cep: z.string().max(20) }), response: { 200: CepLookupSchema } } },
    async (request) => {
      const { cep } = request.params;
      const digits = cep.replace(/[\s.-]/g, '');
      if (!/^\d{8}$/.test(digits)) throw badRequest(INVALID_CEP, 'invalid_cep', { cep: INVALID_CEP });
      const found = await app.providers.cep.lookup(digits);
      if (!found) throw badRequest(INVALID_CEP, 'invalid_cep', { cep: INVALID_CEP });
      return found;
    },
  );
};
