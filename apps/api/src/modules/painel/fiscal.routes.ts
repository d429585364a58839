import { IdParamSchema } from '@passada/core/contracts/common';
import {
  FiscalSettingsSaveSchema,
  FiscalSettingsSchema,
  MonthNotaSchema,
  NfseMonthSchema,
  PainelNotaSchema,
  ProductFiscalSchema,
  ProductFiscalViewSchema,
  ReformRulesSchema,
} from '@passada/core/contracts/fiscal';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError } from '../../plugins/errors.ts';
import { audited, PAINEL_ERRORS } from '../staff/index.ts';

const IdSchema = IdParamSchema;

/**
 * Notas fiscais in the back office (docs/decisions/0043): the shop's fiscal settings (read with the
 * reports, saved by who edits the catalogue), a product's NCM and origin, an order's notas and a retry.
 */
export const fiscalRoutes: FastifyPluginAsyncZod = async (app) => {
  const fiscal = app.fiscal;
  const tags = ['painel: notas fiscais'];

  app.get(
    '/fiscal/',
    {
      config: { painel: { permission: ['relatorios', 'catalogo'] } },
      schema: {
        tags,
        summary:
          'Configurações fiscais: empresa, regime, endereço, regras de CFOP e tributação, código de serviço',
        response: { 200: FiscalSettingsSchema, ...PAINEL_ERRORS },
      },
    },
    async () => fiscal.readSettings(),
  );

  app.get(
    '/fiscal/reforma/',
    {
      config: { painel: { permission: ['relatorios', 'catalogo'] } },
      schema: {
        tags,
        summary:
          'Reforma tributária: as regras em vigor hoje para o regime da loja, as próximas e a partir de quando, e os campos da NFS-e por município',
        response: { 200: ReformRulesSchema, ...PAINEL_ERRORS },
      },
    },
    async () => fiscal.reformRules(),
  );

  app.put(
    '/fiscal/',
    {
      config: { painel: { permission: 'catalogo' } },
      schema: {
        tags,
        summary: 'Salva as configurações fiscais (com a versão lida; 409 versao_desatualizada)',
        body: FiscalSettingsSaveSchema,
        response: { 200: FiscalSettingsSchema, ...PAINEL_ERRORS },
      },
    },
    async (req) => {
      const { after } = await audited(
        req,
        (tx) => fiscal.saveSettings(tx, req.body),
        ({ before, after }) => ({ action: 'alterado', entity: 'fiscal', entityId: 1, before, after }),
      );
      return after;
    },
  );

  app.get(
    '/products/:id/fiscal/',
    {
      config: { painel: { permission: 'catalogo' } },
      schema: {
        tags,
        summary: 'NCM e origem do produto (null enquanto não informados)',
        params: IdSchema,
        response: { 200: ProductFiscalViewSchema.nullable(), ...PAINEL_ERRORS },
      },
    },
    async (req) => fiscal.productFiscal(req.params.id),
  );

  app.put(
    '/products/:id/fiscal/',
    {
      config: { painel: { permission: 'catalogo' } },
      schema: {
        tags,
        summary: 'Salva NCM e origem do produto',
        params: IdSchema,
        body: ProductFiscalSchema,
        response: { 200: ProductFiscalViewSchema, ...PAINEL_ERRORS },
      },
    },
    async (req) => {
      const before = await fiscal.productFiscal(req.params.id);
      await audited(req, (tx) => fiscal.saveProductFiscal(tx, req.params.id, req.body), {
        action: 'dados fiscais',
        entity: 'produto',
        entityId: req.params.id,
        before,
        after: req.body,
      });
      return req.body;
    },
  );

  app.get(
    '/orders/:id/notas/',
    {
      config: { painel: { permission: 'pedidos' } },
      schema: {
        tags,
        summary: 'Notas fiscais do pedido: autorizada (chave), pendente (com o motivo), erro, cancelada',
        params: IdSchema,
        response: { 200: z.array(PainelNotaSchema), ...PAINEL_ERRORS },
      },
    },
    async (req) => fiscal.painelNotasOfOrder(req.params.id),
  );

  app.post(
    '/notas/:id/tentar-novamente/',
    {
      config: { painel: { permission: 'pedidos' } },
      schema: {
        tags,
        summary: 'Pede de novo a emissão de uma nota parada (erro) ou pendente',
        params: IdSchema,
        response: { 202: z.object({ id: z.number().int() }), ...PAINEL_ERRORS },
      },
    },
    async (req, reply) => {
      const done = await audited(
        req,
        (tx) => fiscal.retry(tx, req.params.id),
        (r) => ({ action: 'nova tentativa', entity: 'nota', entityId: r.id, before: { status: r.before } }),
      );
      return reply.status(202).send({ id: done.id });
    },
  );

  app.get(
    '/fiscal/nfse-mensal/',
    {
      config: { painel: { permission: 'pedidos' } },
      schema: {
        tags,
        summary: 'NFS-e de um mês por evento (NFSE_GROUPING=event_month): situação, valor, inscrições',
        querystring: z.object({ mes: NfseMonthSchema }),
        response: { 200: z.array(MonthNotaSchema), ...PAINEL_ERRORS },
      },
    },
    async (req) => fiscal.monthNotas(req.query.mes),
  );

  app.post(
    '/fiscal/nfse-mensal/',
    {
      config: { painel: { permission: 'pedidos' } },
      schema: {
        tags,
        summary:
          'Emitir agora: uma NFS-e por evento para as inscrições pagas de um mês já encerrado ainda sem nota (uma vez por evento e mês)',
        body: z.object({ mes: NfseMonthSchema }),
        response: { 202: z.array(MonthNotaSchema), ...PAINEL_ERRORS },
      },
    },
    async (req, reply) => {
      if (app.env.NFSE_GROUPING !== 'event_month')
        throw new HttpError(
          409,
          'A loja emite uma NFS-e por inscrição (NFSE_GROUPING=registration): não há nota do mês a emitir.',
          'agrupamento_desligado',
        );
      await audited(
        req,
        (tx) => fiscal.issueEventMonth(req.body.mes, tx),
        (done) => ({
          action: 'nfse do mês emitida',
          entity: 'fiscal',
          entityId: 1,
          after: { mes: req.body.mes, notas: done.filter((d) => d.created).map((d) => d.documentId) },
        }),
      );
      return reply.status(202).send(await fiscal.monthNotas(req.body.mes));
    },
  );
};
