import compress from '@fastify/compress';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Env } from './config/env.ts';
import type { Database } from './db/client.ts';
import jobs from './jobs/index.ts';
import accounts from './modules/accounts/index.ts';
import catalog from './modules/catalog/index.ts';
import coupons from './modules/coupons/index.ts';
import events from './modules/events/index.ts';
import fiscal from './modules/fiscal/index.ts';
import health from './modules/health/index.ts';
import messages from './modules/messages/index.ts';
import opening from './modules/opening/index.ts';
import orders from './modules/orders/index.ts';
import painel from './modules/painel/index.ts';
import payments from './modules/payments/index.ts';
import registrations from './modules/registrations/index.ts';
import results from './modules/results/index.ts';
import shipping from './modules/shipping/index.ts';
import shippingLabels from './modules/shipping/labels.plugin.ts';
import staff from './modules/staff/index.ts';
import auth, { TOKEN_SECURITY_SCHEME } from './plugins/auth.ts';
import { registerErrorHandling } from './plugins/errors.ts';
import { createFrontDoor } from './plugins/front-door.ts';
import infra from './plugins/infra.ts';
import metrics from './plugins/metrics.ts';
import rateLimit from './plugins/rate-limit.ts';
import { DebugRequestLogging, lazyChildLogger } from './plugins/request-logging.ts';
import securityHeaders from './plugins/security-headers.ts';
import seo from './plugins/seo/index.ts';
import { registerWebApp } from './plugins/web-app.ts';
import { loadWebShell } from './plugins/web-shell.ts';
import { createProviders, type Providers } from './providers/index.ts';

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
  const frontDoor = createFrontDoor(env.FRONT_DOOR_MAX_ADDRESSES);
  const app = Fastify({
    serverFactory: frontDoor.serverFactory,
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
                // The CPF lookup carries a CPF in its path.
                url: req.url
                  .replace(/([?&]hmac=)[^&]*/gi, '$1[oculto]')
                  // Meta's WhatsApp webhook check carries the verify token in its query.
                  .replace(/([?&]hub\.verify_token=)[^&]*/gi, '$1[oculto]')
                  // The back office's list searches, which may be a CPF (orders, the lottery's entries).
                  .replace(/([?&]busca=)[^&]*/gi, '$1[oculto]')
                  .replace(/(\/cpf\/)[^/?]*/gi, '$1[oculto]'),
                hostname: req.hostname,
                remoteAddress: req.ip,
              }),
            },
            ...(opts.logStream ? { stream: opts.logStream } : {}),
          }
        : false,
    logController: new DebugRequestLogging(),
    childLoggerFactory: lazyChildLogger,
    // A hop count becomes "trust the first N addresses from the socket", as proxy-addr reads a number.
    trustProxy:
      typeof env.TRUST_PROXY === 'number'
        ? (
            (hops: number) => (_address: string, hop: number) =>
              hop < hops
          )(env.TRUST_PROXY)
        : env.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    // A request that reached the server while it shuts down is answered, not refused (main.ts).
    return503OnClosing: false,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  app.decorate('frontDoor', frontDoor);
  // First, so its response hook counts every route registered after it.
  await app.register(metrics);
  const shell = loadWebShell(env.webDist);
  await app.register(securityHeaders, {
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
  // A GET or HEAD carries no body: the plugin's inflating hook would run on each of them for nothing.
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (route.decompress === undefined && methods.every((m) => m === 'GET' || m === 'HEAD')) {
      route.decompress = false;
    }
  });
  await app.register(compress, { threshold: 1024 });
  await app.register(auth);
  await app.register(rateLimit);
  await app.register(swagger, {
    openapi: {
      info: {
        title: `${env.STORE_NAME} API`,
        version: '1.0.0',
        description: 'API da loja e das inscrições em eventos.',
      },
      components: {
        securitySchemes: {
          [TOKEN_SECURITY_SCHEME]: {
            type: 'apiKey',
            in: 'header',
            name: 'Authorization',
            description: 'Token <token>, o token devolvido por /api/token-auth/',
          },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  await app.register(infra, {
    env,
    database: opts.database,
    providers: { ...createProviders(env), ...opts.providers },
    now: opts.now ?? (() => new Date()),
  });
  // Each module declares what it needs; fastify-plugin refuses to boot when one is missing.
  await app.register(jobs, { enabled: env.JOBS_ENABLED, pollSeconds: env.JOBS_POLL_SECONDS });
  await app.register(health);
  await app.register(accounts);
  await app.register(messages);
  await app.register(catalog);
  await app.register(events);
  await app.register(opening);
  await app.register(payments);
  await app.register(coupons);
  await app.register(shipping);
  // Notas before orders: a swap before shipping asks whether the order's NF-e can still be replaced.
  await app.register(fiscal);
  // Registrations first: orders carries registrations in a cart through `app.registrations`.
  await app.register(registrations);
  await app.register(results);
  await app.register(orders);
  await app.register(shippingLabels);
  await app.register(seo);
  await app.register(staff);
  await app.register(painel);

  await registerWebApp(app, env.webDist, shell);
  return app;
}
