import { ApiErrorSchema, IdParamSchema } from '@passada/core/contracts/common';
import {
  EventWaitlistSchema,
  WaitlistEntrySchema,
  WaitlistJoinedSchema,
  WaitlistJoinSchema,
  WaitlistTokenParamSchema,
} from '@passada/core/contracts/waitlist';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Waitlist } from './registration-waitlist.ts';

/**
 * The waitlist's public face (docs/decisions/0042-waitlist.md): which categories have one, joining
 * (no account needed: name, CPF, e-mail), and the runner's entry through the signed link e-mailed to
 * them (position, offer, leaving). Accepting an offer is the normal registration with the link's token.
 */
export const waitlistRoutes: FastifyPluginAsyncZod<{ waitlist: Waitlist }> = async (app, { waitlist }) => {
  const tags = ['lista de espera'];

  app.get(
    '/api/events/:id/lista-espera/',
    {
      schema: {
        tags,
        summary:
          'Categorias do evento com lista de espera, esgotadas ou não, e quantas pessoas estão na fila',
        params: IdParamSchema,
        response: { 200: EventWaitlistSchema, 404: ApiErrorSchema },
      },
    },
    (request) => waitlist.ofEvent(request.params.id),
  );

  app.post(
    '/api/events/:id/lista-espera/',
    {
      // Public: a few joins per address, so nobody floods the line or other people's mailboxes.
      config: {
        limit: { name: 'lista-espera', max: app.env.WAITLIST_JOIN_RATE_LIMIT_PER_IP, windowSeconds: 3600 },
      },
      schema: {
        tags,
        summary:
          'Entrar na lista de espera de uma categoria esgotada (um lugar por CPF; CPF já inscrito na categoria é recusado)',
        params: IdParamSchema,
        body: WaitlistJoinSchema,
        response: {
          201: WaitlistJoinedSchema,
          400: ApiErrorSchema,
          404: ApiErrorSchema,
          409: ApiErrorSchema,
          429: ApiErrorSchema,
        },
      },
    },
    async (request, reply) => reply.status(201).send(await waitlist.join(request.params.id, request.body)),
  );

  app.get(
    '/api/lista-espera/:token/',
    {
      schema: {
        tags,
        summary: 'A entrada na lista de espera pelo link enviado por e-mail: posição e oferta de vaga',
        params: WaitlistTokenParamSchema,
        response: { 200: WaitlistEntrySchema, 400: ApiErrorSchema, 404: ApiErrorSchema },
      },
    },
    (request) => waitlist.byToken(request.params.token),
  );

  app.post(
    '/api/lista-espera/:token/sair/',
    {
      schema: {
        tags,
        summary: 'Sair da lista de espera pelo link enviado por e-mail (uma vaga oferecida passa ao próximo)',
        params: WaitlistTokenParamSchema,
        response: { 200: WaitlistEntrySchema, 400: ApiErrorSchema, 404: ApiErrorSchema, 409: ApiErrorSchema },
      },
    },
    (request) => waitlist.leave(request.params.token),
  );
};
