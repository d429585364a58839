import { z } from 'zod';

/** Payments: the provider (simulated or Efí) and Pix, what one charge or account may hold, and the rate limits of buying, coupons, waitlists and openings. */
export const paymentSettings = {
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
  /** "Avise-me quando chegar" requests (no account needed) per IP, in an hour. */
  STOCK_ALERT_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(20),
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
};
