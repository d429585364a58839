import { formatStoreDateTime } from '@passada/core/calendar';
import { IdParamSchema } from '@passada/core/contracts/common';
import {
  LOTTERY_ENTRIES_CSV_HEADER,
  LOTTERY_ENTRY_STATE_LABEL,
  PainelLotteryEntryPageSchema,
  PainelLotteryEntryQuerySchema,
} from '@passada/core/contracts/lottery';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PAINEL_ERRORS } from '../staff/index.ts';
import { csvLine, sendCsv } from './csv.ts';

const EVENTS = { painel: { permission: 'eventos' } } as const;

/**
 * The people of an event's lottery (docs/decisions/0051-lottery-opening.md): a page of its entries with
 * each one's state, filtered and searched on the server, and the same list as a CSV
 * (modules/opening/lottery.service.ts, `painelEntries`). The screen shows the CPF masked; the CSV
 * carries it whole, as the participants' CSV does.
 */
export const lotteryEntriesRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['painel: eventos'];

  app.get(
    '/events/:id/sorteio/inscricoes/',
    {
      config: EVENTS,
      schema: {
        tags,
        summary:
          'Inscrições no sorteio com a situação de cada uma (filtro por situação; busca por número, nome, e-mail ou CPF), paginadas',
        params: IdParamSchema,
        querystring: PainelLotteryEntryQuerySchema,
        response: { 200: PainelLotteryEntryPageSchema, ...PAINEL_ERRORS },
      },
    },
    async (req) => {
      const { results, count, page_size } = await app.lottery.painelEntries(
        req.params.id,
        req.query,
        req.query.pagina,
      );
      return { results, count, page_size };
    },
  );

  app.get(
    '/events/:id/sorteio/inscricoes.csv',
    {
      config: EVENTS,
      schema: {
        tags,
        summary: 'Inscrições no sorteio em CSV com os filtros da lista (UTF-8 com BOM, separador ;)',
        params: IdParamSchema,
        querystring: PainelLotteryEntryQuerySchema.omit({ pagina: true }),
      },
    },
    async (req, reply) => {
      const { results, cpfs } = await app.lottery.painelEntries(req.params.id, req.query, null);
      const lines = [LOTTERY_ENTRIES_CSV_HEADER.join(';')];
      results.forEach((e, i) => {
        lines.push(
          csvLine([
            e.id,
            e.nome_completo,
            cpfs[i]!,
            e.email,
            e.categoria_nome,
            LOTTERY_ENTRY_STATE_LABEL[e.estado],
            e.posicao ?? '',
            e.sorteio ?? '',
            e.pagar_ate ? formatStoreDateTime(new Date(e.pagar_ate)) : '',
            formatStoreDateTime(new Date(e.inscrito_em)),
          ]),
        );
      });
      return sendCsv(reply, `sorteio-evento-${req.params.id}.csv`, lines);
    },
  );
};
