import { RESULT_STATUSES } from '../results.ts';
import { z } from '../zod.ts';
import { IdSchema, IdTextSchema, PageTextSchema } from './common.ts';
import { EditVersionSchema } from './painel-versions.ts';
import { GENEROS } from './registrations.ts';

/** Race results (docs/decisions/0064): the back office's import and the public pages. */

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const header = (what: string) =>
  z
    .string({ error: `Informe a coluna de ${what}.` })
    .trim()
    .min(1, `Informe a coluna de ${what}.`)
    .max(80, 'Nome de coluna longo demais.');

/**
 * Which of a timer's columns holds what, by the column's title in the file's first line (read
 * without case or accents), so a file with its columns in another order still reads right.
 */
export const TimerColumnsSchema = z.object({
  numero: header('número de peito'),
  tempo_bruto: header('tempo bruto'),
  tempo_liquido: header('tempo líquido').nullable().default(null),
  situacao: header('situação').nullable().default(null),
});
export type TimerColumns = z.infer<typeof TimerColumnsSchema>;

export const TimerBodySchema = z.object({
  nome: z
    .string({ error: 'Informe o nome da cronometragem.' })
    .trim()
    .min(2, 'Informe o nome da cronometragem.')
    .max(120, 'Nome longo demais.'),
  colunas: TimerColumnsSchema,
});
export type TimerBody = z.input<typeof TimerBodySchema>;

export const TimerSchema = z.object({
  id: z.number().int(),
  nome: z.string(),
  colunas: TimerColumnsSchema,
});
export type Timer = z.infer<typeof TimerSchema>;

/** The timer's file as text (CSV or TXT, `;`, `,` or tab), for one event (one of its days when it has several). */
export const ResultImportBodySchema = z.object({
  cronometragem: IdSchema,
  nome_arquivo: z.string().trim().max(200, 'Nome de arquivo longo demais.').default(''),
  conteudo: z.string({ error: 'Envie o arquivo da cronometragem.' }).min(1, 'O arquivo está vazio.'),
  dia: z.string().regex(ISO_DATE, 'Dia inválido.').optional(),
});
export type ResultImportBody = z.input<typeof ResultImportBodySchema>;

/** Why a line of the file matches no runner. */
export const RESULT_PROBLEMS = {
  numero_desconhecido: 'Nenhuma inscrição do evento tem este número de peito.',
  numero_repetido: 'O número de peito aparece em mais de uma linha do arquivo.',
  numero_invalido: 'Número de peito vazio ou inválido.',
  tempo_invalido: 'Tempo inválido (use h:mm:ss).',
  situacao_invalida: 'Situação desconhecida (use vazio, DNF, DSQ ou DNS).',
  inscricao_cancelada: 'O número é de uma inscrição cancelada.',
  numero_em_mais_de_uma_prova: 'O número está em provas de dias diferentes: escolha o dia da prova.',
} as const;
export type ResultProblemCode = keyof typeof RESULT_PROBLEMS;

export const ResultPreviewSchema = z.object({
  id: z.number().int(),
  situacao: z.enum(['previa', 'publicada', 'substituida']),
  arquivo: z.string(),
  dia: z.string().nullable(),
  linhas: z.number().int(),
  validas: z.number().int(),
  por_situacao: z.record(z.enum(RESULT_STATUSES), z.number().int()),
  problemas: z.array(
    z.object({
      linha: z.number().int(),
      numero: z.string(),
      codigo: z.string(),
      motivo: z.string(),
    }),
  ),
});
export type ResultPreview = z.infer<typeof ResultPreviewSchema>;

export const ResultPublishSchema = z.object({
  publicados: z.number().int(),
  ignorados: z.number().int(),
  substituidos: z.number().int(),
});
export type ResultPublish = z.infer<typeof ResultPublishSchema>;

/** One runner's line on a results page: never a CPF or a birth date, only the age group. */
export const ResultRowSchema = z.object({
  numero: z.number().int(),
  nome: z.string(),
  equipe: z.string().nullable(),
  categoria_id: z.number().int(),
  categoria: z.string(),
  dia: z.string(),
  genero: z.string(),
  faixa_etaria: z.string(),
  situacao: z.enum(RESULT_STATUSES),
  tempo_bruto: z.string().nullable(),
  tempo_liquido: z.string().nullable(),
  ritmo: z.string().nullable(),
  colocacao_geral: z.number().int().nullable(),
  colocacao_genero: z.number().int().nullable(),
  colocacao_faixa: z.number().int().nullable(),
});
export type ResultRow = z.infer<typeof ResultRowSchema>;

export const RESULTS_PAGE_SIZE = 50;

export const ResultListQuerySchema = z.object({
  busca: z.string().trim().max(100, 'Busca longa demais.').optional(),
  categoria: IdTextSchema.optional(),
  genero: z.enum(GENEROS, { error: 'Gênero inválido.' }).optional(),
  faixa: z
    .string()
    .regex(/^[A-Z]\d{1,3}-\d{1,3}$/, 'Faixa etária inválida.')
    .optional(),
  page: PageTextSchema.optional(),
  page_size: z.coerce.number().int().min(1).max(100).default(RESULTS_PAGE_SIZE),
});
export type ResultListQuery = z.infer<typeof ResultListQuerySchema>;

export const ResultPageSchema = z.object({
  evento: z.object({ id: z.number().int(), nome: z.string(), data: z.string() }),
  publicado: z.boolean(),
  results: z.array(ResultRowSchema),
  count: z.number().int(),
  page: z.number().int(),
  pages: z.number().int(),
  filtros: z.object({
    categorias: z.array(z.object({ id: z.number().int(), nome: z.string(), dia: z.string() })),
    faixas: z.array(z.string()),
  }),
});
export type ResultPage = z.infer<typeof ResultPageSchema>;

export const RunnerResultParamsSchema = z.object({
  id: IdTextSchema,
  numero: IdTextSchema,
});

/** A runner's own result: each race that bib ran in the event, with how many finished in each group. */
/**
 * After the finish line, back to the shop (docs/decisions/0064, later): the event's finisher shirt (a
 * catalogue product, read from the catalogue for its live stock) and its next edition, set by staff.
 */
export const ResultLinksSchema = z.object({
  camisa_finisher_id: z.number().int().positive().nullable(),
  proxima_edicao_id: z.number().int().positive().nullable(),
});
export type ResultLinks = z.infer<typeof ResultLinksSchema>;

/** The certificate's layouts staff choose from, with their names in the back office. */
export const CERTIFICATE_LAYOUTS = ['classico', 'faixa', 'minimalista'] as const;
export type CertificateLayout = (typeof CERTIFICATE_LAYOUTS)[number];
export const CERTIFICATE_LAYOUT_LABELS: Record<CertificateLayout, string> = {
  classico: 'Clássico: moldura dupla, texto centralizado',
  faixa: 'Faixa lateral: uma faixa na cor, texto à esquerda',
  minimalista: 'Minimalista: sem moldura, um traço sob o título',
};

const optionalLine = (what: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `${what}: no máximo ${max} caracteres.`)
    .nullable()
    .transform((v) => (v ? v : null));

/**
 * The event's certificate design, chosen by staff (docs/decisions/0064, later): a layout, the accent
 * colour, who signs it and a line of their own. Every certificate of the event, by e-mail or downloaded,
 * is drawn with it.
 */
export const CertificateDesignSchema = z.object({
  modelo: z.enum(CERTIFICATE_LAYOUTS),
  cor: z.string().regex(/^#[0-9A-F]{6}$/),
  assinatura_nome: z.string().nullable(),
  assinatura_cargo: z.string().nullable(),
  mensagem: z.string().nullable(),
});
export type CertificateDesign = z.infer<typeof CertificateDesignSchema>;

/** The design as the back office reads it, with the version its form saves from. */
export const PainelCertificateDesignSchema = CertificateDesignSchema.extend({ versao: z.number().int() });
export type PainelCertificateDesign = z.infer<typeof PainelCertificateDesignSchema>;

/** A save of the design from the form opened at `versao`: the colour in capitals, blank lines as none. */
export const CertificateDesignSaveSchema = z.object({
  modelo: z.enum(CERTIFICATE_LAYOUTS, { error: 'Escolha um dos modelos de certificado.' }),
  cor: z
    .string({ error: 'Informe a cor.' })
    .regex(/^#[0-9a-fA-F]{6}$/, 'Informe a cor no formato #RRGGBB (por exemplo, #EA580C).')
    .transform((v) => v.toUpperCase()),
  assinatura_nome: optionalLine('Nome de quem assina', 80),
  assinatura_cargo: optionalLine('Cargo de quem assina', 80),
  mensagem: optionalLine('Mensagem', 160),
  versao: EditVersionSchema,
});
export type CertificateDesignSave = z.input<typeof CertificateDesignSaveSchema>;

/** A race's photo on a runner's page: free, with the brand's mark (decision 0064, later). */
export const RunnerPhotoSchema = z.object({
  id: z.number().int(),
  /** The 800 px WebP; `grande` the 1200 px one, to open or keep. */
  url: z.string(),
  grande: z.string(),
});
export type RunnerPhoto = z.infer<typeof RunnerPhotoSchema>;

/** A race's photo in the back office, with the bibs it is tagged with. */
export const PainelResultPhotoSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  nome_arquivo: z.string(),
  numeros: z.array(z.number().int()),
  status: z.enum(['processando', 'pronta', 'falhou']),
});
export type PainelResultPhoto = z.infer<typeof PainelResultPhotoSchema>;

/** Tagging a photo by hand: the bibs seen in it (none untags it). */
export const ResultPhotoBibsSchema = z.object({
  numeros: z
    .array(z.number().int().positive().max(999_999), { error: 'Informe os números de peito.' })
    .max(100, 'No máximo 100 números por foto.'),
});

/** The timer's file of bibs per photo: a title line with the photo's file name and its bibs. */
export const ResultPhotoFileSchema = z.object({
  conteudo: z.string().min(1, 'Escolha o arquivo de números por foto.').max(5_000_000),
});

/** What a file of bibs per photo tagged, and the lines that named no photo of the event (and why). */
export const ResultPhotoFileAnswerSchema = z.object({
  fotos_marcadas: z.number().int(),
  linhas_recusadas: z.array(z.object({ linha: z.number().int(), arquivo: z.string(), motivo: z.string() })),
});
export type ResultPhotoFileAnswer = z.infer<typeof ResultPhotoFileAnswerSchema>;

export const RunnerResultSchema = z.object({
  evento: z.object({ id: z.number().int(), nome: z.string(), data: z.string(), cidade: z.string() }),
  depois_da_chegada: z
    .object({
      camisa_finisher_id: z.number().int().nullable(),
      proxima_edicao: z.object({ id: z.number().int(), nome: z.string(), data: z.string() }).nullable(),
    })
    .default({ camisa_finisher_id: null, proxima_edicao: null }),
  fotos: z.array(RunnerPhotoSchema).default([]),
  provas: z.array(
    ResultRowSchema.extend({
      distancia_km: z.number().nullable(),
      concluintes_geral: z.number().int(),
      concluintes_genero: z.number().int(),
      concluintes_faixa: z.number().int(),
    }),
  ),
});
export type RunnerResult = z.infer<typeof RunnerResultSchema>;

/** The results of the registrations an account made ("Minha conta"), newest event first. */
export const MyResultsSchema = z.array(
  z.object({
    evento_id: z.number().int(),
    evento: z.string(),
    data: z.string(),
    numero: z.number().int(),
    nome: z.string(),
    categoria: z.string(),
    situacao: z.enum(RESULT_STATUSES),
    tempo: z.string().nullable(),
    colocacao_geral: z.number().int().nullable(),
    /** The race entry (the registration's category) the result is of: the pre-registration names it. */
    inscricao: z.number().int(),
    /** The next edition staff linked to the event, where the runner pre-registers in one click. */
    proxima_edicao: z.object({ id: z.number().int(), nome: z.string(), data: z.string() }).nullable(),
  }),
);
export type MyResults = z.infer<typeof MyResultsSchema>;

export const NextEditionParamsSchema = z.object({ inscricao: IdTextSchema });

/**
 * A finisher pre-registered in the next edition in one click (decision 0064, later): into its lottery
 * while entries are open, or its waitlist when the race is sold out; with the data of the race run.
 */
export const NextEditionSignupSchema = z.object({
  modo: z.enum(['sorteio', 'lista_espera']),
  evento: z.object({ id: z.number().int(), nome: z.string() }),
  categoria: z.string(),
  mensagem: z.string(),
});
export type NextEditionSignup = z.infer<typeof NextEditionSignupSchema>;

/** A certificate's QR code checked: what it certifies, as published now. */
export const CertificateCheckSchema = z.object({
  valido: z.literal(true),
  evento: z.string(),
  nome: z.string(),
  numero: z.number().int(),
  categoria: z.string(),
  tempo_bruto: z.string(),
  tempo_liquido: z.string().nullable(),
  colocacao_geral: z.number().int().nullable(),
});
