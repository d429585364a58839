import { z } from 'zod';

/** Notas fiscais: the issuer (offline or Focus NFe) and how the NFS-e of registrations is grouped. */
export const fiscalSettings = {
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
};
