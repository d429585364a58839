import {
  ParticipantLinkParamSchema,
  PickupDelegateRequestSchema,
  PickupDelegateStatusSchema,
  TeamPickupConsentSchema,
} from '@passada/core/contracts/after-sale';
import { ApiErrorSchema, IdParamSchema } from '@passada/core/contracts/common';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../../plugins/auth.ts';
import type { Holder } from './holder.ts';
import type { RegistrationsService } from './registrations.service.ts';

type FastifyRequestLike = Parameters<typeof requireUser>[0];

/**
 * Pickup by someone else (docs/decisions/0063, later): the runner authorises and revokes, from "Minha
 * conta" (the buying account) or through the participant's link.
 */
export const pickupDelegationRoutes: FastifyPluginAsyncZod<{ registrations: RegistrationsService }> = async (
  app,
  { registrations },
) => {
  const { delegation, links } = registrations;
  const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 404: ApiErrorSchema, 409: ApiErrorSchema };
  const routes = (prefix: string, who: 'user' | 'link') => {
    const params = who === 'user' ? IdParamSchema : ParticipantLinkParamSchema;
    const config = who === 'user' ? { config: { auth: 'user' as const } } : {};
    const holderOf = async (r: FastifyRequestLike): Promise<{ holder: Holder; id: number }> => {
      if (who === 'user')
        return {
          holder: { by: 'comprador', user: await requireUser(r) },
          id: (r.params as { id: number }).id,
        };
      const holder = await links.holderOf((r.params as { token: string }).token);
      return { holder, id: holder.registrationId };
    };
    const url = `${prefix}/retirada-autorizada/`;
    const tags = ['inscrições'];
    app.get(
      url,
      {
        ...config,
        schema: {
          tags,
          summary: 'Quem pode retirar o kit além do titular, e se o evento permite',
          params,
          response: { 200: PickupDelegateStatusSchema, ...errors },
        },
      },
      async (request) => {
        const { holder, id } = await holderOf(request);
        return delegation.status(holder, id);
      },
    );
    app.put(
      url,
      {
        ...config,
        schema: {
          tags,
          summary:
            'Autorizar outra pessoa (nome e CPF) a retirar o kit; na mesa ela mostra o documento desse CPF',
          params,
          body: PickupDelegateRequestSchema,
          response: { 200: PickupDelegateStatusSchema, ...errors },
        },
      },
      async (request) => {
        const { holder, id } = await holderOf(request);
        return delegation.authorise(holder, id, request.body);
      },
    );
    app.delete(
      url,
      {
        ...config,
        schema: {
          tags,
          summary: 'Revogar a autorização: o kit sai só para o titular',
          params,
          response: { 200: PickupDelegateStatusSchema, ...errors },
        },
      },
      async (request) => {
        const { holder, id } = await holderOf(request);
        return delegation.revoke(holder, id);
      },
    );
    app.put(
      `${prefix}/retirada-equipe/`,
      {
        ...config,
        schema: {
          tags,
          summary:
            'Deixar (ou não) quem a equipe enviar retirar o kit junto com os da equipe; só com equipe e kit ainda na mesa',
          params,
          body: TeamPickupConsentSchema,
          response: { 200: PickupDelegateStatusSchema, ...errors },
        },
      },
      async (request) => {
        const { holder, id } = await holderOf(request);
        return delegation.teamConsent(holder, id, request.body.autorizada);
      },
    );
  };
  routes('/api/inscricoes/:id', 'user');
  routes('/api/inscricoes/link/:token', 'link');
};
