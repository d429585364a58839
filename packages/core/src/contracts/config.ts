import { z } from '../zod.ts';

/** `GET /api/config/`: the public settings the browser needs at run time (nothing secret). */
export const PublicConfigSchema = z.object({
  nome_loja: z.string(),
  pagamentos: z.object({
    provedor: z.enum(['simulado', 'efi']),
    /** Efí account identifier used by the browser-side card tokenizer (public by design); null when simulated. */
    conta: z.string().nullable(),
    ambiente: z.enum(['production', 'sandbox']),
  }),
  /** The encarregado (LGPD art. 41), named on the privacy page (PRIVACY_OFFICER_NAME, PRIVACY_OFFICER_EMAIL). */
  encarregado: z.object({ nome: z.string(), email: z.string() }).optional(),
});
export type PublicConfig = z.infer<typeof PublicConfigSchema>;
