import { z } from '../zod.ts';
import { EditVersionSchema } from './painel-versions.ts';

/** The back office's events: participants, a registration's page, check-in, the event form, bibs, shirts. */

export const ParticipantQuerySchema = z.object({
  categoria: z.coerce.number().int().positive().optional(),
  dia: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use aaaa-mm-dd.')
    .optional(),
  busca: z.string().trim().max(100).optional(),
  /** `pendente`: kit not picked up and registration standing; `cancelada`: cancelled by staff. */
  status: z.enum(['retirado', 'pendente', 'cancelada']).optional(),
});
export type ParticipantQuery = z.infer<typeof ParticipantQuerySchema>;

export const CheckinInfoSchema = z
  .object({
    at: z.string(),
    staff_name: z.string(),
    /**
     * Who collected the kit: the runner, the person they authorised, or the team's collector with the
     * team's kits (docs/decisions/0067, later); the last two named in `retirado_por_nome`.
     */
    retirado_por: z.enum(['titular', 'autorizado', 'equipe']).default('titular'),
    retirado_por_nome: z.string().nullable().default(null),
    /** How much of the event's pickup item was brought; null when none was counted. */
    item_quantidade: z.number().nullable().default(null),
  })
  .nullable();

/** The person the runner authorised to collect the kit (docs/decisions/0063, later): CPF `***.***.***-NN`. */
export const PickupDelegateSchema = z.object({ nome: z.string(), cpf: z.string() });
export type PickupDelegate = z.infer<typeof PickupDelegateSchema>;

/** The event's item to bring at pickup ("1 kg de alimento não perecível"), counted in `unidade`. */
export const PickupItemSchema = z.object({
  texto: z.string(),
  unidade: z.string().nullable(),
  /** Only then is a kit refused without it. */
  exigido: z.boolean(),
});
export type PickupItem = z.infer<typeof PickupItemSchema>;

export const PainelParticipantSchema = z.object({
  id: z.number().int(),
  evento: z.number().int(),
  nome_completo: z.string(),
  /** Whole for PERSONAL_DATA_PERMISSIONS, masked (`***.644.788-**`) for the other roles. */
  cpf: z.string(),
  /** Null for a member without PERSONAL_DATA_PERMISSIONS, as are `email`, `numero_contato` and `contato_emergencia`. */
  data_nascimento: z.string().nullable(),
  genero: z.string(),
  email: z.string().nullable(),
  numero_contato: z.string().nullable(),
  cidade: z.string(),
  estado: z.string(),
  categorias: z.array(
    z.object({
      id: z.number().int(),
      nome: z.string(),
      dia: z.string(),
      /** The bib staff assigned for this race, or null before they do. */
      numero_peito: z.number().int().nullable().default(null),
      /** The start wave given for this race (docs/decisions/0066), or null without waves. */
      onda: z.string().nullable().default(null),
    }),
  ),
  total: z.number(),
  criado_em: z.string(),
  retirada: CheckinInfoSchema,
  /** Age group on the event day. */
  faixa_etaria: z.string(),
  /** Half price (60+) applied: check a document at kit pickup. */
  meia_entrada: z.boolean(),
  tamanho_camisa: z.string().nullable(),
  equipe: z.string().nullable(),
  /** A place the team paid, all of it or a share (the runner paying the rest): docs/decisions/0073, 0079. */
  vaga_de_equipe: z.boolean().default(false),
  /** Null for a member whose role does not see health data (HEALTH_DATA_PERMISSIONS). */
  pcd: z.boolean().nullable(),
  contato_emergencia: z.object({ nome: z.string(), telefone: z.string() }).nullable(),
  /** The shop order that paid for it (a cart), or null on the direct path. */
  pedido_id: z.number().int().nullable().default(null),
  /** Set once staff cancelled it: it holds no place, shirt nor category, and its kit is not handed out. */
  cancelamento: z.object({ em: z.string(), motivo: z.string().nullable() }).nullable().default(null),
  /** Who the runner authorised to collect the kit, when the event's rules let this registration. */
  retirada_autorizada: PickupDelegateSchema.nullable().default(null),
});
export type PainelParticipant = z.infer<typeof PainelParticipantSchema>;

export const CategoryCountSchema = z.object({
  id: z.number().int(),
  nome: z.string(),
  dia: z.string(),
  inscritos: z.number().int(),
  retirados: z.number().int(),
  vagas_restantes: z.number().int(),
});

/** One registration as its back-office page shows it: the person, the payment and whether it can be cancelled. */
export const PainelRegistrationDetailSchema = z.object({
  inscricao: PainelParticipantSchema,
  evento: z.object({ id: z.number().int(), nome: z.string() }),
  pagamento: z.object({
    txid: z.string(),
    metodo: z.enum(['pix', 'cartao', 'gratuito']),
    status: z.string(),
    /** What the charge took, in reais (interest included): what a cancellation returns. */
    valor: z.number(),
    devolucao: z.object({ status: z.string(), valor: z.number(), motivo: z.string() }).nullable(),
  }),
  /**
   * Every registration a cancellation would cancel: the charge is returned whole, so all it paid
   * for (on the direct path, this one only).
   */
  cancela: z.array(z.object({ id: z.number().int(), nome_completo: z.string() })),
  /** Null when staff may cancel it here; otherwise why not (paid with an order, already cancelled, kit picked up). */
  impedimento_cancelamento: z.string().nullable(),
  /**
   * What staff's cancellation returns (everything paid and not yet returned: its charge, and those of a
   * transfer or a change of distance), or, in the cancel's answer, what it returned; split by payer after
   * a transfer ("você" being the registration's holder). Null when there is nothing to say.
   */
  // The fields of after-sale.ts's RefundByPayerSchema, written out: that file imports this one.
  devolucao_cancelamento: z
    .object({
      valor_devolvido: z.number(),
      devolvido_a_voce: z.number().optional(),
      devolvido_a_quem_pagou: z.number().optional(),
    })
    .nullable()
    .default(null),
  /** What changed after the sale (cancel, transfer, changes), oldest first (docs/decisions/0041). */
  historico: z.array(z.string()).optional(),
});
export type PainelRegistrationDetail = z.infer<typeof PainelRegistrationDetailSchema>;

export const RegistrationCancelSchema = z.object({
  motivo: z.string().trim().max(300, 'Use no máximo 300 caracteres.').optional(),
});
export type RegistrationCancel = z.input<typeof RegistrationCancelSchema>;

/**
 * Staff change a registration's distance (`de` → `para`, both or neither) and/or shirt size
 * (`tamanho_camisa`, a kit size id) in the back office (docs/decisions/0060).
 */
export const RegistrationStaffChangeSchema = z
  .object({
    de: z.number().int().positive().optional(),
    para: z.number().int().positive().optional(),
    tamanho_camisa: z.number().int().positive().optional(),
  })
  .refine((v) => (v.de === undefined) === (v.para === undefined), {
    message: 'Informe a distância atual e a nova.',
    path: ['para'],
  })
  .refine((v) => v.para !== undefined || v.tamanho_camisa !== undefined, {
    message: 'Escolha a distância nova ou o tamanho da camisa.',
    path: ['para'],
  });
export type RegistrationStaffChange = z.input<typeof RegistrationStaffChangeSchema>;

export const ParticipantListSchema = z.object({
  results: z.array(PainelParticipantSchema),
  contagem: z.array(CategoryCountSchema),
});

const CheckinEventSchema = z
  .number({ error: 'Abra o check-in de um evento.' })
  .int('Abra o check-in de um evento.')
  .positive('Abra o check-in de um evento.');
const RegistrationNumberSchema = z
  .number({ error: 'Informe o número da inscrição.' })
  .int('Informe o número da inscrição.')
  .positive('Informe o número da inscrição.');

/**
 * Kit pickup at the check-in screen of one event (`evento`): the registration by its QR code's text
 * (the signed ticket, docs/decisions/0026) or, after a search by name or CPF, by its number. The
 * preview answers who it is; the check-in itself is the same request sent to `/checkin/`.
 */
export const PickupItemQuantitySchema = z
  .number({ error: 'Informe a quantidade trazida.' })
  .min(0, 'Informe a quantidade trazida.')
  .max(1000, 'No máximo 1000.');

export const CheckinRequestSchema = z
  .object({
    evento: CheckinEventSchema,
    codigo: z.string().trim().max(200, 'Este QR code não é de uma inscrição da Passada.').optional(),
    inscricao: RegistrationNumberSchema.optional(),
    /** Who collects it: the runner, or the person they authorised (their document checked). */
    retirou: z.enum(['titular', 'autorizado']).default('titular'),
    /** How much of the event's pickup item was brought (its unit); absent or null: none. */
    item_quantidade: PickupItemQuantitySchema.nullable().optional(),
  })
  .refine((v) => v.codigo || v.inscricao, {
    message: 'Leia o QR code ou busque a inscrição pelo nome ou CPF.',
    path: ['codigo'],
  });
export type CheckinRequest = z.input<typeof CheckinRequestSchema>;

/** `GET /checkin/eventos/`: the events whose check-in the member may open. */
export const CheckinEventListSchema = z.array(
  z.object({ id: z.number().int(), nome_evento: z.string(), start_data_evento: z.string() }),
);
export type CheckinEventList = z.infer<typeof CheckinEventListSchema>;

/** What staff see before handing a kit out: who it is, for which event, and whether it can go. */
export const CheckinPreviewSchema = z.object({
  participante: PainelParticipantSchema,
  evento: z.object({ id: z.number().int(), nome: z.string() }),
  /** `pode_retirar`: confirm to hand the kit out; `retirado`: already handed out; `cancelada`: never. */
  situacao: z.enum(['pode_retirar', 'retirado', 'cancelada']),
  /** Paid at the 60+ half price (Estatuto do Idoso): check a document with a photo first. */
  confira_documento: z.boolean(),
  /**
   * A place drawn in the event's lottery: the place is the CPF's person, whoever entered or paid, so the
   * kit goes only to whoever shows a photo ID of this CPF (docs/decisions/0051, later).
   */
  confira_cpf: z.boolean(),
  /** The event's item to bring: the desk asks "Trouxe o item?" with a quantity. */
  item: PickupItemSchema.nullable().default(null),
  /**
   * The special price that priced it (docs/decisions/0068) and its document: `conferido` (staff approved
   * the proof), `conferir` (check it here), `nao_pedido`. Never what the document says (a PCD's diagnosis).
   */
  preco_especial: z
    .object({ regra: z.string(), documento: z.enum(['conferido', 'conferir', 'nao_pedido']) })
    .nullable()
    .default(null),
});
export type CheckinPreview = z.infer<typeof CheckinPreviewSchema>;

/**
 * Undoing a kit pickup (handed to the wrong person, scanned by mistake): the reason is mandatory and
 * audited; `retirada_em` is the pickup being undone, so a newer one is never removed unseen.
 */
export const CheckinUndoSchema = z.object({
  evento: CheckinEventSchema,
  inscricao: RegistrationNumberSchema,
  retirada_em: z.iso.datetime({ offset: true, error: 'Informe a retirada que será desfeita.' }),
  motivo: z
    .string({ error: 'Informe o motivo.' })
    .trim()
    .min(3, 'Informe o motivo (pelo menos 3 letras).')
    .max(300, 'Use no máximo 300 caracteres.'),
});
export type CheckinUndo = z.input<typeof CheckinUndoSchema>;

/** A date as forms send it, aaaa-mm-dd. */
export const IsoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use aaaa-mm-dd.');

/** Total places or shirts: what the event offers, sold ones included (never what is left). */
const Capacity = (missing: string) =>
  z.number({ error: missing }).int(missing).min(0, missing).max(100_000, 'No máximo 100.000.');

const AgeLimit = z
  .number({ error: 'Informe a idade em anos.' })
  .int('Informe a idade em anos.')
  .min(0, 'Informe a idade em anos.')
  .max(120, 'No máximo 120 anos.');

/** An event as staff write it; dates of the event come from its days. Prices in reais. */
const EventFieldsSchema = z.object({
  nome_evento: z.string().trim().min(3, 'Informe o nome do evento.').max(120),
  organizer: z.string().trim().min(2, 'Informe o organizador.').max(120),
  city: z.string().trim().min(2, 'Informe a cidade.').max(80),
  state: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2}$/, 'Use a sigla do estado (ex.: CE).')
    .transform((v) => v.toUpperCase()),
  prazo_inscricao: IsoDate,
  hora_evento: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Use hh:mm.'),
  descricao_evento: z.string().trim().min(1, 'Informe a descrição.').max(5000),
  regulamento: z.string().trim().min(1, 'Informe o regulamento.').max(50_000),
  /** URL of a photo sent to /events/image/; empty keeps (or draws) the generated poster. */
  imagem_evento: z.string().max(200).optional(),
  /**
   * Kit shirt sizes; absent keeps the stored ones. A size keeps its id (and its reservations).
   * `capacidade` is the total of shirts of the size; the server works out how many are left from it
   * and the shirts sold or held at the moment it saves.
   */
  kit_tamanhos: z
    .array(
      z.object({
        id: z.number().int().positive().optional(),
        tamanho: z.string().trim().min(1, 'Informe o tamanho.').max(20),
        capacidade: Capacity('Informe o total de camisas do tamanho.'),
      }),
    )
    .max(20)
    .optional(),
  kit_local_retirada: z.string().trim().max(300).optional(),
  kit_horarios_retirada: z.string().trim().max(1000).optional(),
  /** The event's own termo; empty uses the standard one. */
  termo_responsabilidade: z.string().trim().max(20_000).optional(),
  oferece_pcd: z.boolean().optional(),
  /**
   * The NFS-e's national service code (cTribNac) and NBS of the event's registrations; empty uses the
   * shop's fiscal settings (docs/decisions/0059, later). Absent keeps what is stored.
   */
  nfse_codigo_tributacao_nacional: z
    .string()
    .trim()
    .transform((s) => s.replace(/\D/g, ''))
    .refine((s) => s === '' || s.length === 6, 'Código de tributação nacional tem 6 dígitos (ex.: 12.11.01).')
    .optional(),
  nfse_nbs: z
    .string()
    .trim()
    .transform((s) => s.replace(/\D/g, ''))
    .refine((s) => s === '' || s.length === 9, 'Código NBS tem 9 dígitos (ex.: 1.2603.11.00).')
    .optional(),
  dias_evento: z
    .array(
      z.object({
        data: IsoDate,
        categorias: z
          .array(
            z.object({
              id: z.number().int().positive().optional(),
              nome_categoria: z.string().trim().min(1, 'Informe o nome da categoria.').max(80),
              preco_inscricao: z.number().min(0, 'Preço inválido.').max(10_000),
              /** Total places of the category, sold ones included; what is left follows from it. */
              capacidade: Capacity('Informe o total de vagas da categoria.'),
              /** Age limits on the race day; null or absent is none (absent on an edit clears it too). */
              idade_minima: AgeLimit.nullable().optional(),
              idade_maxima: AgeLimit.nullable().optional(),
              /** A relay of 2, 4 or 8 runners sold as one entry (docs/decisions/0078); null or absent: individual. */
              revezamento: z
                .union([z.literal(2), z.literal(4), z.literal(8)], {
                  error: 'Um revezamento tem 2, 4 ou 8 corredores.',
                })
                .nullable()
                .optional(),
              /** Price lots in order; absent keeps the stored ones, [] removes them. */
              lotes: z
                .array(
                  z.object({
                    nome: z.string().trim().min(1, 'Informe o nome do lote.').max(40),
                    preco_inscricao: z.number().min(0, 'Preço inválido.').max(10_000),
                    ate_data: IsoDate.nullable().optional(),
                    ate_inscricoes: z
                      .number()
                      .int()
                      .positive('Informe um número de inscrições.')
                      .nullable()
                      .optional(),
                  }),
                )
                .max(10)
                .optional(),
            }),
          )
          .min(1, 'Cada dia precisa de pelo menos uma categoria.'),
      }),
    )
    .min(1, 'Informe pelo menos um dia de evento.'),
});

function checkEventDates(e: z.output<typeof EventFieldsSchema>, ctx: z.RefinementCtx) {
  const dates = e.dias_evento.map((d) => d.data);
  if (new Set(dates).size !== dates.length)
    ctx.addIssue({ code: 'custom', path: ['dias_evento'], message: 'Cada dia aparece uma vez.' });
  for (const [d, day] of e.dias_evento.entries())
    for (const [k, c] of day.categorias.entries())
      if (c.idade_minima != null && c.idade_maxima != null && c.idade_minima > c.idade_maxima)
        ctx.addIssue({
          code: 'custom',
          path: ['dias_evento', d, 'categorias', k, 'idade_maxima'],
          message: 'A idade máxima não pode ser menor que a mínima.',
        });
  const first = [...dates].sort()[0];
  if (first && e.prazo_inscricao > first)
    ctx.addIssue({
      code: 'custom',
      path: ['prazo_inscricao'],
      message: 'O prazo termina até o primeiro dia do evento.',
    });
}

/** A new event (POST /api/painel/events/). */
export const EventInputSchema = EventFieldsSchema.superRefine(checkEventDates);

/** An edit (PUT /api/painel/events/{id}/): the whole form and the version it was opened with. */
export const EventUpdateSchema = EventFieldsSchema.extend({ versao: EditVersionSchema }).superRefine(
  checkEventDates,
);
export type EventUpdate = z.input<typeof EventUpdateSchema>;
export type EventInput = z.input<typeof EventInputSchema>;

/** Read-only next to a capacity in the form: how many are sold or held for a payment, and how many are left. */
interface Occupancy {
  /** Sold or held by a payment in progress (its places come back if it expires). */
  vendidas: number;
  restantes: number;
}

/**
 * An event as the back office edits it (`GET /api/painel/events/{id}/`): the fields of EventUpdateSchema
 * as stored, so the form sends them back unchanged: each category's own price (not the lot in force),
 * its lots and its total places, the kit sizes with their ids and totals, the event's own termo (empty
 * when it uses the standard one), its uploaded image (empty when it shows the generated poster) and the
 * version to send back. Sales change `vendidas`/`restantes`, never `capacidade` nor `versao`.
 */
export type PainelEvent = Omit<z.output<typeof EventFieldsSchema>, 'dias_evento' | 'kit_tamanhos'> & {
  id: number;
  versao: number;
  imagem_evento: string;
  kit_tamanhos: Array<{ id: number; tamanho: string; capacidade: number } & Occupancy>;
  kit_local_retirada: string;
  kit_horarios_retirada: string;
  termo_responsabilidade: string;
  oferece_pcd: boolean;
  /** The event's own NFS-e codes (digits); empty uses the shop's. */
  nfse_codigo_tributacao_nacional: string;
  nfse_nbs: string;
  /** Staff closed registrations by hand (POST /events/{id}/inscricoes/ reopens them). */
  inscricoes_fechadas: boolean;
  dias_evento: Array<{
    data: string;
    categorias: Array<
      z.output<typeof EventFieldsSchema>['dias_evento'][number]['categorias'][number] & {
        id: number;
        idade_minima: number | null;
        idade_maxima: number | null;
      } & Occupancy
    >;
  }>;
};

/** Closing or reopening an event's registrations by hand (POST /api/painel/events/{id}/inscricoes/). */
export const RegistrationsSwitchSchema = z.object({ abertas: z.boolean() });
export type RegistrationsSwitch = z.input<typeof RegistrationsSwitchSchema>;

/**
 * Assigning bibs (números de peito) to an event's standing registrations, sorted by name the pt-BR way
 * (POST /api/painel/events/{id}/numeros-de-peito/): one sequence from `inicio`, or one range per
 * category (`faixas`, each from its own first number). Every assignment replaces the earlier one.
 */
export const BibAssignmentSchema = z.discriminatedUnion('modo', [
  z.object({
    modo: z.literal('sequencia'),
    inicio: z
      .number({ error: 'Informe o primeiro número.' })
      .int()
      .min(1, 'Comece em 1 ou mais.')
      .max(999_999),
  }),
  z.object({
    modo: z.literal('categorias'),
    faixas: z
      .array(
        z.object({
          categoria: z.number().int().positive(),
          inicio: z
            .number({ error: 'Informe o primeiro número.' })
            .int()
            .min(1, 'Comece em 1 ou mais.')
            .max(999_999),
        }),
      )
      .min(1, 'Informe a faixa de pelo menos uma categoria.'),
  }),
]);
export type BibAssignment = z.input<typeof BibAssignmentSchema>;

/** What an assignment did: how many bibs per category, first and last. */
export const BibResultSchema = z.object({
  categorias: z.array(
    z.object({
      id: z.number().int(),
      nome: z.string(),
      quantidade: z.number().int(),
      primeiro: z.number().int().nullable(),
      ultimo: z.number().int().nullable(),
    }),
  ),
});
export type BibResult = z.infer<typeof BibResultSchema>;

/** Shirts to order per size, from the standing registrations' kit sizes (GET /events/{id}/camisas/). */
export const ShirtReportSchema = z.object({
  tamanhos: z.array(z.object({ tamanho: z.string(), quantidade: z.number().int() })),
  total: z.number().int(),
});
export type ShirtReport = z.infer<typeof ShirtReportSchema>;
