import { ApiErrorSchema, IdParamSchema } from '@passada/core/contracts/common';
import {
  AuditPageSchema,
  AuditQuerySchema,
  NewStaffSchema,
  StaffLoginSchema,
  StaffMeSchema,
  StaffPatchSchema,
  StaffSchema,
  StaffSessionSchema,
  TotpCodeBodySchema,
  TotpSetupSchema,
} from '@passada/core/contracts/painel';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { audit } from './audit.ts';
import { ADMIN_ONLY, actor, staffToken } from './guard.ts';
import { listAudit } from './painel.repository.ts';
import { type StaffService, toStaffWire } from './staff.service.ts';

const AUDIT_PAGE_SIZE = 50;

/** Sign-in, 2FA, staff accounts and the audit log. */
export const accessRoutes: FastifyPluginAsyncZod<{ staff: StaffService }> = async (app, { staff }) => {
  const tags = ['painel: acesso'];
  const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema };
  const open2fa = { painel: { allowWithout2fa: true } };

  app.post(
    '/auth/login/',
    {
      config: { painel: { public: true } },
      schema: {
        tags,
        summary: 'Entrar no painel (e-mail, senha e, se ativo, o código do autenticador)',
        body: StaffLoginSchema,
        response: { 200: StaffSessionSchema, ...errors, 429: ApiErrorSchema },
      },
    },
    async (req) => staff.login(req.body),
  );

  app.get(
    '/auth/me/',
    {
      config: open2fa,
      schema: { tags, summary: 'Quem está no painel', response: { 200: StaffMeSchema, ...errors } },
    },
    async (req) => {
      const me = actor(req);
      return { staff: toStaffWire(me), precisa_ativar_2fa: staff.mustSetUp2fa(me) };
    },
  );

  app.post(
    '/auth/logout/',
    { config: open2fa, schema: { tags, summary: 'Sair do painel', response: { 204: z.null(), ...errors } } },
    async (req, reply) => {
      const token = staffToken(req);
      if (token) await staff.logout(token);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/auth/2fa/setup/',
    {
      config: open2fa,
      schema: {
        tags,
        summary: 'Gerar o segredo e o QR code do aplicativo autenticador',
        response: { 200: TotpSetupSchema, ...errors, 409: ApiErrorSchema },
      },
    },
    async (req) => staff.startTotpSetup(actor(req)),
  );

  const totpChanges = [
    {
      path: 'enable',
      action: '2fa_ativado',
      summary: 'Ativar a verificação em duas etapas com um código do aplicativo',
      run: staff.enableTotp,
    },
    {
      path: 'disable',
      action: '2fa_desativado',
      summary: 'Desativar a verificação em duas etapas (pede um código válido)',
      run: staff.disableTotp,
    },
  ] as const;
  for (const change of totpChanges) {
    app.post(
      `/auth/2fa/${change.path}/`,
      {
        config: open2fa,
        schema: {
          tags,
          summary: change.summary,
          body: TotpCodeBodySchema,
          response: { 200: StaffSchema, ...errors, 409: ApiErrorSchema },
        },
      },
      async (req) => {
        const me = actor(req);
        const after = toStaffWire((await change.run(me, req.body.codigo))!);
        await audit(app.db, me, {
          action: change.action,
          entity: 'equipe',
          entityId: me.id,
          before: toStaffWire(me),
          after,
        });
        return after;
      },
    );
  }

  app.get(
    '/staff/',
    {
      config: ADMIN_ONLY,
      schema: { tags, summary: 'Contas da equipe', response: { 200: z.array(StaffSchema), ...errors } },
    },
    async () => (await staff.listStaff()).map(toStaffWire),
  );

  app.post(
    '/staff/',
    {
      config: ADMIN_ONLY,
      schema: {
        tags,
        summary: 'Criar conta da equipe (admin ou operador)',
        body: NewStaffSchema,
        response: { 201: StaffSchema, ...errors },
      },
    },
    async (req, reply) => {
      // Not createAudited: the staff service writes through its own connection, and PGlite has one.
      const created = toStaffWire(await staff.createStaff(req.body));
      await audit(app.db, actor(req), {
        action: 'criado',
        entity: 'equipe',
        entityId: created.id,
        after: created,
      });
      return reply.status(201).send(created);
    },
  );

  app.patch(
    '/staff/:id/',
    {
      config: ADMIN_ONLY,
      schema: {
        tags,
        summary: 'Mudar o perfil ou desativar uma conta da equipe',
        params: IdParamSchema,
        body: StaffPatchSchema,
        response: { 200: StaffSchema, ...errors, 404: ApiErrorSchema, 409: ApiErrorSchema },
      },
    },
    async (req) => {
      const { before, after } = await staff.updateStaff(req.params.id, req.body);
      await audit(app.db, actor(req), {
        action: 'alterado',
        entity: 'equipe',
        entityId: after.id,
        before: toStaffWire(before),
        after: toStaffWire(after),
      });
      return toStaffWire(after);
    },
  );

  app.get(
    '/audit/',
    {
      config: ADMIN_ONLY,
      schema: {
        tags,
        summary: 'Registro de alterações feitas pela equipe (mais recentes primeiro)',
        querystring: AuditQuerySchema,
        response: { 200: AuditPageSchema, ...errors },
      },
    },
    async (req) => {
      const { rows, total } = await listAudit(
        app.db,
        { entity: req.query.entity },
        { limit: AUDIT_PAGE_SIZE, offset: (req.query.page - 1) * AUDIT_PAGE_SIZE },
      );
      return {
        count: total,
        results: rows.map((r) => ({
          id: r.id,
          staff_email: r.staffEmail,
          action: r.action,
          entity: r.entity,
          entity_id: r.entityId,
          before: r.before,
          after: r.after,
          at: r.at.toISOString(),
        })),
      };
    },
  );
};
