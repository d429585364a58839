import { z } from '../zod.ts';

/** The back office's customers: search, a customer's page, erasure on request, the incident export. */

/**
 * `POST /clientes/busca/`: a customer by part of the name or e-mail, or by CPF (digits, any
 * punctuation). A POST so the CPF travels in the body and never in a logged URL.
 */
export const CustomerSearchSchema = z
  .object({
    busca: z.string().trim().max(120).default(''),
    /** Only the customers with this tag (with or without `busca`). */
    etiqueta: z.string().trim().toLowerCase().max(40).optional(),
    page: z.coerce.number().int().min(1).default(1),
  })
  .refine((s) => s.busca.length >= 2 || (s.etiqueta ?? '').length > 0, {
    message: 'Digite pelo menos 2 letras ou escolha uma etiqueta.',
    path: ['busca'],
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

/** A tag staff give a customer: lower case, letters, digits, spaces and hyphens, up to 40 characters. */
export const CustomerTagSchema = z
  .string({ error: 'Informe a etiqueta.' })
  .trim()
  .toLowerCase()
  .transform((t) => t.replace(/\s+/g, ' '))
  .pipe(
    z
      .string()
      .min(1, 'Informe a etiqueta.')
      .max(40, 'Use no máximo 40 caracteres.')
      .regex(/^[\p{L}\p{N}][\p{L}\p{N} -]*$/u, 'Use só letras, números, espaços e hífens.'),
  );

/** `POST /clientes/:id/etiquetas/`. */
export const CustomerTagAddSchema = z.object({ etiqueta: CustomerTagSchema });

/** `POST /clientes/:id/notas/`: a note staff keep on the customer (the person sees it in their data). */
export const CustomerNoteCreateSchema = z.object({
  texto: z
    .string({ error: 'Escreva a nota.' })
    .trim()
    .min(1, 'Escreva a nota.')
    .max(1000, 'Use no máximo 1000 caracteres.'),
});

export const CustomerNoteSchema = z.object({
  id: z.number().int(),
  texto: z.string(),
  autor: z.string(),
  criada_em: z.string(),
});
export type CustomerNote = z.infer<typeof CustomerNoteSchema>;

/** `GET /clientes/etiquetas/`: the tags in use, with how many customers carry each. */
export const CustomerTagCountsSchema = z.array(
  z.object({ etiqueta: z.string(), clientes: z.number().int() }),
);

export const CustomerDetailSchema = z.object({
  cliente: CustomerSchema,
  /** Newest first. */
  notas: z.array(CustomerNoteSchema),
  /** In alphabetical order. */
  etiquetas: z.array(z.string()),
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
