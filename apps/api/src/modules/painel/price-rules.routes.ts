import { ApiErrorSchema, IdParamSchema, IdTextSchema } from '@passada/core/contracts/common';
import {
  PainelPriceRuleSchema,
  PriceRuleInputSchema,
  PriceRuleListImportedSchema,
  PriceRuleListImportSchema,
} from '@passada/core/contracts/price-rules';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { audited, PAINEL_ERRORS } from '../staff/index.ts';
import { EVENT_READ, EVENTS, eventOrNotFound } from './events.common.ts';

/**
 * Price rules by who the runner is (docs/decisions/0068): the organiser's rules per category with their
 * caps and uses, audited edits, and a `lista` rule's CPFs from a CSV (`app.events.priceRules`).
 */
export const priceRulesRoutes: FastifyPluginAsyncZod = async (app) => {
  const rules = app.events.priceRules;
  const tags = ['painel: eventos'];
  const errors = { ...PAINEL_ERRORS, 400: ApiErrorSchema, 404: ApiErrorSchema, 409: ApiErrorSchema };
  const RuleParams = z.object({ id: IdTextSchema, regra: IdTextSchema });
  const answer = { 200: z.array(PainelPriceRuleSchema), ...errors };

  app.get(
    '/events/:id/regras-preco/',
    {
      config: EVENT_READ,
      schema: {
        tags,
        summary: 'Os preços especiais do evento por categoria: público, desconto, limite, vagas usadas',
        params: IdParamSchema,
        response: answer,
      },
    },
    async (req) => {
      await eventOrNotFound(app, req.params.id);
      return rules.forStaff(req.params.id);
    },
  );

  app.post(
    '/events/:id/regras-preco/',
    {
      config: EVENTS,
      schema: {
        tags,
        summary: 'Criar um preço especial (meia, preço fixo ou gratuidade) para um público de uma categoria',
        params: IdParamSchema,
        body: PriceRuleInputSchema,
        response: { ...answer, 201: z.array(PainelPriceRuleSchema) },
      },
    },
    async (req, reply) => {
      await eventOrNotFound(app, req.params.id);
      const after = await audited(
        req,
        (tx) => rules.create(tx, req.params.id, req.body),
        (list) => ({
          action: 'regra_preco_criada',
          entity: 'evento',
          entityId: req.params.id,
          // The newest rule is the one just made.
          after: list.reduce<(typeof list)[number] | null>((a, r) => (a && a.id > r.id ? a : r), null),
        }),
      );
      return reply.status(201).send(after);
    },
  );

  app.put(
    '/events/:id/regras-preco/:regra/',
    {
      config: EVENTS,
      schema: {
        tags,
        summary: 'Alterar um preço especial; as inscrições já feitas mantêm o que pagaram',
        params: RuleParams,
        body: PriceRuleInputSchema,
        response: answer,
      },
    },
    async (req) =>
      audited(
        req,
        (tx) => rules.update(tx, req.params.id, req.params.regra, req.body),
        (list) => ({
          action: 'regra_preco_alterada',
          entity: 'evento',
          entityId: req.params.id,
          after: list.find((r) => r.id === req.params.regra) ?? null,
        }),
      ),
  );

  app.delete(
    '/events/:id/regras-preco/:regra/',
    {
      config: EVENTS,
      schema: {
        tags,
        summary: 'Arquivar um preço especial: deixa de ser oferecido; as inscrições feitas com ele ficam',
        params: RuleParams,
        response: answer,
      },
    },
    async (req) =>
      audited(
        req,
        (tx) => rules.archive(tx, req.params.id, req.params.regra),
        () => ({
          action: 'regra_preco_arquivada',
          entity: 'evento',
          entityId: req.params.id,
          after: { regra: req.params.regra },
        }),
      ),
  );

  app.put(
    '/events/:id/regras-preco/:regra/lista/',
    {
      config: EVENTS,
      schema: {
        tags,
        summary:
          'Trocar a lista de CPFs de uma regra de lista (sócios de um clube, cota social) por um CSV: CPF na primeira coluna',
        params: RuleParams,
        body: PriceRuleListImportSchema,
        response: { 200: PriceRuleListImportedSchema, ...errors },
      },
    },
    async (req) =>
      audited(
        req,
        (tx) => rules.importList(tx, req.params.id, req.params.regra, req.body.csv),
        (done) => ({
          action: 'regra_preco_lista_importada',
          entity: 'evento',
          entityId: req.params.id,
          // How many, never the CPFs themselves.
          after: { regra: req.params.regra, cpfs: done.cpfs, recusadas: done.recusadas.length },
        }),
      ),
  );
};
