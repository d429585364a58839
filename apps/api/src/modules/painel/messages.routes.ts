import {
  MailLogoSchema,
  MessageLogListSchema,
  MessageLogQuerySchema,
  MessagePreviewListSchema,
  WhatsAppOptOutCreateSchema,
  WhatsAppOptOutListSchema,
  WhatsAppOptOutSchema,
} from '@passada/core/contracts/painel';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { markImage, readUploadedPhoto } from '../../plugins/uploaded-images.ts';
import { brandedMail } from '../../providers/mail/layout.ts';
import { accountMailPreviews } from '../accounts/index.ts';
import { fiscalMailPreviews } from '../fiscal/index.ts';
import { MAIL_LOGO_PATH } from '../messages/index.ts';
import { lotteryMailPreviews } from '../opening/index.ts';
import { orderMailPreviews } from '../orders/index.ts';
import { paymentMailPreviews } from '../payments/index.ts';
import { registrationMailPreviews } from '../registrations/index.ts';
import { shippingMailPreviews } from '../shipping/index.ts';
import { actor, audited, PAINEL_ERRORS } from '../staff/index.ts';
import { newPhotoName, storageDown } from './photos.ts';

/** Every message kind the shop sends, in the order staff read them. */
export const MAIL_PREVIEWS = [
  ...orderMailPreviews,
  ...shippingMailPreviews,
  ...fiscalMailPreviews,
  ...paymentMailPreviews,
  ...registrationMailPreviews,
  ...lotteryMailPreviews,
  ...accountMailPreviews,
];

/**
 * The preview of every message (permission `equipe`: the people who answer for what the shop says,
 * docs/decisions/0045), rendered with demo data by the same functions and layout the jobs use. Read
 * only, so nothing is audited.
 */
export const messagesRoutes: FastifyPluginAsyncZod = async (app) => {
  const brand = { storeName: app.env.STORE_NAME, publicUrl: app.env.publicUrl };
  const env = { STORE_NAME: app.env.STORE_NAME, publicUrl: app.env.publicUrl };
  app.get(
    '/mensagens/',
    {
      config: { painel: { permission: 'equipe' } },
      schema: {
        tags: ['painel: mensagens'],
        summary: 'Prévia de cada mensagem enviada pela loja, com dados de exemplo',
        response: { 200: MessagePreviewListSchema, ...PAINEL_ERRORS },
      },
    },
    async () =>
      Promise.all(
        MAIL_PREVIEWS.map(async (preview) => ({
          tipo: preview.kind,
          nome: preview.label,
          mensagens: await Promise.all(
            (await preview.build(env)).map(async (message) => {
              const { html } = await brandedMail(message, brand);
              const attachments = message.attachments ?? [];
              // A browser shows no `cid:` image: the preview inlines what the mail program would.
              const shown = attachments.reduce(
                (out, a) =>
                  a.cid
                    ? out.replaceAll(
                        `cid:${a.cid}`,
                        `data:${a.contentType};base64,${a.content.toString('base64')}`,
                      )
                    : out,
                html,
              );
              return {
                para: message.to,
                assunto: message.subject,
                html: shown,
                texto: message.text,
                anexos: attachments.map((a) => ({ nome: a.filename, tipo: a.contentType })),
              };
            }),
          ),
        })),
      ),
  );

  app.get(
    '/mensagens/registro/',
    {
      config: { painel: { permission: 'equipe' } },
      schema: {
        tags: ['painel: mensagens'],
        summary:
          'As últimas mensagens enviadas: se saíram, quantas tentativas e, no WhatsApp, se foram entregues e lidas',
        querystring: MessageLogQuerySchema,
        response: { 200: MessageLogListSchema, ...PAINEL_ERRORS },
      },
    },
    async (request) => app.messages.admin.list(request.query.canal),
  );

  app.get(
    '/mensagens/descadastros/',
    {
      config: { painel: { permission: 'equipe' } },
      schema: {
        tags: ['painel: mensagens'],
        summary:
          'Os números que não recebem mais WhatsApp: os que escreveram PARAR e os registrados pela equipe',
        response: { 200: WhatsAppOptOutListSchema, ...PAINEL_ERRORS },
      },
    },
    async () => app.messages.admin.optOuts(),
  );

  app.post(
    '/mensagens/descadastros/',
    {
      config: { painel: { permission: 'equipe' } },
      schema: {
        tags: ['painel: mensagens'],
        summary:
          'Registrar que a pessoa deste número pediu à loja (por telefone, e-mail, no balcão) para não receber mais WhatsApp',
        body: WhatsAppOptOutCreateSchema,
        response: { 201: WhatsAppOptOutSchema, ...PAINEL_ERRORS },
      },
    },
    async (req, reply) => {
      const staffId = actor(req).id;
      const recorded = await audited(
        req,
        (tx) => app.messages.admin.recordOptOut(req.body, staffId, tx),
        (row) => ({ action: 'descadastro_whatsapp', entity: 'whatsapp', entityId: row.telefone, after: row }),
      );
      return reply.status(201).send(recorded);
    },
  );

  // The e-mails' logo (docs/decisions/0045, later): sent like a photo, kept as a 128 px PNG in the media
  // storage under a new name each time; the old file goes once the new one is recorded.
  const logoAnswer = async () => ({
    personalizado: (await app.messages.brand.logoKey()) !== null,
    url: `${app.env.publicUrl}${MAIL_LOGO_PATH}`,
  });
  const logoRoute = (summary: string) => ({
    config: { painel: { permission: 'equipe' as const } },
    schema: {
      tags: ['painel: mensagens'],
      summary,
      response: { 200: MailLogoSchema, ...PAINEL_ERRORS },
    },
  });
  const replaceLogo = async (req: Parameters<typeof actor>[0], key: string | null) => {
    const { before } = await audited(
      req,
      (tx) => app.messages.brand.setLogo(tx, key),
      (change) => ({
        action: key ? 'logo_email_alterado' : 'logo_email_padrao',
        entity: 'logo_email',
        before: { personalizado: change.before !== null },
        after: { personalizado: change.after !== null },
      }),
    );
    if (before && before !== key)
      await app.providers.media.delete([before]).catch((err: unknown) => {
        req.log.warn({ err }, 'old e-mail logo left in the media storage');
      });
  };

  app.get('/mensagens/logo/', logoRoute('O logo do cabeçalho dos e-mails'), logoAnswer);

  app.put(
    '/mensagens/logo/',
    logoRoute('Enviar o logo dos e-mails (JPEG, PNG, WebP ou HEIC; vira um PNG quadrado de 128 px)'),
    async (req) => {
      const png = await markImage(
        await readUploadedPhoto(req, 'Escolha a imagem do logo.'),
        app.env.PHOTO_MAX_PIXELS,
      );
      const key = `marca/${newPhotoName()}.png`;
      await app.providers.media.put(key, png, 'image/png').catch((err: unknown) => {
        req.log.error({ err }, 'media storage write failed');
        throw storageDown();
      });
      await replaceLogo(req, key).catch(async (err: unknown) => {
        await app.providers.media.delete([key]).catch(() => undefined);
        throw err;
      });
      return logoAnswer();
    },
  );

  app.delete('/mensagens/logo/', logoRoute('Voltar ao logo padrão da loja nos e-mails'), async (req) => {
    await replaceLogo(req, null);
    return logoAnswer();
  });
};
