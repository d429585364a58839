import { formatStoreDateTime } from '@passada/core/calendar';
import { IdParamSchema, IdTextSchema } from '@passada/core/contracts/common';
import {
  CustomerDetailSchema,
  CustomerEraseSchema,
  CustomerNoteCreateSchema,
  CustomerNoteSchema,
  CustomerPageSchema,
  CustomerSearchSchema,
  CustomerTagAddSchema,
  CustomerTagCountsSchema,
  CustomerTagSchema,
  IncidentWindowSchema,
} from '@passada/core/contracts/painel';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actor, audited, PAINEL_ERRORS } from '../staff/index.ts';
import { csvLine, sendCsv } from './csv.ts';

const CUSTOMERS = { painel: { permission: 'clientes' } } as const;

/**
 * Customers (permission `clientes`, docs/decisions/0032): search, orders and registrations, and the
 * LGPD export and erasure (modules/accounts/customers-admin.ts). The audit lines name the customer's
 * id only: never the CPF searched nor the data exported.
 */
/** How the incident export names where a person without an account line is held. */
const INCIDENT_SOURCES = {
  whatsapp: 'Número de WhatsApp sem conta',
  email: 'E-mail sem conta',
  lista_de_espera: 'Lista de espera',
  transferencia_recebida: 'Transferência recebida',
  transferencia_feita: 'Transferência feita',
} as const;

export const customersRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['painel: clientes'];
  const customers = app.accounts.customers;

  app.post(
    '/clientes/busca/',
    {
      config: CUSTOMERS,
      schema: {
        tags,
        summary:
          'Buscar clientes por nome, e-mail ou CPF (no corpo, para o CPF nunca ir a um endereço registrado)',
        body: CustomerSearchSchema,
        response: { 200: CustomerPageSchema, ...PAINEL_ERRORS },
      },
    },
    async (req) => customers.search(req.body.busca, req.body.page, req.body.etiqueta),
  );

  app.get(
    '/clientes/etiquetas/',
    {
      config: CUSTOMERS,
      schema: {
        tags,
        summary: 'As etiquetas em uso e quantos clientes têm cada uma',
        response: { 200: CustomerTagCountsSchema, ...PAINEL_ERRORS },
      },
    },
    async () => customers.tags(),
  );

  app.get(
    '/clientes/:id/',
    {
      config: CUSTOMERS,
      schema: {
        tags,
        summary: 'Um cliente com seus pedidos e inscrições',
        params: IdParamSchema,
        response: { 200: CustomerDetailSchema, ...PAINEL_ERRORS },
      },
    },
    async (req) => customers.detail(req.params.id),
  );

  // Notes and tags (docs/decisions/0080): appended and removed one by one, never overwritten. The
  // audit line names the customer and the note's id, never its text (it may hold personal data).
  app.post(
    '/clientes/:id/notas/',
    {
      config: CUSTOMERS,
      schema: {
        tags,
        summary: 'Escrever uma nota sobre o cliente (ele a recebe se pedir os seus dados)',
        params: IdParamSchema,
        body: CustomerNoteCreateSchema,
        response: { 201: CustomerNoteSchema, ...PAINEL_ERRORS },
      },
    },
    async (req, reply) => {
      const who = actor(req);
      const note = await audited(
        req,
        (tx) => customers.addNote(tx, req.params.id, req.body.texto, { id: who.id, name: who.name }),
        (n) => ({
          action: 'nota_cliente_escrita',
          entity: 'cliente',
          entityId: req.params.id,
          after: { nota: n.id },
        }),
      );
      return reply.status(201).send(note);
    },
  );

  app.delete(
    '/clientes/:id/notas/:nota/',
    {
      config: CUSTOMERS,
      schema: {
        tags,
        summary: 'Apagar uma nota do cliente',
        params: IdParamSchema.extend({ nota: IdTextSchema }),
        response: { 204: z.null(), ...PAINEL_ERRORS },
      },
    },
    async (req, reply) => {
      await audited(req, (tx) => customers.deleteNote(tx, req.params.id, req.params.nota), {
        action: 'nota_cliente_apagada',
        entity: 'cliente',
        entityId: req.params.id,
        before: { nota: req.params.nota },
      });
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/clientes/:id/etiquetas/',
    {
      config: CUSTOMERS,
      schema: {
        tags,
        summary: 'Dar uma etiqueta ao cliente (as que ele já tem ficam)',
        params: IdParamSchema,
        body: CustomerTagAddSchema,
        response: { 200: z.array(z.string()), ...PAINEL_ERRORS },
      },
    },
    async (req) =>
      audited(req, (tx) => customers.addTag(tx, req.params.id, req.body.etiqueta), {
        action: 'etiqueta_cliente_dada',
        entity: 'cliente',
        entityId: req.params.id,
        after: { etiqueta: req.body.etiqueta },
      }),
  );

  app.delete(
    '/clientes/:id/etiquetas/:etiqueta/',
    {
      config: CUSTOMERS,
      schema: {
        tags,
        summary: 'Tirar uma etiqueta do cliente (as outras ficam)',
        params: IdParamSchema.extend({ etiqueta: CustomerTagSchema }),
        response: { 200: z.array(z.string()), ...PAINEL_ERRORS },
      },
    },
    async (req) =>
      audited(req, (tx) => customers.removeTag(tx, req.params.id, req.params.etiqueta), {
        action: 'etiqueta_cliente_tirada',
        entity: 'cliente',
        entityId: req.params.id,
        before: { etiqueta: req.params.etiqueta },
      }),
  );

  app.post(
    '/clientes/:id/exportar/',
    {
      config: CUSTOMERS,
      schema: {
        tags,
        summary: 'Exportar os dados pessoais de um cliente (LGPD art. 18 II e V), registrado na auditoria',
        params: IdParamSchema,
        response: { 200: z.record(z.string(), z.unknown()), ...PAINEL_ERRORS },
      },
    },
    async (req) =>
      audited(req, (tx) => customers.exportData(tx, req.params.id), {
        action: 'dados_exportados',
        entity: 'cliente',
        entityId: req.params.id,
      }),
  );

  app.post(
    '/clientes/:id/excluir/',
    {
      config: CUSTOMERS,
      schema: {
        tags,
        summary:
          'Excluir os dados pessoais de um cliente a pedido dele (LGPD art. 18 VI), registrado na auditoria',
        params: IdParamSchema,
        body: CustomerEraseSchema,
        response: { 204: z.null(), ...PAINEL_ERRORS },
      },
    },
    async (req, reply) => {
      await audited(req, (tx) => customers.erase(tx, req.params.id), {
        action: 'dados_excluidos',
        entity: 'cliente',
        entityId: req.params.id,
        after: { motivo: req.body.motivo },
      });
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/clientes/incidente.csv',
    {
      // Everyone's data in one file: the admin alone (the team permission), and audited.
      config: { painel: { permission: 'equipe' } },
      schema: {
        tags,
        summary:
          'Exportar, para um incidente de segurança, as contas cujos dados a loja guardava no período e os tipos de dado de cada uma (CSV; Resolução CD/ANPD 15/2024), registrado na auditoria',
        querystring: IncidentWindowSchema,
      },
    },
    async (req, reply) => {
      const from = new Date(`${req.query.desde}T00:00:00-03:00`);
      const to = new Date(`${req.query.ate}T23:59:59.999-03:00`);
      const { accounts, others } = await audited(req, (tx) => customers.incident(tx, from, to), {
        action: 'incidente_exportado',
        entity: 'cliente',
        entityId: null,
        after: { desde: req.query.desde, ate: req.query.ate },
      });
      const yes = (b: boolean) => (b ? 'Sim' : 'Não');
      return sendCsv(reply, `incidente-${req.query.desde}-a-${req.query.ate}.csv`, [
        csvLine([
          'Conta',
          'Nome',
          'E-mail',
          'Criada em',
          'Excluída em',
          'Dados da conta (nome, e-mail)',
          'Endereços (com telefone)',
          'Pedidos (itens, endereço, CPF do pagador)',
          'Inscrições (nome, CPF, nascimento, telefone, endereço, contato de emergência)',
          'Dado de saúde (PCD)',
          'Consentimento WhatsApp',
          'Notas e etiquetas da loja',
        ]),
        ...accounts.map((a) =>
          csvLine([
            a.id,
            a.deletedAt ? '' : a.name,
            a.deletedAt ? '' : a.email,
            formatStoreDateTime(a.createdAt),
            a.deletedAt ? formatStoreDateTime(a.deletedAt) : '',
            yes(a.deletedAt === null),
            a.addresses,
            a.orders,
            a.registrations,
            yes(a.healthData > 0),
            yes(a.whatsappConsent),
            yes(a.staffNotes),
          ]),
        ),
        // Then, after a blank line, the people the shop holds without an account line of their own.
        '',
        csvLine(['Origem', 'Nome', 'E-mail ou WhatsApp', 'Desde', 'Dados guardados']),
        ...others.map((p) =>
          csvLine([INCIDENT_SOURCES[p.source], p.name, p.contact, formatStoreDateTime(p.since), p.data]),
        ),
      ]);
    },
  );
};
