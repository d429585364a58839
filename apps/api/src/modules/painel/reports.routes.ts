import { IdParamSchema } from '@passada/core/contracts/common';
import { PAYMENT_METHOD_LABEL } from '@passada/core/contracts/orders';
import { EventMoneyListSchema, EventReportSchema } from '@passada/core/contracts/painel-reports';
import { centsToCommaString, reaisToCents } from '@passada/core/money';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notFound } from '../../plugins/errors.ts';
import { PAINEL_ERRORS } from '../staff/index.ts';
import { csvLine, sendCsv } from './csv.ts';

const REPORTS = { painel: { permission: 'relatorios' } } as const;
const money = (reais: number) => centsToCommaString(reaisToCents(reais));

/**
 * Reports (docs/decisions/0039): each event's money (gross, refunded, net; per payment method and per
 * lot; what transfers and changes of distance paid) and its registrations per day, summed by the
 * registrations module in SQL; one CSV of the figures.
 */
export const reportsRoutes: FastifyPluginAsyncZod = async (app) => {
  const admin = app.registrationsAdmin;
  const tags = ['painel: relatórios'];

  app.get(
    '/relatorios/eventos/',
    {
      config: REPORTS,
      schema: {
        tags,
        summary: 'Dinheiro de cada evento: bruto, devolvido e líquido (o mais novo primeiro)',
        response: { 200: EventMoneyListSchema, ...PAINEL_ERRORS },
      },
    },
    async () => admin.moneyPerEvent(),
  );

  const reportOf = async (id: number) => {
    const report = await admin.eventReport(id);
    if (!report) throw notFound('Evento não encontrado.');
    return report;
  };

  app.get(
    '/relatorios/eventos/:id/',
    {
      config: REPORTS,
      schema: {
        tags,
        summary: 'Relatório de um evento: dinheiro por forma de pagamento e por lote, inscrições por dia',
        params: IdParamSchema,
        response: { 200: EventReportSchema, ...PAINEL_ERRORS },
      },
    },
    async (req) => reportOf(req.params.id),
  );

  app.get(
    '/relatorios/eventos/:id/relatorio.csv',
    {
      config: REPORTS,
      schema: {
        tags,
        summary: 'O relatório do evento em CSV (UTF-8 com BOM, separador ;)',
        params: IdParamSchema,
      },
    },
    async (req, reply) => {
      const r = await reportOf(req.params.id);
      const lines = [
        csvLine([
          'Seção',
          'Item',
          'Inscrições',
          'Canceladas',
          'Bruto (R$)',
          'Devolvido (R$)',
          'Líquido (R$)',
        ]),
        csvLine([
          'Total',
          r.evento,
          r.inscricoes,
          r.canceladas,
          money(r.bruto),
          money(r.devolvido),
          money(r.liquido),
        ]),
        ...r.por_metodo.map((m) =>
          csvLine([
            'Forma de pagamento',
            PAYMENT_METHOD_LABEL[m.metodo],
            m.inscricoes,
            m.canceladas,
            money(m.bruto),
            money(m.devolvido),
            money(m.liquido),
          ]),
        ),
        ...r.por_lote.map((l) =>
          csvLine([
            'Lote (preço de tabela)',
            `${l.categoria} · ${l.lote ?? 'Preço da categoria'}`,
            l.inscricoes,
            l.canceladas,
            money(l.valor),
            '',
            '',
          ]),
        ),
        ...r.por_regra.map((p) =>
          csvLine([
            'Preço (especial, 60+ ou do lote)',
            p.regra,
            p.inscricoes,
            p.canceladas,
            money(p.valor),
            '',
            '',
          ]),
        ),
        csvLine(['Descontos de cupons', '', '', '', money(r.descontos), '', '']),
        csvLine(['Transferências e trocas de distância', '', '', '', money(r.pos_venda), '', '']),
        ...r.por_dia.map((d) =>
          csvLine(['Inscrições por dia', d.dia, d.inscricoes, d.canceladas, '', '', '']),
        ),
      ];
      return sendCsv(reply, `relatorio-evento-${r.evento_id}.csv`, lines);
    },
  );
};
