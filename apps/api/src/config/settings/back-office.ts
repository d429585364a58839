import { z } from 'zod';
import { bool, DEV_CHECKIN_TOKEN_SECRET } from './parsers.ts';

/** The back office and photos: staff sessions and sign-in, the first admin, the kit-pickup QR secret, where photos go. */
export const backOfficeSettings = {
  /** Back-office sessions are shorter than customers' (docs/product.md). */
  PAINEL_SESSION_TTL_HOURS: z.coerce.number().int().min(1).max(168).default(8),
  /** When true, every staff member must turn on two-factor sign-in before using the back office. */
  PAINEL_REQUIRE_2FA: bool.default(false),
  /**
   * Signs the kit-pickup QR codes (HMAC-SHA256, docs/decisions/0026): whoever knows it can print a
   * valid ticket, so production must set its own (required there, at least 32 characters).
   */
  CHECKIN_TOKEN_SECRET: z.string().min(32, 'mínimo de 32 caracteres').default(DEV_CHECKIN_TOKEN_SECRET),
  /** Pickups one offline batch may carry (docs/decisions/0063; the desk sends 50 at a time); more is a 400. */
  CHECKIN_OFFLINE_BATCH_MAX: z.coerce.number().int().min(50).max(5000).default(500),
  /**
   * Lines one timer's results file may hold (docs/decisions/0064); the import's request may be up to
   * 256 bytes per line.
   */
  RESULTS_IMPORT_MAX_LINES: z.coerce.number().int().min(100).max(200_000).default(20_000),
  /**
   * Results answers (pages of an event's results, runners' pages) each process keeps built and compressed
   * until a publication or a change to a name they show (docs/decisions/0064); past it, answers are built
   * for each request and not kept (searches are endless, the cache is not).
   */
  RESULTS_CACHE_MAX_ANSWERS: z.coerce.number().int().min(0).max(200_000).default(2_000),
  /**
   * Certificate jobs (25 finishers each: a PDF and an e-mail per finisher) each process runs at once after
   * a publication. One keeps the storefront's answers quick while a race's thousands are sent
   * (docs/decisions/0064, later); more send them sooner on a machine with cores to spare.
   */
  RESULTS_CERTIFICATE_WORKERS: z.coerce.number().int().min(1).max(16).default(1),
  /**
   * Size exchanges of a product (a P exchanged for an M) before its page says how it fits
   * (docs/decisions/0070): below it, a few exchanges would make a verdict out of chance.
   */
  FIT_HINT_MIN_EXCHANGES: z.coerce.number().int().min(1).max(10_000).default(5),
  /** Lines a signed-in buyer's cart kept on the server may hold (docs/decisions/0072). */
  SERVER_CART_MAX_LINES: z.coerce.number().int().min(1).max(200).default(50),
  /** Saves of the cart kept on the server per account in 10 minutes (the browser saves on each change). */
  SERVER_CART_RATE_LIMIT_PER_ACCOUNT: z.coerce.number().int().min(1).default(300),
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
};
