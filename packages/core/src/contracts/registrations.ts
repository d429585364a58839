import { normalizeCep } from '../cep.ts';
import { isValidCpf } from '../documents.ts';
import { parseEstimatedTime } from '../waves.ts';
import { z } from '../zod.ts';
import {
  CepSchema,
  cepMatchesState,
  EmailSchema,
  FullNameSchema,
  PhoneSchema,
  requiredText,
  UfSchema,
} from './accounts.ts';
import { IdSchema, IdTextSchema } from './common.ts';
import { DraftCouponSchema } from './coupon-code.ts';

/**
 * Event registrations on the wire (docs/product.md §3 and §7): the participant payload, what paying for it
 * creates, the lookup by CPF and the server's price for the form.
 */

export const GENEROS = ['Masculino', 'Feminino'] as const;
export type Genero = (typeof GENEROS)[number];

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar day written aaaa-mm-dd (rejects 2026-02-30). */
export function isRealIsoDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === value;
}

/** CPF typed with or without punctuation, kept as 11 digits. */
export const CpfSchema = z
  .string({ error: 'Digite o CPF.' })
  .transform((v) => v.replace(/\D/g, ''))
  .refine(isValidCpf, 'CPF inválido.');

export const BirthDateSchema = z
  .string({ error: 'Informe a data de nascimento.' })
  .refine(isRealIsoDate, 'Informe uma data de nascimento válida.')
  .refine((v) => v >= '1900-01-01', 'Informe uma data de nascimento válida.');

const participantFields = {
  nome_completo: FullNameSchema,
  cpf: CpfSchema,
  data_nascimento: BirthDateSchema,
  genero: z.enum(GENEROS, { error: 'Selecione o gênero.' }),
  /** The address as one line; composed from the parts below when left empty. */
  endereco: z.string().trim().max(300).optional(),
  numero_contato: PhoneSchema,
  email: EmailSchema,
  evento: IdSchema,
  categoria_evento: z
    .array(IdSchema)
    .min(1, 'Escolha ao menos uma categoria.')
    .max(20)
    .refine((ids) => new Set(ids).size === ids.length, 'Categoria repetida.'),
  street: requiredText('Informe a rua e o número.', 200),
  zip_code: CepSchema,
  state: UfSchema,
  city: requiredText('Informe a cidade.'),
  neighborhood: requiredText('Informe o bairro.'),
  /** The kit size's id; required when the event's kit has shirt sizes. */
  tamanho_camisa: z.number({ error: 'Escolha o tamanho da camisa.' }).int().positive().optional(),
  /** Team or assessoria, optional. */
  equipe: z
    .string()
    .trim()
    .max(80, 'Use no máximo 80 caracteres.')
    .optional()
    .transform((v) => v || undefined),
  /**
   * A team's join code (contracts/teams.ts): the server resolves it and the team's name replaces
   * `equipe`; a code that names no open team of this event is refused.
   */
  equipe_codigo: z
    .string()
    .max(20, 'Código de equipe inválido.')
    .optional()
    .transform((v) => v?.replace(/[\s-]/g, '').toUpperCase() || undefined),
  /**
   * The runner lets the team's captain (or whom the captain sends) collect the kit with the team's other
   * kits (docs/decisions/0067, later); counts only with `equipe_codigo`.
   */
  retirada_pela_equipe: z.boolean().default(false),
  /**
   * A runner's referral link's code (`?indicacao=` on the event's page, docs/decisions/0086): the server
   * checks it; one that names no paid registration of this event (or the runner's own) is no referral.
   */
  indicacao: z
    .string()
    .max(64)
    .optional()
    .transform((v) => v?.trim() || undefined),
  /**
   * A price rule of the chosen category (students, teachers, PCD, an organiser's list; docs/decisions/0068)
   * instead of the lot's price; the server checks who may take it and prices it.
   */
  regra_preco: IdSchema.optional(),
  /** The proof the rule asks for, sent before (`POST /api/comprovantes/`): its token. */
  comprovante: z.string().max(64).optional(),
  /** A PCD rule's document is health data: its own consent (PCD_PROOF_CONSENT), required with it. */
  comprovante_consentimento: z.boolean().default(false),
  contato_emergencia_nome: requiredText('Informe o nome do contato de emergência.', 120),
  contato_emergencia_telefone: PhoneSchema,
  pcd: z.boolean().default(false),
  /** The PCD answer's own consent (health data, LGPD art. 11 I; text in consents.ts): required with `pcd`. */
  pcd_consentimento: z.boolean().default(false),
  /** Opt-in to WhatsApp messages at the participant's phone (consents.ts, WHATSAPP_CONSENT). */
  whatsapp: z.boolean().default(false),
  aceite_termo: z.literal(true, { error: 'Aceite o termo de responsabilidade para continuar.' }),
  /** The termo_versao of the event page the person read; a newer text must be read again. */
  termo_versao: z.string({ error: 'Aceite o termo de responsabilidade para continuar.' }).min(1).max(64),
  /** A discount coupon's code (any case); the server checks it and prices the discount. */
  cupom: DraftCouponSchema,
  /**
   * The runner's estimated finish time for each race with waves (largada por ondas, docs/decisions/0066),
   * `h:mm` or `h:mm:ss`; a race with waves left without one starts in its last wave.
   */
  tempos_estimados: z
    .array(
      z.object({
        categoria: IdSchema,
        tempo: z
          .string()
          .max(8)
          .trim()
          .refine(
            (v) => v === '' || parseEstimatedTime(v) !== null,
            'Informe o tempo estimado como h:mm (por exemplo 0:55).',
          ),
      }),
    )
    .max(20)
    // A race left blank is no estimate (it starts in the last wave).
    .transform((list) => list.filter((e) => e.tempo !== ''))
    .optional(),
  /** A past result's address, for the organiser to check the estimate (optional). */
  resultado_anterior: z
    .string()
    .trim()
    .max(300, 'Use no máximo 300 caracteres.')
    .regex(/^https?:\/\/[^\s]+$/i, 'Informe o endereço do resultado começando com https://.')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /**
   * The signed link of a waitlist offer (docs/decisions/0042-waitlist.md): the place held for this
   * person in the offered category is the one the registration takes.
   */
  oferta_espera: z.string().trim().max(200).optional(),
};

/** Health data is asked with its own consent (LGPD art. 11 I): no PCD answer without it. */
function pcdNeedsConsent(v: { pcd?: boolean; pcd_consentimento?: boolean }, ctx: z.RefinementCtx) {
  if (v.pcd && !v.pcd_consentimento)
    ctx.addIssue({
      code: 'custom',
      path: ['pcd_consentimento'],
      message: 'Para se inscrever como PCD, autorize o uso desta informação.',
    });
}

type ParticipantShape = {
  zip_code: string;
  state: string;
  endereco?: string | undefined;
  street: string;
  neighborhood: string;
  city: string;
};

/** "Av. Beira Mar, 100 - Meireles, Fortaleza - CE, 60165-121". */
export function composeAddress(v: Omit<ParticipantShape, 'endereco'>): string {
  const cep = normalizeCep(v.zip_code);
  const cepText = cep.length === 8 ? `${cep.slice(0, 5)}-${cep.slice(5)}` : v.zip_code;
  return `${v.street} - ${v.neighborhood}, ${v.city} - ${v.state}, ${cepText}`;
}

function withAddress<T extends ParticipantShape>(v: T): T & { endereco: string } {
  return { ...v, endereco: v.endereco || composeAddress(v) };
}

/** The participant payload (docs/product.md §3): the draft a registration charge pays for. */
export const ParticipantSchema = z
  .object(participantFields)
  .superRefine(cepMatchesState)
  .superRefine(pcdNeedsConsent)
  .transform(withAddress);
export type ParticipantInput = z.input<typeof ParticipantSchema>;
export type Participant = z.output<typeof ParticipantSchema>;

/**
 * What prices a registration (the coupon preview before the form is complete): the event, the
 * categories, and when already typed the birth date (60+ half price) and CPF (per-CPF coupon limit).
 */
export const RegistrationPriceDraftSchema = z.object({
  evento: participantFields.evento,
  categoria_evento: participantFields.categoria_evento,
  data_nascimento: BirthDateSchema.optional(),
  cpf: CpfSchema.optional(),
  cupom: DraftCouponSchema,
});

/** POST /api/participantes/cadastrar/: the paid charge's txid (or card charge id) and the payload. */
export const RegisterRequestSchema = z
  .object({ txid: z.string().min(1).max(100), ...participantFields })
  .superRefine(cepMatchesState)
  .superRefine(pcdNeedsConsent)
  .transform(withAddress);
export type RegisterRequest = z.input<typeof RegisterRequestSchema>;

const CategoryRefSchema = z.object({ id: z.number().int(), nome_categoria: z.string() });

export const RegistrationSchema = z.object({
  id: z.number().int(),
  evento: z.number().int(),
  nome_completo: z.string(),
  /** Formatted "403.644.788-29". */
  cpf: z.string(),
  data_nascimento: z.string(),
  genero: z.string(),
  endereco: z.string(),
  numero_contato: z.string(),
  email: z.string(),
  categoria_evento: z.array(z.number().int()),
  categoria_evento_detalhes: z.array(CategoryRefSchema.extend({ preco: z.number() })),
  street: z.string(),
  zip_code: z.string(),
  state: z.string(),
  city: z.string(),
  neighborhood: z.string(),
  tamanho_camisa: z.string().nullable(),
  equipe: z.string().nullable(),
  faixa_etaria: z.string(),
  meia_entrada: z.boolean(),
  /** What the registration costs, in reais (before any card interest). */
  total: z.number(),
  /** The discount coupon's code and what it took off, in reais (0 without a coupon). */
  cupom: z.string().nullable().optional(),
  desconto: z.number().optional(),
  criado_em: z.string(),
});
export type Registration = z.infer<typeof RegistrationSchema>;

export const CpfParamSchema = z.object({ cpf: z.string().max(20) });
export const LookupQuerySchema = z.object({ evento: IdTextSchema.optional() });

/** GET /api/participantes/cpf/{cpf}/ (docs/product.md §3, participant lookup result). */
/** A registration's referral link as its runner sees it (docs/decisions/0086). */
export const ReferralStatusSchema = z.object({
  link: z.string(),
  /** Registrations through it that earn the rebate, and its percentage of what this one paid. */
  minimo: z.number().int(),
  percentual: z.number().int(),
  /** Paid through it and counted (past their 7 days of withdrawal), and paid but still within them. */
  confirmadas: z.number().int(),
  aguardando: z.number().int(),
  /** What went back, in reais, once it did; null before. */
  devolvido: z.number().nullable(),
});
export type ReferralStatus = z.infer<typeof ReferralStatusSchema>;

export const RegistrationLookupSchema = z.object({
  /**
   * Present (true) while staff's refusal of its special price's proof stands (docs/decisions/0068): the
   * card then asks what keeping the place costs (`…/diferenca-preco/`); the others ask nothing.
   */
  comprovante_recusado: z.literal(true).optional(),
  id: z.number().int(),
  nome_completo: z.string(),
  email: z.string(),
  numero_contato: z.string(),
  evento_detalhes: z.object({
    id: z.number().int(),
    nome_evento: z.string(),
    /** The race's first day (YYYY-MM-DD). */
    data: z.string().optional(),
  }),
  /** Each race, with its start wave when the race has waves (docs/decisions/0066). */
  categoria_evento_detalhes: z.array(CategoryRefSchema.extend({ onda: z.string().nullable().optional() })),
  endereco: z.string(),
  tamanho_camisa: z.string().nullable(),
  equipe: z.string().nullable(),
  /** Age group on the event day. */
  faixa_etaria: z.string(),
  /** Half price (60+) applied: a document is checked at kit pickup. */
  meia_entrada: z.boolean(),
  pcd: z.boolean(),
  kit_local_retirada: z.string(),
  kit_horarios_retirada: z.string(),
  /**
   * PNG data URL of the QR code shown at kit pickup: a ticket signed by the server (registration, event
   * and a random nonce; docs/decisions/0026), not a number anyone could print. Absent once cancelled.
   */
  qr_code: z.string().optional(),
  /** When the shop cancelled it (its payment returned); null while it stands. */
  cancelada_em: z.string().nullable().default(null),
  /** What the registration cost, in reais (after the coupon, before any card interest). */
  total: z.number(),
  /** The discount coupon used and what it took off, in reais; absent without a coupon. */
  cupom: z.string().optional(),
  desconto: z.number().optional(),
  /** What changed after the sale (cancel, transfer, changes), oldest first (docs/decisions/0041). */
  historico: z.array(z.string()).optional(),
  /**
   * The runner's referral link and where it stands (docs/decisions/0086), in "Minhas inscrições" only;
   * absent where the event has no referral or the registration cannot refer (cancelled, free).
   */
  indicacao: ReferralStatusSchema.optional(),
});
export type RegistrationLookup = z.infer<typeof RegistrationLookupSchema>;

/**
 * GET /api/inscricoes/: every registration this account made, paid on the event page or in an order;
 * without `qr_code`, which `GET /api/inscricoes/{id}/qr-code/` draws for one (RegistrationTicketSchema).
 */
export const AccountRegistrationsSchema = z.array(RegistrationLookupSchema);

/** GET /api/inscricoes/{id}/qr-code/: the kit-pickup QR code of the account's own standing registration. */
export const RegistrationTicketSchema = z.object({ qr_code: z.string() });
export type RegistrationTicket = z.infer<typeof RegistrationTicketSchema>;

export const LOOKUP_NOT_FOUND = 'Inscrição não encontrada para o CPF fornecido.';
export const KIT_SIZE_SOLD_OUT = 'Este tamanho de camisa esgotou. Escolha outro.';
export const DUPLICATE_CPF = 'Este CPF já está inscrito nesta categoria.';

/** GET /api/events/{id}/preco/?categorias=12,15&data_nascimento=1960-05-01 */
export const PriceQuerySchema = z.object({
  categorias: z
    .string()
    .regex(/^\d+(,\d+)*$/, 'categorias: ids separados por vírgula')
    .transform((v) => v.split(',').map(Number)),
  data_nascimento: BirthDateSchema.optional(),
  /**
   * A special price chosen (docs/decisions/0068): its category priced under it, as if the runner were
   * entitled (who may take it is checked when the charge is made).
   */
  regra: z.coerce.number().int().positive().optional(),
  /** A team's join code typed on the form: its team price applies when the team has one (0074). */
  equipe: z.string().max(20).optional(),
});

export const PriceResponseSchema = z.object({
  itens: z.array(
    z.object({
      id: z.number().int(),
      nome_categoria: z.string(),
      data: z.string(),
      /** The category's full price, in reais. */
      preco_inscricao: z.number(),
      /** What this participant pays for it, in reais. */
      preco: z.number(),
      /** The lot in force that priced it, or null. */
      lote: z.string().nullable(),
    }),
  ),
  /** Half price (Estatuto do Idoso) applied: 60 or more on the event day. */
  meia_entrada: z.boolean(),
  /** The team price's discount applied (percent), when a team's code gave one (docs/decisions/0074). */
  desconto_equipe: z.number().int().optional(),
  total: z.number(),
  total_centavos: z.number().int(),
});
export type PriceResponse = z.infer<typeof PriceResponseSchema>;
