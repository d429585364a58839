import { isIP } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** The repository root; relative paths in settings are taken from here, whatever the working folder. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

const cep = z
  .string()
  .transform((v) => v.replace(/\D/g, ''))
  .pipe(z.string().length(8, 'deve ter 8 dígitos'));

const isCidr = (v: string) => {
  const [addr = '', bits, ...rest] = v.split('/');
  const family = isIP(addr);
  if (!family || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
};

/**
 * Whom to believe about the client's address in X-Forwarded-For: `false` (nobody, the default), a
 * hop count (the last N proxies in front of the server), or a comma list of the proxies' addresses or
 * CIDRs. Never everyone: then any client could name its own address and dodge the per-IP limits.
 */
const trustProxy = z
  .string()
  .trim()
  .superRefine((v, ctx) => {
    if (v === 'true') {
      ctx.addIssue({
        code: 'custom',
        message:
          'true confiaria em qualquer cliente; use o número de proxies à frente do servidor (ex.: 1) ' +
          'ou a lista de endereços/CIDRs deles (ex.: 10.0.0.0/8,192.168.1.10)',
      });
    } else if (v !== 'false' && !/^\d{1,2}$/.test(v) && !v.split(',').every((p) => isCidr(p.trim()))) {
      ctx.addIssue({
        code: 'custom',
        message: 'use false, o número de proxies (ex.: 1) ou endereços/CIDRs separados por vírgula',
      });
    }
  })
  .transform((v): false | number | string[] => {
    if (v === 'false' || v === '0') return false;
    if (/^\d{1,2}$/.test(v)) return Number(v);
    return v.split(',').map((p) => p.trim());
  });

/** The development default of CHECKIN_TOKEN_SECRET: public, so production refuses it. */
const DEV_CHECKIN_TOKEN_SECRET = 'passada-desenvolvimento-troque-em-producao-0000';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/**
 * Every setting the server reads, parsed once at start. Nothing else reads process.env.
 * `.env.example` lists them with their defaults.
 */
export const EnvSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    DATA_DIR: z.string().min(1).default('./data'),
    /** Days after an event ends before its registrations' PCD answers (health data) are erased. */
    PCD_RETENTION_DAYS_AFTER_EVENT: z.coerce.number().int().min(0).max(3650).default(30),
    /** Days after an event ends before its waitlist entries (name, CPF, e-mail) are deleted. */
    WAITLIST_RETENTION_DAYS_AFTER_EVENT: z.coerce.number().int().min(0).max(3650).default(30),
    /** Days after an event ends before its transfers' CPFs and e-mails are erased (names stay in the history). */
    TRANSFER_RETENTION_DAYS_AFTER_EVENT: z.coerce.number().int().min(0).max(3650).default(30),
    /** Days after an event ends before its lottery entries' name, CPF, e-mail and birth date are erased (ids and ranking stay). */
    LOTTERY_RETENTION_DAYS_AFTER_EVENT: z.coerce.number().int().min(0).max(3650).default(30),
    /**
     * Years the sales records keep the buyer's and participant's personal data, counted from the first
     * day of the year after the sale or the event (CTN art. 173/174); then they are anonymised and older
     * audit-log lines deleted. Five is the legal minimum.
     */
    SALES_RETENTION_YEARS: z.coerce.number().int().min(5).max(50).default(5),
    /** Hours a registration transfer's link stays open for the new runner (never past the rules' last day). */
    TRANSFER_INVITE_HOURS: z.coerce.number().int().min(1).max(720).default(72),
    /**
     * Transfer invitations (an e-mail to an address the account never proved) one registration may
     * send in an hour, and one account over all its registrations (issue "the shop as a mail relay").
     */
    TRANSFER_INVITES_PER_REGISTRATION_PER_HOUR: z.coerce.number().int().min(1).max(100).default(3),
    TRANSFER_INVITES_PER_ACCOUNT_PER_HOUR: z.coerce.number().int().min(1).max(1000).default(5),
    /** Where `npm run backup` writes its archives; relative paths are taken from DATA_DIR. */
    BACKUP_DIR: z.string().min(1).default('backups'),
    /**
     * When set, `npm run backup` encrypts its archive with AES-256-GCM under this key (32 random bytes in
     * base64, e.g. `openssl rand -base64 32`) and `npm run restore` needs it to read one back
     * (docs/decisions/0058). Keep it off the machine that keeps the backups.
     */
    BACKUP_ENCRYPTION_KEY: z
      .string()
      .refine(
        (v) => /^[A-Za-z0-9+/]+={0,2}$/.test(v) && Buffer.from(v, 'base64').length === 32,
        'deve ter 32 bytes em base64 (gere com: openssl rand -base64 32)',
      )
      .optional(),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'deve começar com postgres://')
      .optional(),
    PUBLIC_URL: z.url().optional(),
    STORE_NAME: z.string().min(1).default('Passada'),
    /** Folder with the built web app; served at / when it exists. */
    WEB_DIST: z.string().default('./apps/web/dist'),
    /** Pages kept rendered and compressed in memory (each about 30–130 KB); more are built per request. */
    PAGE_CACHE_MAX_PAGES: z.coerce.number().int().min(0).default(500),
    /**
     * Demo catalogue, events and coupons on an empty database; the demo staff logins only with
     * PAYMENTS=simulado. Must be set explicitly in production (docs/decisions/0023).
     */
    SEED_DEMO_DATA: bool.default(true),
    /** Connections to PostgreSQL one process keeps at most (its pool); PGlite has a single one. */
    DB_POOL_MAX: z.coerce.number().int().min(1).max(1000).default(10),
    /** Prepare each statement once per PostgreSQL connection; false behind a transaction-mode pooler. */
    DB_PREPARED_STATEMENTS: bool.default(true),
    /** How long `/api/health` reuses its last database check, so a load balancer's checks cost no query each. */
    HEALTH_DB_CHECK_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
    /** A database check not answered within this long counts as a database down (503). */
    HEALTH_DB_CHECK_TIMEOUT_MS: z.coerce.number().int().min(10).max(60_000).default(2000),
    /** The bearer token a Prometheus scraper sends to `/api/metrics`; unset, the route answers 404. */
    METRICS_TOKEN: z.string().min(16, 'pelo menos 16 caracteres').optional(),

    SHIPPING_PROVIDER: z.enum(['tabela', 'correios']).default('tabela'),
    /**
     * When an exchange's new units ship (docs/decisions/0040): `recebida` once the shop received the
     * returned ones (the default), or `postada` as soon as the buyer posted them.
     */
    EXCHANGE_SHIPS_ON: z.enum(['postada', 'recebida']).default('recebida'),
    SHIPPING_ORIGIN_CEP: cep.default('60165121'),
    CORREIOS_API_URL: z.url().default('https://api.correios.com.br'),
    CORREIOS_USER: z.string().optional(),
    CORREIOS_ACCESS_CODE: z.string().optional(),
    CORREIOS_POSTING_CARD: z.string().optional(),
    /**
     * Who sells the shipping labels: `offline` (the demo's, docs/decisions/0044), `melhorenvio`, or
     * `correios` (the contract's pré-postagem with the CORREIOS_* credentials, docs/decisions/0049).
     */
    LABEL_PROVIDER: z.enum(['offline', 'melhorenvio', 'correios']).default('offline'),
    /** The contract's product codes a pré-postagem is made with (they differ between contracts). */
    CORREIOS_SERVICE_PAC: z
      .string()
      .regex(/^\d{5}$/, 'cinco dígitos')
      .default('03298'),
    CORREIOS_SERVICE_SEDEX: z
      .string()
      .regex(/^\d{5}$/, 'cinco dígitos')
      .default('03220'),
    MELHOR_ENVIO_API_URL: z.url().default('https://melhorenvio.com.br/api/v2'),
    /** The OAuth2 access token of the shop's Melhor Envio account. */
    MELHOR_ENVIO_TOKEN: z.string().optional(),
    /** Melhor Envio asks every call to name the application and a technical contact e-mail. */
    MELHOR_ENVIO_USER_AGENT: z.string().min(1).default('Passada (contato@passada.com.br)'),
    /** How often the tracking of labels bought and not yet delivered is read (cron, store time zone). */
    SHIPPING_TRACKING_CRON: z.string().min(9).default('*/30 * * * *'),
    /** Orders one "Gerar etiquetas" or "Imprimir etiquetas" takes at most. */
    LABELS_MAX_PER_REQUEST: z.coerce.number().int().min(1).max(500).default(50),
    /**
     * The Correios reverse-logistics web service (docs/decisions/0040), a contract of its own: set the
     * administrative code to use it (with SHIPPING_PROVIDER=correios); unset, staff issue return codes.
     */
    CORREIOS_REVERSA_URL: z
      .url()
      .default('https://cws.correios.com.br/logisticaReversaWS/logisticaReversaService/logisticaReversaWS'),
    CORREIOS_REVERSA_USER: z.string().optional(),
    CORREIOS_REVERSA_PASSWORD: z.string().optional(),
    CORREIOS_REVERSA_ADMIN_CODE: z.string().optional(),
    CORREIOS_REVERSA_SERVICE: z.string().optional(),

    CEP_PROVIDER: z.enum(['local', 'viacep']).default('local'),
    VIACEP_URL: z.url().default('https://viacep.com.br'),

    MAIL_PROVIDER: z.enum(['outbox', 'smtp']).default('outbox'),
    SMTP_URL: z.string().optional(),
    MAIL_FROM: z.string().default('Passada <contato@passada.com.br>'),
    /** Days the record of each message sent (recipient, job, sent or failed and why) is kept. */
    MESSAGE_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(180),

    /** WhatsApp: `outbox` (JSON files under DATA_DIR/outbox/whatsapp) or `cloud` (Meta's Cloud API). */
    WHATSAPP_PROVIDER: z.enum(['outbox', 'cloud']).default('outbox'),
    WHATSAPP_API_URL: z.url().default('https://graph.facebook.com'),
    WHATSAPP_API_VERSION: z
      .string()
      .regex(/^v\d+\.\d+$/, 'como v21.0')
      .default('v21.0'),
    WHATSAPP_PHONE_NUMBER_ID: z.string().optional(),
    /** A system user's token with whatsapp_business_messaging; a secret. */
    WHATSAPP_ACCESS_TOKEN: z.string().optional(),
    WHATSAPP_TIMEOUT_MS: z.coerce.number().int().min(1000).max(60_000).default(10_000),
    /** The Verify Token typed in the app's Webhooks settings; GET /api/webhooks/whatsapp/ answers it. */
    WHATSAPP_WEBHOOK_VERIFY_TOKEN: z.string().min(1).optional(),
    /** The Meta app's secret: the key of X-Hub-Signature-256 on each webhook POST; a secret. */
    WHATSAPP_APP_SECRET: z.string().min(1).optional(),
    /** The encarregado (LGPD art. 41): who answers the people and the ANPD, named on /privacidade. */
    PRIVACY_OFFICER_NAME: z.string().min(1).default('Encarregado de dados da Passada'),
    PRIVACY_OFFICER_EMAIL: z.email('e-mail inválido').default('privacidade@passada.com.br'),
    /** Days before an event's first day when the kit-pickup reminder goes to those who opted in. */
    WHATSAPP_KIT_REMINDER_DAYS: z.coerce.number().int().min(1).max(30).default(2),

    /** Who issues the NF-e and NFS-e: the offline demo issuer (no fiscal value) or Focus NFe (docs/decisions/0043). */
    INVOICING_PROVIDER: z.enum(['offline', 'focusnfe']).default('offline'),
    FOCUSNFE_ENVIRONMENT: z.enum(['homologacao', 'producao']).default('homologacao'),
    /** Overrides the environment's address (tests point it at a local fake). */
    FOCUSNFE_URL: z.url().optional(),
    FOCUSNFE_TOKEN: z.string().optional(),
    FOCUSNFE_TIMEOUT_MS: z.coerce.number().int().min(1000).max(120_000).default(20_000),
    /** Starts every nota's reference at the provider; change it when a new database would repeat ids. */
    FISCAL_REF_PREFIX: z
      .string()
      .regex(/^[a-z0-9]{1,20}$/, 'letras minúsculas e números, até 20')
      .default('passada'),

    /**
     * The NFS-e of registrations: one per registration (the default), or one per event per month
     * (`event_month`, where the city accepts a nota without an identified taker, docs/decisions/0049),
     * issued at the month's turn for the month's paid registrations.
     */
    NFSE_GROUPING: z.enum(['registration', 'event_month']).default('registration'),

    PAYMENTS: z.enum(['simulado', 'efi']).default('simulado'),
    PIX_KEY: z.string().default('contato@passada.com.br'),
    PIX_MERCHANT_CITY: z.string().default('FORTALEZA'),
    PIX_EXPIRATION_SECONDS: z.coerce.number().int().min(60).default(1800),
    EFI_ENVIRONMENT: z.enum(['production', 'sandbox']).default('sandbox'),
    EFI_PIX_URL: z.url().optional(),
    EFI_CHARGES_URL: z.url().optional(),
    EFI_CLIENT_ID: z.string().optional(),
    EFI_CLIENT_SECRET: z.string().optional(),
    /** The account certificate: the `.p12` (empty password), a PEM with certificate and key, or the certificate PEM alone. */
    EFI_CERTIFICATE_PATH: z.string().optional(),
    /** The private key PEM, when the certificate PEM does not carry it. */
    EFI_CERTIFICATE_KEY_PATH: z.string().optional(),
    /** The same certificate (or key) in base64, for hosts that only take environment variables. */
    EFI_CERTIFICATE_BASE64: z.string().optional(),
    EFI_CERTIFICATE_KEY_BASE64: z.string().optional(),
    /** Each call to Efí gives up after this long (then its outcome is unknown, never a refusal). */
    EFI_TIMEOUT_MS: z.coerce.number().int().min(1000).max(120_000).default(15_000),
    EFI_ACCOUNT_ID: z.string().optional(),
    EFI_WEBHOOK_SECRET: z.string().optional(),
    /** Addresses Efí sends Pix webhooks from, comma-separated; `*` accepts any (the secret still applies). */
    EFI_WEBHOOK_ALLOWED_IPS: z
      .string()
      .default('34.193.116.226')
      .transform((v) =>
        v
          .split(',')
          .map((ip) => ip.trim())
          .filter(Boolean),
      ),

    /** Open charges (unpaid Pix, card under review) one account may have at once. */
    PAYMENTS_MAX_OPEN_CHARGES: z.coerce.number().int().min(1).default(3),
    /** Units of one colour × size a single charge may hold. */
    PAYMENTS_MAX_UNITS_PER_ITEM: z.coerce.number().int().min(1).default(10),
    /** Event registrations (participants) one cart's charge may pay for. */
    CART_MAX_PARTICIPANTS: z.coerce.number().int().min(1).max(50).default(10),
    /**
     * Lines one timer's results file may hold (docs/decisions/0064); the import's request may be up to
     * 256 bytes per line.
     */
    RESULTS_IMPORT_MAX_LINES: z.coerce.number().int().min(100).max(200_000).default(20_000),
    /** Charges created, card payments, instalment look-ups and simulated tokens per account in 10 minutes. */
    PAYMENTS_RATE_LIMIT_PER_ACCOUNT: z.coerce.number().int().min(1).default(30),
    /** The same, per IP address in 10 minutes. */
    PAYMENTS_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(120),
    /** Coupon previews (`POST /api/cupons/validar/`) per account in 10 minutes: guessing codes is an attack. */
    COUPONS_RATE_LIMIT_PER_ACCOUNT: z.coerce.number().int().min(1).default(20),
    /** The same, per IP address in 10 minutes. */
    COUPONS_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(60),
    /** Waitlist joins (`POST /api/events/{id}/lista-espera/`, no account needed) per IP address in an hour. */
    WAITLIST_JOIN_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(20),
    /**
     * Joins of an opening's waiting room (`POST /api/events/{id}/fila/`) per IP address in a minute.
     * Generous: at the opening minute many runners share one carrier address (CGNAT), and a join is
     * once per account anyway; it stops one address from joining accounts by the hundred.
     */
    OPENING_JOIN_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(120),
    /**
     * Lottery entries (`POST /api/events/{id}/sorteio/`, accepted or refused) per account in an hour:
     * an account enters at most its opening's "inscrições por comprador" people anyway; this stops
     * one account from trying CPFs by the hundred.
     */
    LOTTERY_ENTRY_RATE_LIMIT_PER_ACCOUNT: z.coerce.number().int().min(1).default(10),
    /** The same per IP address in an hour (generous: many runners share a carrier's address). */
    LOTTERY_ENTRY_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(60),

    AUTH_TOKEN_TTL_HOURS: z.coerce
      .number()
      .int()
      .min(1)
      .default(24 * 7),
    /** Sign-ups (and password-reset e-mails) allowed per IP per hour. */
    SIGNUP_RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(10),
    /**
     * Failed logins from one IP within 15 minutes before browsers without a device cookie get 429 there
     * (docs/decisions/0024-device-cookies-login.md).
     */
    LOGIN_MAX_FAILURES_PER_IP: z.coerce.number().int().min(1).default(50),
    /** Failed logins on one account within 15 minutes before browsers without a device cookie get 429 on it. */
    LOGIN_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).default(10),
    /** Failed logins from one device cookie within 15 minutes before that cookie is no longer trusted. */
    LOGIN_MAX_FAILURES_PER_DEVICE: z.coerce.number().int().min(1).default(10),
    /** A device cookie not used to sign in for this many days is forgotten (cookie and server record). */
    LOGIN_DEVICE_TTL_DAYS: z.coerce.number().int().min(1).max(400).default(180),
    /** How long the e-mailed sign-in link of a blocked attempt with the right password stays valid. */
    LOGIN_LINK_TTL_MINUTES: z.coerce.number().int().min(1).max(1440).default(15),
    /** Sign-in links e-mailed to one account per hour at most. */
    LOGIN_LINK_MAX_PER_HOUR: z.coerce.number().int().min(1).default(3),
    /** How long the link that confirms an account's e-mail works (docs/decisions/0057). */
    EMAIL_CONFIRMATION_TTL_HOURS: z.coerce.number().int().min(1).max(720).default(48),
    /** E-mail confirmation links sent to one account per hour at most (sign-up's own included). */
    EMAIL_CONFIRMATION_MAX_PER_HOUR: z.coerce.number().int().min(1).default(3),
    TRUST_PROXY: trustProxy.default(false),

    /**
     * On SIGTERM the server keeps taking requests this long before it stops listening, so connections a
     * load balancer already opened are served; then it finishes what is in flight and exits.
     */
    SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).max(120).default(3),

    /** Back-office sessions are shorter than customers' (docs/product.md). */
    PAINEL_SESSION_TTL_HOURS: z.coerce.number().int().min(1).max(168).default(8),
    /** When true, every staff member must turn on two-factor sign-in before using the back office. */
    PAINEL_REQUIRE_2FA: bool.default(false),
    /**
     * Signs the kit-pickup QR codes (HMAC-SHA256, docs/decisions/0026): whoever knows it can print a
     * valid ticket, so production must set its own (required there, at least 32 characters).
     */
    CHECKIN_TOKEN_SECRET: z.string().min(32, 'mínimo de 32 caracteres').default(DEV_CHECKIN_TOKEN_SECRET),
    /** Failed back-office sign-ins (or code checks) on one e-mail or account before it locks. */
    PAINEL_LOGIN_LOCK_AFTER: z.coerce.number().int().min(1).max(1000).default(10),
    /** The window those failures count in, and how long the lock lasts. */
    PAINEL_LOGIN_LOCK_MINUTES: z.coerce.number().int().min(1).max(1440).default(15),
    /** Back-office sign-ins and code checks (2FA, password) per IP address in 15 minutes, right or wrong. */
    PAINEL_LOGIN_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(60),
    /**
     * This admin exists and is active at every start: created when missing, promoted or reactivated
     * (audited) when not; an existing account's password is never overwritten.
     */
    ADMIN_EMAIL: z.email('e-mail inválido').optional(),
    ADMIN_PASSWORD: z.string().min(8, 'mínimo de 8 caracteres').max(128).optional(),
    ADMIN_NAME: z.string().min(1).default('Administrador'),
    /** Where uploaded product and event photos go; relative paths are taken from DATA_DIR. */
    MEDIA_DIR: z.string().min(1).default('media'),
    /** `local` keeps photos under MEDIA_DIR; `s3` puts them in an S3-compatible bucket (docs/decisions/0018). */
    MEDIA_STORAGE: z.enum(['local', 's3']).default('local'),
    /**
     * Uploads larger than this many pixels (width × height, read from the file's header) are refused
     * before any decoding: a small file can declare a huge image (docs/decisions/0027).
     */
    PHOTO_MAX_PIXELS: z.coerce
      .number()
      .int()
      .min(1_000_000, 'mínimo 1000000')
      .max(268_402_689)
      .default(40_000_000),
    S3_BUCKET: z.string().optional(),
    /** The S3-compatible server (MinIO, R2, B2…); unset for AWS itself. Buckets are addressed path-style. */
    S3_ENDPOINT: z.url().optional(),
    S3_REGION: z.string().min(1).default('us-east-1'),
    S3_ACCESS_KEY_ID: z.string().optional(),
    S3_SECRET_ACCESS_KEY: z.string().optional(),
    /** Each call to the bucket gives up after this long. */
    S3_TIMEOUT_MS: z.coerce.number().int().min(1000).max(120_000).default(15_000),

    /** False for a process that only serves the web: it enqueues jobs but runs none. */
    JOBS_ENABLED: bool.default(true),
    /** How often an idle worker asks the database for new jobs. */
    JOBS_POLL_SECONDS: z.coerce.number().min(0.5, 'mínimo 0.5').default(2),
    /**
     * How often each process reads the openings' rows again (waiting rooms: pre-queue size, rate),
     * besides every save's notification; position polls answer from that copy (docs/decisions/0046).
     */
    OPENING_REFRESH_MS: z.coerce.number().int().min(100, 'mínimo 100').max(60_000).default(1000),
    /**
     * The most joins of one event's waiting room a process writes in one transaction: joins that arrive
     * while the previous batch is being written go together in the next (docs/decisions/0054).
     */
    OPENING_JOIN_BATCH_MAX: z.coerce.number().int().min(1).max(5000).default(500),
  })
  .superRefine((env, ctx) => {
    if (env.MAIL_PROVIDER === 'smtp' && !env.SMTP_URL) {
      ctx.addIssue({ code: 'custom', path: ['SMTP_URL'], message: 'obrigatório quando MAIL_PROVIDER=smtp' });
    }
    if (env.WHATSAPP_PROVIDER === 'cloud') {
      for (const key of ['WHATSAPP_PHONE_NUMBER_ID', 'WHATSAPP_ACCESS_TOKEN'] as const) {
        if (!env[key])
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: 'obrigatório quando WHATSAPP_PROVIDER=cloud',
          });
      }
    }
    if (env.PAYMENTS === 'efi') {
      for (const key of ['EFI_CLIENT_ID', 'EFI_CLIENT_SECRET', 'EFI_ACCOUNT_ID'] as const) {
        if (!env[key])
          ctx.addIssue({ code: 'custom', path: [key], message: 'obrigatório quando PAYMENTS=efi' });
      }
      if (!env.EFI_CERTIFICATE_PATH && !env.EFI_CERTIFICATE_BASE64)
        ctx.addIssue({
          code: 'custom',
          path: ['EFI_CERTIFICATE_PATH'],
          message: 'obrigatório quando PAYMENTS=efi (ou EFI_CERTIFICATE_BASE64)',
        });
    }
    if (Boolean(env.ADMIN_EMAIL) !== Boolean(env.ADMIN_PASSWORD)) {
      ctx.addIssue({
        code: 'custom',
        path: [env.ADMIN_EMAIL ? 'ADMIN_PASSWORD' : 'ADMIN_EMAIL'],
        message: 'ADMIN_EMAIL e ADMIN_PASSWORD vão juntos',
      });
    }
    if (env.MEDIA_STORAGE === 's3') {
      for (const key of ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
        if (!env[key])
          ctx.addIssue({ code: 'custom', path: [key], message: 'obrigatório quando MEDIA_STORAGE=s3' });
      }
    }
    if (env.LABEL_PROVIDER === 'melhorenvio' && !env.MELHOR_ENVIO_TOKEN) {
      ctx.addIssue({
        code: 'custom',
        path: ['MELHOR_ENVIO_TOKEN'],
        message: 'obrigatório quando LABEL_PROVIDER=melhorenvio',
      });
    }
    if (env.LABEL_PROVIDER === 'correios') {
      for (const key of ['CORREIOS_USER', 'CORREIOS_ACCESS_CODE', 'CORREIOS_POSTING_CARD'] as const) {
        if (!env[key])
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: 'obrigatório quando LABEL_PROVIDER=correios',
          });
      }
    }
    if (env.INVOICING_PROVIDER === 'focusnfe' && !env.FOCUSNFE_TOKEN)
      ctx.addIssue({
        code: 'custom',
        path: ['FOCUSNFE_TOKEN'],
        message: 'obrigatório quando INVOICING_PROVIDER=focusnfe',
      });
    if (env.SHIPPING_PROVIDER === 'correios') {
      for (const key of ['CORREIOS_USER', 'CORREIOS_ACCESS_CODE', 'CORREIOS_POSTING_CARD'] as const) {
        if (!env[key])
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: 'obrigatório quando SHIPPING_PROVIDER=correios',
          });
      }
    }
    if (env.CORREIOS_REVERSA_ADMIN_CODE) {
      for (const key of [
        'CORREIOS_REVERSA_USER',
        'CORREIOS_REVERSA_PASSWORD',
        'CORREIOS_REVERSA_SERVICE',
      ] as const) {
        if (!env[key])
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: 'obrigatório quando CORREIOS_REVERSA_ADMIN_CODE está definido',
          });
      }
    }
  });

export type RawEnv = z.infer<typeof EnvSchema>;
export type Env = RawEnv & { dataDir: string; webDist: string; publicUrl: string; mediaDir: string };

export class EnvError extends Error {}

/**
 * In production these must be chosen on purpose: a default would quietly run a shop whose payments are
 * simulated, whose e-mails never leave the disk, or that fills an empty database with demo data.
 */
const EXPLICIT_IN_PRODUCTION = [
  'PAYMENTS',
  'MAIL_PROVIDER',
  'SEED_DEMO_DATA',
  'CHECKIN_TOKEN_SECRET',
] as const;

/** Parses the environment; a wrong value throws an EnvError naming each bad setting. */
export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  // Empty strings count as unset, as in most .env tooling.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new EnvError(`Configuração inválida no ambiente:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  if (env.NODE_ENV === 'production') {
    const missing = EXPLICIT_IN_PRODUCTION.filter((key) => cleaned[key] === undefined);
    const lines = missing.map((key) => `  ${key}: obrigatório quando NODE_ENV=production (sem valor padrão)`);
    // The development secret is in the repository: tickets signed with it could be printed by anyone.
    if (cleaned.CHECKIN_TOKEN_SECRET === DEV_CHECKIN_TOKEN_SECRET)
      lines.push('  CHECKIN_TOKEN_SECRET: o valor de desenvolvimento não vale em produção');
    if (lines.length > 0) throw new EnvError(`Configuração inválida no ambiente:\n${lines.join('\n')}`);
  }
  const dataDir = path.resolve(repoRoot, env.DATA_DIR);
  return {
    ...env,
    dataDir,
    mediaDir: path.resolve(dataDir, env.MEDIA_DIR),
    webDist: path.resolve(repoRoot, env.WEB_DIST),
    publicUrl: env.PUBLIC_URL ?? `http://localhost:${env.PORT}`,
  };
}
