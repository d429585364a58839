import { z } from '../zod.ts';

/** The back office's customers: search, a customer's page, erasure on request, the incident export. */

/**
 * `POST /clientes/busca/`: a customer by part of the name or e-mail, or by CPF (digits, any
 * punctuation). A POST so the CPF travels in the body and never in a logged URL.
 */
export const CustomerSearchSchema = z.object({
  busca: z.string().trim().min(2, 'Digite pelo menos 2 letras.').max(120),
  page: z.coerce.number().int().min(1).default(1),
});
export type CustomerSearch = z.input<typeof CustomerSearchSchema>;

export const CustomerSchema = z.object({
  id: z.number().int(),
  nome: z.string(),
  email: z.string(),
  username: z.string(),
  criado_em: z.string(),
  /** Erased on request or by the person (LGPD): the row stays, anonymised. */
  excluida: z.boolean(),
});
export type Customer = z.infer<typeof CustomerSchema>;

export const CustomerPageSchema = z.object({ results: z.array(CustomerSchema), count: z.number().int() });

export const CustomerDetailSchema = z.object({
  cliente: CustomerSchema,
  pedidos: z.array(
    z.object({ id: z.number().int(), data: z.string(), status: z.string(), total: z.number() }),
  ),
  inscricoes: z.array(
    z.object({
      id: z.number().int(),
      evento: z.string(),
      participante: z.string(),
      criada_em: z.string(),
      cancelada: z.boolean(),
    }),
  ),
});
export type CustomerDetail = z.infer<typeof CustomerDetailSchema>;

/** `POST /clientes/:id/excluir/`: erasure on the person's request, with how it was asked. */
export const CustomerEraseSchema = z.object({
  motivo: z
    .string({ error: 'Informe como a pessoa pediu a exclusão.' })
    .trim()
    .min(3, 'Informe como a pessoa pediu a exclusão.')
    .max(300, 'Use no máximo 300 caracteres.'),
});

/** `GET /clientes/incidente.csv`: the window of a security incident, as dates (aaaa-mm-dd, store calendar). */
export const IncidentWindowSchema = z
  .object({
    desde: z.iso.date({ error: 'Informe a data de início (aaaa-mm-dd).' }),
    ate: z.iso.date({ error: 'Informe a data de fim (aaaa-mm-dd).' }),
  })
  .refine((w) => w.desde <= w.ate, { message: 'O início deve vir antes do fim.', path: ['ate'] });
