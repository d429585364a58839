import { z } from 'zod';
import { bool } from './parsers.ts';

/** The data: its folder, the database and its pool, how long personal data is kept, backups, health checks and metrics, the built web app. */
export const dataSettings = {
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
  /** Teams one account may captain (docs/decisions/0067-teams.md). */
  TEAMS_PER_ACCOUNT_MAX: z.coerce.number().int().min(1).max(1000).default(20),
  /**
   * Look-ups of a team's join code (`GET /api/equipes/codigo/{codigo}/`, no account needed) per IP
   * address in 10 minutes: a form reads a code once, and guessing codes by the thousand is an attack.
   */
  TEAM_CODE_LOOKUP_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(120),
  /** Places a captain buys for the team in one payment, at most (docs/decisions/0073). */
  TEAM_PLACES_PER_PURCHASE_MAX: z.coerce.number().int().min(2).max(1000).default(100),
  /** Claims of a team's prepaid place (each a registration) per account, in 10 minutes. */
  TEAM_PLACE_CLAIM_RATE_LIMIT_PER_ACCOUNT: z.coerce.number().int().min(1).default(30),
  /** Lines of one captain's list of members to invite (docs/decisions/0075). */
  TEAM_INVITES_PER_IMPORT_MAX: z.coerce.number().int().min(1).max(5000).default(200),
  /** Lines of one stock change in a batch: a goods receipt's grid or a stock file (docs/decisions/0081). */
  STOCK_BATCH_MAX_LINES: z.coerce.number().int().min(1).max(20_000).default(2000),
  /** Invitations one captain sends in 24 hours (e-mails to addresses nobody proved). */
  TEAM_INVITES_PER_CAPTAIN_PER_DAY: z.coerce.number().int().min(1).default(500),
  /** Days an unanswered invitation keeps the name and e-mail the captain gave. */
  TEAM_INVITE_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /**
   * Proofs of special prices sent (`POST /api/comprovantes/`, signed in) per IP address in an hour:
   * a runner sends one or two; each is a decoded image or a PDF kept on disk.
   */
  PROOF_UPLOAD_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(30),
  /**
   * Review photos sent per IP in an hour (decision 0071, later): each is decoded and re-encoded, and a
   * buyer sends one per review.
   */
  REVIEW_PHOTO_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(30),
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
};
