import { auditChanges, auditSubject } from '@passada/core/audit-changes';
import { addDays, storeDayStart } from '@passada/core/calendar';
import { ApiErrorSchema, IdParamSchema } from '@passada/core/contracts/common';
import {
  AuditPageSchema,
  AuditQuerySchema,
  NewStaffSchema,
  OwnPasswordChangeSchema,
  RecoveryCodesSchema,
  StaffLoginSchema,
  StaffMeSchema,
  StaffPasswordResetSchema,
  StaffPatchSchema,
  StaffSchema,
  StaffSessionSchema,
  TotpCodeBodySchema,
  TotpEnabledSchema,
  TotpSetupSchema,
} from '@passada/core/contracts/painel';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actor, audited, creation, type StaffService, staffToken } from '../staff/index.ts';
import { auditNames } from './audit-names.ts';

const AUDIT_PAGE_SIZE = 50;

/** Sign-in, 2FA, passwords, staff accounts and the audit log. */
export const accessRoutes: FastifyPluginAsyncZod<{ staff: StaffService }> = async (app, { staff }) => {
  const tags = ['painel: acesso'];
  const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema };
  const open2fa = { painel: { ownAccount: true, allowWithout2fa: true } };
  const STAFF_ONLY = { painel: { permission: 'equipe' } } as const;
  // Per address, right or wrong (plugins/rate-limit.ts); each e-mail or account also locks on its own
  // failures (staff.service.ts takeAttempt). Sign-in and the code checks count apart.
  const perIp = (name: string) => ({
    name,
    max: app.env.PAINEL_LOGIN_RATE_LIMIT_PER_IP,
    windowSeconds: 15 * 60,
  });
  const checksSecret = { ...open2fa, limit: perIp('painel-codigo') };
  const limited = { ...errors, 409: ApiErrorSchema, 429: ApiErrorSchema };

  app.post(
    '/auth/login/',
    {
      config: { painel: { public: true }, limit: perIp('painel-login') },
      schema: {
        tags,
        summary:
          'Entrar no painel (e-mail, senha e, se ativo, o código do autenticador ou um código de recuperação)',
        body: StaffLoginSchema,
        response: { 200: StaffSessionSchema, ...errors, 429: ApiErrorSchema },
      },
    },
    async (req) => staff.login(req.body, req.ip),
  );

  app.get(
    '/auth/me/',
    {
      config: open2fa,
      schema: { tags, summary: 'Quem está no painel', response: { 200: StaffMeSchema, ...errors } },
    },
    async (req) => staff.me(actor(req)),
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

  // The three actions that take a fresh code from the app: same body, same per-address limit on
  // guesses (checksSecret), same call; only the action and its answer differ. `codeAction` checks
  // each action's result against its own answer, which the loop below no longer could.
  const codeAction = <Answer extends z.ZodType>(route: {
    url: string;
    summary: string;
    answer: Answer;
    run: (who: ReturnType<typeof actor>, codigo: string, ip: string) => Promise<z.input<Answer>>;
  }) => route;
  const codeActions = [
    codeAction({
      url: '/auth/2fa/enable/',
      summary:
        'Ativar a verificação em duas etapas com um código do aplicativo; responde os códigos de recuperação',
      answer: TotpEnabledSchema,
      run: staff.enableTotp,
    }),
    codeAction({
      url: '/auth/2fa/disable/',
      summary: 'Desativar a verificação em duas etapas (pede um código válido)',
      answer: StaffSchema,
      run: staff.disableTotp,
    }),
    codeAction({
      url: '/auth/2fa/recovery-codes/',
      summary: 'Gerar novos códigos de recuperação (os anteriores deixam de valer; pede um código válido)',
      answer: RecoveryCodesSchema,
      run: staff.regenerateRecoveryCodes,
    }),
  ];
  for (const { url, summary, answer, run } of codeActions) {
    app.post(
      url,
      {
        config: checksSecret,
        schema: { tags, summary, body: TotpCodeBodySchema, response: { 200: answer, ...limited } },
      },
      async (req) => run(actor(req), req.body.codigo, req.ip),
    );
  }

  app.post(
    '/auth/password/',
    {
      config: checksSecret,
      schema: {
        tags,
        summary: 'Trocar a própria senha (pede a atual); as outras sessões da conta terminam',
        body: OwnPasswordChangeSchema,
        response: { 204: z.null(), ...limited },
      },
    },
    async (req, reply) => {
      await staff.changeOwnPassword(actor(req), req.body, req.ip, staffToken(req) ?? '');
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/staff/',
    {
      config: STAFF_ONLY,
      schema: { tags, summary: 'Contas da equipe', response: { 200: z.array(StaffSchema), ...errors } },
    },
    async () => staff.listStaff(),
  );

  app.post(
    '/staff/',
    {
      config: STAFF_ONLY,
      schema: {
        tags,
        summary: 'Criar conta da equipe com um perfil (e, para o check-in, os eventos designados)',
        body: NewStaffSchema,
        response: { 201: StaffSchema, ...errors },
      },
    },
    async (req, reply) => {
      const created = await audited(req, (tx) => staff.createStaff(req.body, tx), creation('equipe'));
      return reply.status(201).send(created);
    },
  );

  app.patch(
    '/staff/:id/',
    {
      config: STAFF_ONLY,
      schema: {
        tags,
        summary: 'Mudar o perfil, os eventos do check-in ou desativar uma conta da equipe',
        params: IdParamSchema,
        body: StaffPatchSchema,
        response: { 200: StaffSchema, ...errors, 404: ApiErrorSchema, 409: ApiErrorSchema },
      },
    },
    async (req) => {
      const { after } = await audited(
        req,
        (tx) => staff.updateStaff(req.params.id, req.body, tx),
        ({ before, after }) => ({
          action: 'alterado',
          entity: 'equipe',
          entityId: after.id,
          before,
          after,
        }),
      );
      return after;
    },
  );

  app.post(
    '/staff/:id/password/',
    {
      config: STAFF_ONLY,
      schema: {
        tags,
        summary: 'Definir uma nova senha para outra conta da equipe (as sessões dela terminam)',
        params: IdParamSchema,
        body: StaffPasswordResetSchema,
        response: { 200: StaffSchema, ...errors, 404: ApiErrorSchema, 409: ApiErrorSchema },
      },
    },
    async (req) => staff.resetPassword(actor(req), req.params.id, req.body.password),
  );

  app.post(
    '/staff/:id/2fa/reset/',
    {
      config: STAFF_ONLY,
      schema: {
        tags,
        summary:
          'Desligar a verificação em duas etapas de outra conta, para que a pessoa a configure de novo',
        params: IdParamSchema,
        response: { 200: StaffSchema, ...errors, 404: ApiErrorSchema, 409: ApiErrorSchema },
      },
    },
    async (req) => staff.resetTotp(actor(req), req.params.id),
  );

  app.get(
    '/audit/',
    {
      config: STAFF_ONLY,
      schema: {
        tags,
        summary:
          'Registro de alterações feitas pela equipe (mais recentes primeiro), por quem, o quê e período, com os campos alterados',
        querystring: AuditQuerySchema,
        response: { 200: AuditPageSchema, ...errors },
      },
    },
    async (req) => {
      const q = req.query;
      const { rows, total } = await staff.listAudit(
        {
          entity: q.entity,
          action: q.action,
          staff: q.staff,
          from: q.desde ? storeDayStart(q.desde) : undefined,
          until: q.ate ? storeDayStart(addDays(q.ate, 1)) : undefined,
        },
        { limit: AUDIT_PAGE_SIZE, offset: (req.query.page - 1) * AUDIT_PAGE_SIZE },
      );
      const names = await auditNames(app, rows);
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
          alvo: auditSubject(r.entity, r.entityId, names),
          alteracoes: auditChanges(r.before, r.after, names),
          at: r.at.toISOString(),
        })),
      };
    },
  );
};
