import fastifyCookie from '@fastify/cookie';
import {
  ChangePasswordRequestSchema,
  DeleteAccountRequestSchema,
  EmailConfirmRequestSchema,
  LoginLinkRequestSchema,
  MessageResponseSchema,
  PasswordResetConfirmSchema,
  PasswordResetRequestSchema,
  ProfileSchema,
  SignUpRequestSchema,
  TokenResponseSchema,
  UpdateProfileRequestSchema,
} from '@passada/core/contracts/accounts';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requestTokenHash, requireUser } from '../../plugins/auth.ts';
import { type DeviceCookie, deviceCookieOptions } from './device-cookie.ts';
import { exportPersonalData } from './personal-data.read-model.ts';
import { PASSWORD_RESET_SENT, type SignedIn, type UsersService } from './users.service.ts';

/** Sign-up, login/logout, profile and password recovery (spec §7; docs/architecture.md §4). */
export const usersRoutes: FastifyPluginAsyncZod<{ users: UsersService }> = async (app, { users }) => {
  // Device cookies only (docs/decisions/0024-device-cookies-login.md); scoped to these routes.
  await app.register(fastifyCookie);
  const setDevice = (reply: FastifyReply, device: DeviceCookie) =>
    reply.setCookie(device.name, device.value, deviceCookieOptions(app.env));
  const signedIn = (reply: FastifyReply, { token, device }: SignedIn) => {
    setDevice(reply, device);
    return { token };
  };

  // Per IP, so one address cannot mass-create accounts or flood someone's mailbox.
  const perIpPerHour = (name: string) => ({
    limit: { name, max: app.env.SIGNUP_RATE_LIMIT_MAX, windowSeconds: 3600 },
  });

  app.post(
    '/api/users/',
    {
      config: perIpPerHour('sign-up'),
      schema: { body: SignUpRequestSchema, response: { 201: ProfileSchema } },
    },
    async (request, reply) => reply.status(201).send(await users.signUp(request.body)),
  );

  app.post(
    '/api/token-auth/',
    { schema: { response: { 200: TokenResponseSchema } } },
    async (request, reply) => signedIn(reply, await users.logIn(request.body, request.ip, request.cookies)),
  );

  // The one-time link e-mailed when a sign-in with the right password was blocked; a POST from the
  // page at /login/acesso, so a mail scanner that opens the link does not spend it.
  app.post(
    '/api/token-auth/link/',
    { schema: { body: LoginLinkRequestSchema, response: { 200: TokenResponseSchema } } },
    async (request, reply) => signedIn(reply, await users.logInWithLink(request.body)),
  );

  app.post('/api/token-auth/logout/', async (request, reply) => {
    await users.logOut(requestTokenHash(request));
    return reply.status(204).send();
  });

  app.get(
    '/api/users/profile/',
    { config: { auth: 'user' }, schema: { response: { 200: ProfileSchema } } },
    async (request) => users.profile((await requireUser(request)).id),
  );

  app.patch(
    '/api/users/profile/',
    {
      config: { auth: 'user' },
      schema: { body: UpdateProfileRequestSchema, response: { 200: ProfileSchema } },
    },
    async (request) => {
      const user = await requireUser(request);
      return users.updateProfile(user.id, request.body);
    },
  );

  app.delete(
    '/api/users/profile/',
    { config: { auth: 'user' }, schema: { body: DeleteAccountRequestSchema } },
    async (request, reply) => {
      const user = await requireUser(request);
      await users.deleteAccount(user.id, request.body.password);
      return reply.status(204).send();
    },
  );

  // Another link to confirm the account's e-mail (docs/decisions/0057), EMAIL_CONFIRMATION_MAX_PER_HOUR an hour.
  app.post(
    '/api/users/profile/confirmar-email/',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Reenviar o link que confirma o e-mail da conta (limitado por hora)',
        response: { 202: MessageResponseSchema },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      return reply.status(202).send({ detail: await users.resendEmailConfirmation(user.id) });
    },
  );

  // The link itself: a POST from the page /login/confirmar-email, so a mail scanner opening it spends nothing.
  app.post(
    '/api/users/confirmar-email/',
    {
      schema: {
        summary: 'Confirmar o e-mail da conta com o link enviado a ele (uso único, expira)',
        body: EmailConfirmRequestSchema,
        response: { 200: MessageResponseSchema },
      },
    },
    async (request) => {
      await users.confirmEmail(request.body.token);
      return { detail: 'E-mail confirmado.' };
    },
  );

  app.post(
    '/api/users/profile/password/',
    {
      config: { auth: 'user' },
      schema: { body: ChangePasswordRequestSchema, response: { 200: MessageResponseSchema } },
    },
    async (request) => {
      const user = await requireUser(request);
      await users.changePassword(user.id, requestTokenHash(request), request.body);
      return { detail: 'Senha alterada com sucesso.' };
    },
  );

  // LGPD: the person's data as a JSON file, from "Dados pessoais".
  app.get(
    '/api/users/profile/dados/',
    { config: { auth: 'user' }, schema: { summary: 'Todos os dados pessoais da conta (LGPD), em JSON' } },
    async (request, reply) => {
      const user = await requireUser(request);
      const data = await exportPersonalData(app.db, user.id, app.now());
      return reply
        .header('content-disposition', 'attachment; filename="passada-dados-pessoais.json"')
        .header('cache-control', 'no-store')
        .send(data);
    },
  );

  app.post(
    '/api/users/password-reset/',
    {
      config: perIpPerHour('password-reset'),
      schema: { body: PasswordResetRequestSchema, response: { 200: MessageResponseSchema } },
    },
    async (request) => {
      await users.requestPasswordReset(request.body.email);
      return { detail: PASSWORD_RESET_SENT };
    },
  );

  app.post(
    '/api/users/password-reset/confirm/',
    { schema: { body: PasswordResetConfirmSchema, response: { 200: MessageResponseSchema } } },
    async (request, reply) => {
      setDevice(reply, await users.confirmPasswordReset(request.body));
      return { detail: 'Senha redefinida com sucesso. Entre com a nova senha.' };
    },
  );
};
