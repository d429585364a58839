import { ApiErrorSchema, IdParamSchema, IdTextSchema } from '@passada/core/contracts/common';
import {
  CertificateDesignSaveSchema,
  PainelCertificateDesignSchema,
  PainelResultPhotoSchema,
  ResultImportBodySchema,
  ResultLinksSchema,
  ResultPhotoBibsSchema,
  ResultPhotoFileAnswerSchema,
  ResultPhotoFileSchema,
  ResultPreviewSchema,
  ResultPublishSchema,
  TimerBodySchema,
  TimerSchema,
} from '@passada/core/contracts/results';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actor, audit, audited, creation, PAINEL_ERRORS } from '../staff/index.ts';
import { EVENT_READ, EVENTS, EventIdSchema, eventOrNotFound } from './events.common.ts';
import { photoKeys, readUploadedPhotoFile } from './photos.ts';

const ImportParamsSchema = z.object({ id: IdTextSchema, importacao: IdTextSchema });
const PhotoParamsSchema = z.object({ id: IdTextSchema, foto: IdTextSchema });

/**
 * Results after the finish line (docs/decisions/0064): the timers and their columns, a timer's file
 * read into a preview, and its publication, each an audited call to `app.results.admin`.
 */
export const resultsRoutes: FastifyPluginAsyncZod = async (app) => {
  const admin = app.results.admin;
  const tags = ['painel: resultados'];
  const errors = { ...PAINEL_ERRORS, 404: ApiErrorSchema, 409: ApiErrorSchema };

  app.get(
    '/cronometragens/',
    {
      config: EVENT_READ,
      schema: {
        tags,
        summary: 'Cronometragens e as colunas do arquivo de cada uma',
        response: { 200: z.array(TimerSchema), ...errors },
      },
    },
    async () => admin.timers(),
  );

  app.post(
    '/cronometragens/',
    {
      config: EVENTS,
      schema: {
        tags,
        summary: 'Cadastrar uma cronometragem e as colunas do arquivo dela (usadas em todas as importações)',
        body: TimerBodySchema,
        response: { 201: TimerSchema, ...errors },
      },
    },
    async (req, reply) => {
      const timer = await audited(req, (tx) => admin.saveTimer(tx, req.body), creation('cronometragem'));
      return reply.status(201).send(timer);
    },
  );

  app.put(
    '/cronometragens/:id/',
    {
      config: EVENTS,
      schema: {
        tags,
        summary: 'Alterar o nome ou as colunas de uma cronometragem',
        params: IdParamSchema,
        body: TimerBodySchema,
        response: { 200: TimerSchema, ...errors },
      },
    },
    async (req) =>
      audited(
        req,
        (tx) => admin.saveTimer(tx, req.body, req.params.id),
        (timer) => ({ action: 'alterado', entity: 'cronometragem', entityId: timer.id, after: timer }),
      ),
  );

  app.post(
    '/events/:id/resultados/importacoes/',
    {
      config: EVENTS,
      // The file travels as text in the body: up to 256 bytes per line allowed.
      bodyLimit: app.env.RESULTS_IMPORT_MAX_LINES * 256,
      schema: {
        tags,
        summary:
          'Ler o arquivo da cronometragem (CSV ou TXT; ; , ou tabulação) numa prévia: nada é publicado; lista as linhas sem participante e o motivo',
        params: EventIdSchema,
        body: ResultImportBodySchema,
        response: { 201: ResultPreviewSchema, ...errors },
      },
    },
    async (req, reply) => {
      await eventOrNotFound(app, req.params.id);
      const preview = await audited(
        req,
        (tx) => admin.importFile(tx, req.params.id, req.body),
        (p) => ({
          action: 'resultados_importados',
          entity: 'evento',
          entityId: req.params.id,
          after: { importacao: p.id, arquivo: p.arquivo, dia: p.dia, linhas: p.linhas, validas: p.validas },
        }),
      );
      return reply.status(201).send(preview);
    },
  );

  app.get(
    '/events/:id/resultados/importacoes/:importacao/',
    {
      config: EVENT_READ,
      schema: {
        tags,
        summary: 'A prévia de uma importação, conferida de novo com os números de peito de agora',
        params: ImportParamsSchema,
        response: { 200: ResultPreviewSchema, ...errors },
      },
    },
    async (req) => admin.showImport(req.params.id, req.params.importacao),
  );

  app.get(
    '/events/:id/resultados/loja/',
    {
      config: EVENT_READ,
      schema: {
        tags,
        summary:
          'A camisa finisher e a próxima edição que a página de cada concluinte e o e-mail de resultado mostram',
        params: EventIdSchema,
        response: { 200: ResultLinksSchema, ...errors },
      },
    },
    async (req) => {
      await eventOrNotFound(app, req.params.id);
      return admin.links(req.params.id);
    },
  );

  app.put(
    '/events/:id/resultados/loja/',
    {
      config: EVENTS,
      schema: {
        tags,
        summary:
          'Definir a camisa finisher (um produto do catálogo) e a próxima edição (um evento depois deste); null tira',
        params: EventIdSchema,
        body: ResultLinksSchema,
        response: { 200: ResultLinksSchema, ...errors },
      },
    },
    async (req) =>
      audited(
        req,
        (tx) => admin.saveLinks(tx, req.params.id, req.body),
        (after) => ({ action: 'alterado', entity: 'resultados_loja', entityId: req.params.id, after }),
      ),
  );

  app.get(
    '/events/:id/resultados/certificado/',
    {
      config: EVENT_READ,
      schema: {
        tags,
        summary: 'O modelo dos certificados do evento (modelo, cor, assinatura e mensagem) com a versão lida',
        params: EventIdSchema,
        response: { 200: PainelCertificateDesignSchema, ...errors },
      },
    },
    async (req) => {
      await eventOrNotFound(app, req.params.id);
      return admin.certificateDesign(req.params.id);
    },
  );

  app.put(
    '/events/:id/resultados/certificado/',
    {
      config: EVENTS,
      schema: {
        tags,
        summary:
          'Salvar o modelo dos certificados com a versão lida (409 se outra pessoa salvou antes); vale para os próximos certificados, por e-mail ou baixados',
        params: EventIdSchema,
        body: CertificateDesignSaveSchema,
        response: { 200: PainelCertificateDesignSchema, ...errors },
      },
    },
    async (req) => {
      const saved = await audited(
        req,
        (tx) => admin.saveCertificateDesign(tx, req.params.id, req.body),
        ({ before, after }) => ({
          action: 'alterado',
          entity: 'resultados_certificado',
          entityId: req.params.id,
          before,
          after,
        }),
      );
      return saved.after;
    },
  );

  app.get(
    '/events/:id/resultados/certificado/amostra.pdf',
    {
      config: EVENT_READ,
      schema: {
        tags,
        summary: 'Um certificado de exemplo no modelo salvo do evento (o QR code dele não confere nada)',
        params: EventIdSchema,
      },
    },
    async (req, reply) => {
      const pdf = await app.results.sampleCertificate(req.params.id);
      return reply
        .type('application/pdf')
        .header('content-disposition', 'inline; filename="certificado-amostra.pdf"')
        .send(pdf);
    },
  );

  app.post(
    '/events/:id/resultados/importacoes/:importacao/publicar/',
    {
      config: EVENTS,
      schema: {
        tags,
        summary:
          'Publicar uma importação: substitui os resultados do evento (do dia do arquivo) numa transação e calcula as colocações',
        params: ImportParamsSchema,
        response: { 200: ResultPublishSchema, ...errors },
      },
    },
    async (req) =>
      audited(
        req,
        (tx) => admin.publish(tx, req.params.id, req.params.importacao),
        (r) => ({
          action: 'resultados_publicados',
          entity: 'evento',
          entityId: req.params.id,
          after: { importacao: req.params.importacao, ...r },
        }),
      ),
  );
  // Photos of the race by bib (docs/decisions/0064, later): an album uploaded a photo a request through
  // the photo pipeline (the brand's mark on every copy), tagged by hand or by the timer's file.
  app.get(
    '/events/:id/resultados/fotos/',
    {
      config: EVENT_READ,
      schema: {
        tags,
        summary: 'As fotos da prova, com os números de peito de cada uma e o estado do processamento',
        params: EventIdSchema,
        response: { 200: z.array(PainelResultPhotoSchema), ...errors },
      },
    },
    async (req) => {
      await eventOrNotFound(app, req.params.id);
      return admin.photos.list(req.params.id);
    },
  );

  app.post(
    '/events/:id/resultados/fotos/',
    {
      config: EVENTS,
      schema: {
        tags,
        summary:
          'Enviar uma foto da prova (multipart, campo "foto": JPEG, PNG, WebP ou HEIC); o nome do arquivo é o que o arquivo de números por foto usa. Responde 202 em "processando"',
        params: EventIdSchema,
        consumes: ['multipart/form-data'],
        response: {
          202: PainelResultPhotoSchema,
          ...errors,
          413: ApiErrorSchema,
          415: ApiErrorSchema,
          422: ApiErrorSchema,
          502: ApiErrorSchema,
        },
      },
    },
    async (req, reply) => {
      await eventOrNotFound(app, req.params.id);
      const { buffer, fileName } = await readUploadedPhotoFile(req, 'Escolha uma foto.');
      const { recorded } = await app.photos.accept('resultados', buffer, async (tx, url) => {
        const photo = await admin.photos.add(tx, req.params.id, url, fileName);
        await audit(tx, actor(req), {
          action: 'foto_da_prova_adicionada',
          entity: 'evento',
          entityId: req.params.id,
          after: { foto: photo.url, arquivo: photo.nome_arquivo },
        });
        return photo;
      });
      return reply.status(202).send(recorded);
    },
  );

  app.put(
    '/events/:id/resultados/fotos/:foto/',
    {
      config: EVENTS,
      schema: {
        tags,
        summary: 'Marcar uma foto com os números de peito que aparecem nela (a lista substitui a anterior)',
        params: PhotoParamsSchema,
        body: ResultPhotoBibsSchema,
        response: { 200: PainelResultPhotoSchema, ...errors },
      },
    },
    async (req) =>
      audited(
        req,
        (tx) => admin.photos.tag(tx, req.params.id, req.params.foto, req.body.numeros),
        (photo) => ({
          action: 'foto_da_prova_marcada',
          entity: 'evento',
          entityId: req.params.id,
          after: { foto: photo.id, numeros: photo.numeros },
        }),
      ),
  );

  app.post(
    '/events/:id/resultados/fotos/numeros/',
    {
      config: EVENTS,
      schema: {
        tags,
        summary:
          'Marcar as fotos pelo arquivo de números por foto da cronometragem (colunas "Foto" e "Números"); as linhas que não acham foto voltam com o motivo',
        params: EventIdSchema,
        body: ResultPhotoFileSchema,
        response: { 200: ResultPhotoFileAnswerSchema, ...errors },
      },
    },
    async (req) => {
      await eventOrNotFound(app, req.params.id);
      return audited(
        req,
        (tx) => admin.photos.tagFromFile(tx, req.params.id, req.body.conteudo),
        (r) => ({
          action: 'fotos_da_prova_marcadas',
          entity: 'evento',
          entityId: req.params.id,
          after: { fotos_marcadas: r.fotos_marcadas, linhas_recusadas: r.linhas_recusadas.length },
        }),
      );
    },
  );

  app.delete(
    '/events/:id/resultados/fotos/:foto/',
    {
      config: EVENTS,
      schema: {
        tags,
        summary: 'Remover uma foto da prova (some da página de cada corredor)',
        params: PhotoParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      const url = await audited(
        req,
        async (tx) => {
          const removed = await admin.photos.remove(tx, req.params.id, req.params.foto);
          // A photo still in the queue is dropped with it: its job then finds nothing to finish.
          await app.photos.forget(tx, removed);
          return removed;
        },
        (removed) => ({
          action: 'foto_da_prova_removida',
          entity: 'evento',
          entityId: req.params.id,
          before: { foto: removed },
        }),
      );
      await app.providers.media
        .delete(photoKeys(url))
        .catch((err: unknown) => req.log.warn({ err }, 'removed photo files were not deleted'));
      return reply.status(204).send(null);
    },
  );
};
