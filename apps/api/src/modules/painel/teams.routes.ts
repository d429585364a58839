import { IdParamSchema } from '@passada/core/contracts/common';
import { PainelTeamQuotaSchema, PainelTeamSchema, TeamQuotaInputSchema } from '@passada/core/contracts/teams';
import { centsToCommaString } from '@passada/core/money';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { audited } from '../staff/index.ts';
import { csvLine, sendCsv } from './csv.ts';
import { EVENT_READ, EVENTS, eventOrNotFound, eventRouteSchema } from './events.common.ts';

const CSV_HEADER = [
  'Equipe',
  'Código',
  'Capitão',
  'E-mail do capitão',
  'Inscrição',
  'Membro',
  'Categorias',
  'Valor pago (R$)',
  'Kit retirado',
  'Vaga paga pela equipe',
];

/**
 * An event's teams (docs/decisions/0067-teams.md): each with its captain, code and the members
 * registered in this event, what they paid and whether their kit went out; and the same as a CSV.
 */
export const teamsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { tags, errors } = eventRouteSchema;

  app.get(
    '/events/:id/equipes/',
    {
      config: EVENT_READ,
      schema: {
        tags,
        summary:
          'As equipes do evento (e as da temporada com membros nele): capitão, código e membros inscritos',
        params: IdParamSchema,
        response: { 200: z.array(PainelTeamSchema), ...errors },
      },
    },
    async (req) => {
      await eventOrNotFound(app, req.params.id);
      return app.registrationsAdmin.teams(req.params.id);
    },
  );

  const quotas = app.registrationsAdmin.teamQuotas;
  app.get(
    '/events/:id/cotas-equipes/',
    {
      config: EVENT_READ,
      schema: {
        tags,
        summary: 'As vagas reservadas para equipes na abertura: quantas, usadas pelos membros, até quando',
        params: IdParamSchema,
        response: { 200: z.array(PainelTeamQuotaSchema), ...errors },
      },
    },
    async (req) => {
      await eventOrNotFound(app, req.params.id);
      return quotas.forStaff(req.params.id);
    },
  );

  app.put(
    '/events/:id/cotas-equipes/',
    {
      config: EVENTS,
      schema: {
        tags,
        summary:
          'Reservar vagas de uma distância para uma equipe (0 encerra): seus membros se inscrevem sem fila nem sorteio',
        params: IdParamSchema,
        body: TeamQuotaInputSchema,
        response: { 200: z.array(PainelTeamQuotaSchema), ...errors },
      },
    },
    async (req) => {
      await eventOrNotFound(app, req.params.id);
      await audited(
        req,
        async (tx) => {
          await quotas.save(tx, req.params.id, req.body);
          // Places may have gone back to the public: the waitlist's first in line are offered them.
          await app.registrationsAdmin.waitlist.nudge(tx);
        },
        () => ({
          action: 'cota_equipe_definida',
          entity: 'evento',
          entityId: req.params.id,
          after: req.body,
        }),
      );
      return quotas.forStaff(req.params.id);
    },
  );

  app.get(
    '/events/:id/equipes.csv',
    {
      // Captains' e-mails and members' names: who runs events.
      config: EVENTS,
      schema: {
        tags,
        summary: 'As equipes do evento em CSV, uma linha por membro (UTF-8 com BOM, separador ;)',
        params: IdParamSchema,
      },
    },
    async (req, reply) => {
      const event = await eventOrNotFound(app, req.params.id);
      const lines = [csvLine(CSV_HEADER)];
      for (const team of await app.registrationsAdmin.teams(req.params.id)) {
        const head = [team.nome, team.codigo, team.capitao?.nome ?? '', team.capitao?.email ?? ''];
        if (team.membros.length === 0) lines.push(csvLine([...head, '', '', '', '', '', '']));
        for (const m of team.membros)
          lines.push(
            csvLine([
              ...head,
              m.inscricao,
              m.nome,
              m.categorias.join(', '),
              centsToCommaString(m.pago_centavos),
              m.kit_retirado ? 'Sim' : 'Não',
              m.vaga_da_equipe ? 'Sim' : 'Não',
            ]),
          );
      }
      return sendCsv(reply, `equipes-evento-${event.id}.csv`, lines);
    },
  );
};
