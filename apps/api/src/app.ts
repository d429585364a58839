import compress from '@fastify/compress';
import helmet from '@fastify/helmet';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Env } from './config/env.ts';
import type { Database, Db } from './db/client.ts';
import { accountsRoutes } from './modules/accounts/accounts.routes.ts';
import { catalogRoutes } from './modules/catalog/catalog.routes.ts';
import { eventsRoutes } from './modules/events/events.routes.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { ordersRoutes } from './modules/orders/orders.routes.ts';
import { paymentsRoutes } from './modules/payments/payments.routes.ts';
import { PaymentsService } from './modules/payments/payments.service.ts';
import { registrationsRoutes } from './modules/registrations/registrations.routes.ts';
import { shippingRoutes } from './modules/shipping/shipping.routes.ts';
import { registerErrorHandling } from './plugins/errors.ts';
import { registerWebApp } from './plugins/web-app.ts';
import { loadWebShell } from './plugins/web-shell.ts';
import { createProviders, type Providers } from './providers/index.ts';

/** What every module may use; built once in `buildApp` and reached as `app.deps`. */
export interface AppDeps {
  env: Env;
  database: Database;
  db: Db;
  providers: Providers;
  /** The clock, replaceable in tests (deadlines, expiry, business days). */
  now: () => Date;
  /** Charges and their confirmation; other modules register what a charge can pay for. */
  payments: PaymentsService;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
}

export interface BuildAppOptions {
  env: Env;
  database: Database;
  providers?: Partial<Providers>;
  now?: () => Date;
  logger?: boolean;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: NodeJS.WritableStream;
}

/** Builds the whole server (API + web app) without listening; tests use `app.inject()` on it. */
export async function buildApp(opts: BuildAppOptions): Promise<FastifyInstance> {
  const { env } = opts;
  const app = Fastify({
    logger:
      (opts.logger ?? env.NODE_ENV !== 'test')
        ? {
            level: env.LOG_LEVEL,
            // Never log credentials or personal data (docs/architecture.md §4, LGPD).
            redact: {
              paths: [
                'req.headers.authorization',
                'req.headers.cookie',
                '*.password',
                '*.cpf',
                '*.payment_token',
              ],
              censor: '[oculto]',
            },
            serializers: {
              // The Pix webhook's shared secret travels in its URL (Efí's scheme); keep it out of logs.
              req: (req: { method: string; url: string; hostname?: string; ip?: string }) => ({
                method: req.method,
                url: req.url.replace(/([?&]hmac=)[^&]*/gi, '$1[oculto]'),
                hostname: req.hostname,
                remoteAddress: req.ip,
              }),
            },
            ...(opts.logStream ? { stream: opts.logStream } : {}),
          }
        : false,
    trustProxy: env.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const providers = { ...createProviders(env), ...opts.providers };
  const now = opts.now ?? (() => new Date());
  const payments = new PaymentsService({
    db: opts.database.db,
    env,
    provider: providers.payments,
    now,
    log: app.log,
  });
  app.decorate('deps', { env, database: opts.database, db: opts.database.db, providers, now, payments });
  app.addHook('onClose', async () => payments.stop());

  registerErrorHandling(app);
  const shell = loadWebShell(env.webDist);
  await app.register(helmet, {
    // The SPA loads only its own scripts (the theme bootstrap too, as a file); React sets inline styles.
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...(shell?.scriptHashes ?? [])],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'"],
        connectSrc: ["'self'"],
        frameSrc: ["'self'", 'https://www.openstreetmap.org'],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(compress, { threshold: 1024 });
  await app.register(swagger, {
    openapi: {
      info: {
        title: `${env.STORE_NAME} API`,
        version: '1.0.0',
        description: 'API da loja e das inscrições em eventos.',
      },
    },
    transform: jsonSchemaTransform,
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  await app.register(healthRoutes);
  await app.register(accountsRoutes);
  await app.register(catalogRoutes);
  await app.register(eventsRoutes);
  await app.register(ordersRoutes);
  await app.register(paymentsRoutes);
  await app.register(registrationsRoutes);
  await app.register(shippingRoutes);

  await registerWebApp(app, env.webDist, shell);
  return app;
}
