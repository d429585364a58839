import { ApiErrorSchema, IdParamSchema, IdTextSchema } from '@passada/core/contracts/common';
import { ParticipantSchema } from '@passada/core/contracts/registrations';
import {
  MyTeamSchema,
  TeamClaimedSchema,
  TeamClaimTokenSchema,
  TeamClaimViewSchema,
  TeamCodeSchema,
  TeamCreateSchema,
  TeamInviteAnswerSchema,
  TeamInviteImportedSchema,
  TeamInviteImportSchema,
  TeamInviteTokenSchema,
  TeamInviteViewSchema,
  TeamOpenSchema,
  TeamPublicSchema,
} from '@passada/core/contracts/teams';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '../../plugins/auth.ts';
import type { TeamInvites } from './team-invites.ts';
import type { TeamPlaces } from './team-places.ts';
import type { Teams } from './teams.ts';

/**
 * Teams (docs/decisions/0067-teams.md): the captain makes them and sees who joined in "Minha conta";
 * anyone with a code reads which team it is (the registration form shows it before the runner pays).
 */
export const teamsRoutes: FastifyPluginAsyncZod<{
  teams: Teams;
  places: TeamPlaces;
  invites: TeamInvites;
}> = async (app, { teams, places, invites }) => {
  const tags = ['equipes'];
  /** The public look-ups by a code or a link's secret: guessing them by the thousand is refused. */
  const publicLookup = (name: string) => ({
    name,
    max: app.env.TEAM_CODE_LOOKUP_RATE_LIMIT_PER_IP,
    windowSeconds: 600,
  });
  const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 404: ApiErrorSchema, 409: ApiErrorSchema };

  app.get(
    '/api/equipes/',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'As equipes de que a conta é capitã, com código, convite e quem entrou (nome e distância)',
        response: { 200: z.array(MyTeamSchema), ...errors },
      },
    },
    async (request) => teams.mine(await requireUser(request)),
  );

  app.post(
    '/api/equipes/',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Criar uma equipe (de um evento, ou de todos os eventos da temporada); a conta é a capitã',
        body: TeamCreateSchema,
        response: { 201: MyTeamSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await teams.create(await requireUser(request), request.body)),
  );

  app.put(
    '/api/equipes/:id/aberta/',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Abrir ou fechar a equipe a novos membros (quem já entrou continua)',
        params: IdParamSchema,
        body: TeamOpenSchema,
        response: { 200: MyTeamSchema, ...errors },
      },
    },
    async (request) => teams.setOpen(await requireUser(request), request.params.id, request.body.aberta),
  );

  app.get(
    '/api/equipes/codigo/:codigo/',
    {
      // Public: a code is read once per form; guessing codes by the thousand is refused.
      config: { limit: publicLookup('equipe-codigo') },
      schema: {
        tags,
        summary: 'Qual equipe um código nomeia (nome, evento, se aceita membros); nenhum membro',
        params: z.object({ codigo: TeamCodeSchema }),
        response: { 200: TeamPublicSchema, 429: ApiErrorSchema, ...errors },
      },
    },
    (request) => teams.byCode(request.params.codigo),
  );

  // A team's places bought by the captain, claimed by members (docs/decisions/0073). The purchase is
  // a charge of purpose 'vagas_equipe' (POST /api/pix/ or /api/pagar-cartao/).
  const tokenParams = z.object({ token: TeamClaimTokenSchema });

  app.get(
    '/api/equipes/vagas/:token/',
    {
      // Public: the link is the secret; guessing links by the thousand is refused.
      config: { limit: publicLookup('equipe-vagas') },
      schema: {
        tags,
        summary: 'O que um link de vaga da equipe oferece: equipe, corrida, distância e vagas restantes',
        params: tokenParams,
        response: { 200: TeamClaimViewSchema, 429: ApiErrorSchema, ...errors },
      },
    },
    (request) => places.claimView(request.params.token),
  );

  app.post(
    '/api/equipes/vagas/:token/resgatar/',
    {
      config: {
        auth: 'user',
        limit: {
          name: 'equipe-vagas-resgate',
          max: app.env.TEAM_PLACE_CLAIM_RATE_LIMIT_PER_ACCOUNT,
          windowSeconds: 600,
          per: 'account',
        },
      },
      schema: {
        tags,
        summary:
          'Usar uma vaga paga pela equipe com os próprios dados (as regras de uma inscrição valem todas)',
        params: tokenParams,
        body: ParticipantSchema,
        response: { 201: TeamClaimedSchema, 429: ApiErrorSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await places.claim(await requireUser(request), request.params.token, request.body)),
  );

  app.post(
    '/api/equipes/:id/vagas/:lote/encerrar/',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary:
          'O capitão encerra as vagas antes do prazo: as não usadas são devolvidas ou voltam à venda, como o evento define',
        params: IdParamSchema.extend({ lote: IdTextSchema }),
        response: { 200: MyTeamSchema, ...errors },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      await places.closeByCaptain(user, request.params.id, request.params.lote);
      const [team] = await teams.mine(user, request.params.id);
      return team!;
    },
  );

  // A captain's list of members (docs/decisions/0075): each person confirms or refuses by the e-mail's link.
  const inviteLimit = publicLookup('equipe-convite');
  const inviteParams = z.object({ token: TeamInviteTokenSchema });

  app.post(
    '/api/equipes/:id/convites/',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary:
          'O capitão envia uma lista (CSV com Nome e E-mail): cada pessoa recebe um convite para confirmar ou recusar',
        params: IdParamSchema,
        body: TeamInviteImportSchema,
        response: { 201: TeamInviteImportedSchema, 429: ApiErrorSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await invites.importList(await requireUser(request), request.params.id, request.body.arquivo)),
  );

  app.get(
    '/api/equipes/convite/:token/',
    {
      config: { limit: inviteLimit },
      schema: {
        tags,
        summary: 'O convite de uma equipe, como a pessoa convidada o vê (o link do e-mail)',
        params: inviteParams,
        response: { 200: TeamInviteViewSchema, 429: ApiErrorSchema, ...errors },
      },
    },
    (request) => invites.view(request.params.token),
  );

  app.post(
    '/api/equipes/convite/:token/resposta/',
    {
      config: { limit: inviteLimit },
      schema: {
        tags,
        summary:
          'Confirmar ou recusar o convite; recusado, o nome e o e-mail dados pelo capitão são apagados',
        params: inviteParams,
        body: TeamInviteAnswerSchema,
        response: { 200: TeamInviteViewSchema.nullable(), 429: ApiErrorSchema, ...errors },
      },
    },
    (request) => invites.answer(request.params.token, request.body.aceito),
  );
};
