import { UFS } from '../cep.ts';
import { isValidCnpj } from '../documents.ts';
import { parseRateBR } from '../fiscal/ibs-cbs.ts';
import { z } from '../zod.ts';
import { EditVersionSchema } from './painel.ts';

/**
 * Notas fiscais (docs/decisions/0043): the shop's fiscal settings edited in the back office, the NCM and
 * origin of a product, and the state of each nota as staff and buyers see it.
 */

export const TAX_REGIME_LABELS = {
  simples_nacional: 'Simples Nacional',
  simples_excesso: 'Simples Nacional, excesso de sublimite de receita bruta',
  regime_normal: 'Regime normal (lucro presumido ou real)',
  mei: 'MEI — Microempreendedor Individual',
} as const;
export const TaxRegimeSchema = z.enum(['simples_nacional', 'simples_excesso', 'regime_normal', 'mei'], {
  error: 'Escolha o regime tributário.',
});

export const TaxDestinationSchema = z.enum(['interna', 'interestadual']);
export const TAX_DESTINATION_LABELS = {
  interna: 'Dentro do estado',
  interestadual: 'Para outro estado',
} as const;

const digits = (s: string) => s.replace(/\D/g, '');

/** One CFOP and tax situation row: what an item's nota carries for a destination. */
export const TaxRuleSchema = z
  .object({
    destino: TaxDestinationSchema,
    cfop: z
      .string()
      .trim()
      .regex(/^[1-7]\d{3}$/, 'CFOP tem 4 dígitos (ex.: 5102).'),
    situacao_icms: z
      .string()
      .trim()
      .regex(/^\d{2,3}$/, 'CST do ICMS (2 dígitos) ou CSOSN (3 dígitos).'),
    situacao_pis: z
      .string()
      .trim()
      .regex(/^\d{2}$/, 'CST do PIS tem 2 dígitos.'),
    situacao_cofins: z
      .string()
      .trim()
      .regex(/^\d{2}$/, 'CST da COFINS tem 2 dígitos.'),
    /** IBS/CBS (docs/decisions/0059): CST and cClassTrib of the items; a sale of apparel: 000 / 000001. */
    situacao_ibs_cbs: z
      .string()
      .trim()
      .regex(/^\d{3}$/, 'CST do IBS/CBS tem 3 dígitos (ex.: 000).')
      .default('000'),
    classificacao_ibs_cbs: z
      .string()
      .trim()
      .regex(/^\d{6}$/, 'Classificação tributária (cClassTrib) tem 6 dígitos (ex.: 000001).')
      .default('000001'),
  })
  .refine((r) => r.cfop[0] === (r.destino === 'interna' ? '5' : '6'), {
    message: 'Saída dentro do estado usa CFOP 5xxx; para outro estado, 6xxx.',
    path: ['cfop'],
  });
export type TaxRule = z.infer<typeof TaxRuleSchema>;

/** A CNPJ as typed (dots, slash, dash and spaces dropped, letters upper case), checked by its digits. */
export const CnpjSchema = z
  .string({ error: 'Informe o CNPJ.' })
  .trim()
  .transform((s) => s.replace(/[./\-\s]/g, '').toUpperCase())
  .refine(isValidCnpj, 'CNPJ inválido.');

const FiscalSettingsBaseSchema = z.object({
  cnpj: CnpjSchema,
  inscricao_estadual: z
    .string()
    .trim()
    .transform((s) => (s.toUpperCase() === 'ISENTO' ? 'ISENTO' : digits(s)))
    .refine((s) => s === 'ISENTO' || /^\d{2,14}$/.test(s), 'Inscrição estadual: só números (ou ISENTO).'),
  inscricao_municipal: z.string().trim().max(20, 'No máximo 20 caracteres.').default(''),
  razao_social: z.string().trim().min(2, 'Informe a razão social.').max(60, 'No máximo 60 caracteres.'),
  regime: TaxRegimeSchema,
  logradouro: z.string().trim().min(2, 'Informe o logradouro.').max(60),
  numero: z.string().trim().min(1, 'Informe o número (ou S/N).').max(60),
  bairro: z.string().trim().min(2, 'Informe o bairro.').max(60),
  municipio: z.string().trim().min(2, 'Informe o município.').max(60),
  codigo_municipio: z
    .string()
    .trim()
    .regex(/^\d{7}$/, 'Código IBGE do município tem 7 dígitos (Fortaleza: 2304400).'),
  uf: z.enum(UFS, { error: 'Escolha a UF.' }),
  cep: z
    .string()
    .trim()
    .transform(digits)
    .refine((s) => s.length === 8, 'CEP tem 8 dígitos.'),
  codigo_servico_nfse: z
    .string()
    .trim()
    .regex(/^(\d{1,2}\.\d{2})?$/, 'Código do serviço no formato da lista da LC 116 (ex.: 12.11).')
    .default(''),
  serie_nfe: z.coerce.number().int().min(0, 'Série de 0 a 999.').max(999, 'Série de 0 a 999.'),
  /** NFS-e Padrão Nacional (docs/decisions/0059): the registrations' national service code and NBS. */
  codigo_tributacao_nacional: z
    .string()
    .trim()
    .transform(digits)
    .refine((s) => s === '' || s.length === 6, 'Código de tributação nacional tem 6 dígitos (ex.: 12.11.01).')
    .default(''),
  nbs: z
    .string()
    .trim()
    .transform(digits)
    .refine((s) => s === '' || s.length === 9, 'Código NBS tem 9 dígitos (ex.: 1.2603.11.00).')
    .default(''),
  cnae: z
    .string()
    .trim()
    .transform(digits)
    .refine((s) => s === '' || s.length === 7, 'CNAE tem 7 dígitos (ex.: 4781-4/00).')
    .default(''),
  codigo_tributario_municipio: z.string().trim().max(20, 'No máximo 20 caracteres.').default(''),
  /**
   * The CBS rate of 2027 (percent, up to 4 decimals), which the law leaves to a resolution of the Senado
   * Federal (LC 214/2025, art. 349), and where staff read it (docs/decisions/0059, later).
   */
  cbs_2027: z
    .string()
    .trim()
    .refine(
      (v) => v === '' || parseRateBR(v) !== null,
      'Alíquota em percentual, com até 4 casas decimais (ex.: 8,8000).',
    )
    .default(''),
  cbs_2027_fonte: z.string().trim().max(300, 'No máximo 300 caracteres.').default(''),
  regras: z.array(TaxRuleSchema).max(2),
});

function oneRulePerDestination(
  s: { regras: Array<{ destino: string }>; cbs_2027: string; cbs_2027_fonte: string },
  ctx: z.RefinementCtx,
) {
  if (s.cbs_2027 && !s.cbs_2027_fonte)
    ctx.addIssue({
      code: 'custom',
      path: ['cbs_2027_fonte'],
      message: 'Informe a fonte da alíquota da CBS de 2027 (a resolução do Senado Federal que a fixou).',
    });
  for (const destino of TaxDestinationSchema.options) {
    const n = s.regras.filter((r) => r.destino === destino).length;
    if (n !== 1)
      ctx.addIssue({
        code: 'custom',
        path: ['regras'],
        message: `Informe uma regra de CFOP e tributação para "${TAX_DESTINATION_LABELS[destino]}".`,
      });
  }
}

export const FiscalSettingsFieldsSchema = FiscalSettingsBaseSchema.superRefine(oneRulePerDestination);
export type FiscalSettingsFields = z.infer<typeof FiscalSettingsFieldsSchema>;

/** `PUT /api/painel/fiscal/`: the whole form and the version it was opened with. */
export const FiscalSettingsSaveSchema = FiscalSettingsBaseSchema.extend({
  versao: EditVersionSchema,
}).superRefine(oneRulePerDestination);
export type FiscalSettingsSave = z.infer<typeof FiscalSettingsSaveSchema>;

/** `GET /api/painel/fiscal/`: the settings (empty strings where nothing was saved yet). */
export const FiscalSettingsSchema = z.object({
  cnpj: z.string(),
  inscricao_estadual: z.string(),
  inscricao_municipal: z.string(),
  razao_social: z.string(),
  regime: TaxRegimeSchema,
  logradouro: z.string(),
  numero: z.string(),
  bairro: z.string(),
  municipio: z.string(),
  codigo_municipio: z.string(),
  uf: z.string(),
  cep: z.string(),
  codigo_servico_nfse: z.string(),
  serie_nfe: z.number().int(),
  codigo_tributacao_nacional: z.string(),
  nbs: z.string(),
  cnae: z.string(),
  codigo_tributario_municipio: z.string(),
  /** "8,8000", or "" while no rate was entered. */
  cbs_2027: z.string(),
  cbs_2027_fonte: z.string(),
  regras: z.array(
    z.object({
      destino: TaxDestinationSchema,
      cfop: z.string(),
      situacao_icms: z.string(),
      situacao_pis: z.string(),
      situacao_cofins: z.string(),
      situacao_ibs_cbs: z.string(),
      classificacao_ibs_cbs: z.string(),
    }),
  ),
  /** The version a save sends back (1 before the first save). */
  versao: z.number().int(),
});
export type FiscalSettings = z.infer<typeof FiscalSettingsSchema>;

/**
 * `GET /api/painel/fiscal/reforma/`: the tax reform's rules for the shop's regime (docs/decisions/0059),
 * those in force today and the next ones with the date they start, and the per-city NFS-e field table.
 */
export const ReformRulesSchema = z.object({
  regime: TaxRegimeSchema,
  crt: z.number().int(),
  hoje: z.string(),
  em_vigor: z.array(z.object({ desde: z.string(), regra: z.string() })),
  proximas: z.object({ a_partir_de: z.string(), regras: z.array(z.string()) }).nullable(),
  aliquotas: z.object({ ibs_uf: z.string(), ibs_mun: z.string(), cbs: z.string() }).nullable(),
  /** What stops (or will stop) the notas for want of a rate, for staff to act on; null when nothing. */
  aviso: z.string().nullable(),
  nfse_cidades: z.array(
    z.object({
      municipio: z.string(),
      uf: z.string(),
      codigo_municipio: z.string(),
      endereco_tomador: z.boolean(),
      cnae: z.boolean(),
      codigo_municipal: z.boolean(),
      nbs: z.boolean(),
    }),
  ),
});
export type ReformRules = z.infer<typeof ReformRulesSchema>;

/** A product's NCM (8 digits) and origin (0 national … 8), as the product form edits them. */
export const ProductFiscalSchema = z.object({
  ncm: z
    .string()
    .trim()
    .transform(digits)
    .refine((s) => s.length === 8, 'NCM tem 8 dígitos (ex.: 6109.10.00).'),
  origem: z.coerce.number().int().min(0, 'Origem de 0 a 8.').max(8, 'Origem de 0 a 8.'),
});
export type ProductFiscal = z.infer<typeof ProductFiscalSchema>;
/** The same as the API answers it (no transforms: an answer is never re-parsed). */
export const ProductFiscalViewSchema = z.object({ ncm: z.string(), origem: z.number().int() });

export const FISCAL_ORIGIN_LABELS = [
  '0 - Nacional',
  '1 - Estrangeira, importação direta',
  '2 - Estrangeira, adquirida no mercado interno',
  '3 - Nacional, conteúdo de importação acima de 40%',
  '4 - Nacional, processos produtivos básicos',
  '5 - Nacional, conteúdo de importação até 40%',
  '6 - Estrangeira, importação direta, sem similar nacional',
  '7 - Estrangeira, mercado interno, sem similar nacional',
  '8 - Nacional, conteúdo de importação acima de 70%',
] as const;

export const FiscalKindSchema = z.enum(['nfe', 'nfe_devolucao', 'nfe_credito', 'nfe_evento', 'nfse']);
export const FiscalStatusSchema = z.enum(['pendente', 'autorizada', 'erro', 'cancelada']);
export type FiscalStatus = z.infer<typeof FiscalStatusSchema>;

export const FISCAL_KIND_LABELS = {
  nfe: 'NF-e',
  nfe_devolucao: 'NF-e de devolução',
  nfe_credito: 'NF-e de crédito',
  nfe_evento: 'Evento de perda no transporte (112130) da NF-e',
  nfse: 'NFS-e',
} as const;
export const FISCAL_STATUS_LABELS: Record<FiscalStatus, string> = {
  pendente: 'Pendente',
  autorizada: 'Autorizada',
  erro: 'Erro',
  cancelada: 'Cancelada',
};

/** A nota as the buyer sees it on their order or registration: links only once it is authorised. */
export const NotaSchema = z.object({
  id: z.number().int(),
  tipo: FiscalKindSchema,
  status: FiscalStatusSchema,
  numero: z.string().nullable(),
  chave: z.string().nullable(),
  /** DANFE (NF-e) or NFS-e PDF, and the XML; null until authorised. */
  pdf_url: z.string().nullable(),
  xml_url: z.string().nullable(),
});
export type Nota = z.infer<typeof NotaSchema>;

/** What staff see of a nota on the order page: the reason when pending or stopped. */
export const PainelNotaSchema = NotaSchema.extend({
  motivo: z.string().nullable(),
  inscricao_id: z.number().int().nullable(),
  autorizada_em: z.string().nullable(),
  tentativas: z.number().int(),
});
export type PainelNota = z.infer<typeof PainelNotaSchema>;

/** `GET /api/notas/`: the account's notas, by order id and by registration id. */
export const MyNotasSchema = z.object({
  pedidos: z.record(z.string(), z.array(NotaSchema)),
  inscricoes: z.record(z.string(), z.array(NotaSchema)),
  /** A team's places the account bought as captain, by purchase (docs/decisions/0077). */
  equipes: z.record(z.string(), z.array(NotaSchema)),
});
export type MyNotas = z.infer<typeof MyNotasSchema>;

/** "aaaa-mm": the month of one NFS-e per event (NFSE_GROUPING=event_month, docs/decisions/0049). */
export const NfseMonthSchema = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Informe o mês como aaaa-mm.');

/** A month's NFS-e of an event as staff see it on the fiscal page. */
export const MonthNotaSchema = z.object({
  id: z.number().int(),
  evento: z.number().int(),
  evento_nome: z.string(),
  mes: NfseMonthSchema,
  status: FiscalStatusSchema,
  motivo: z.string().nullable(),
  numero: z.string().nullable(),
  valor: z.number(),
  inscricoes: z.number().int(),
  pdf_url: z.string().nullable(),
});
export type MonthNota = z.infer<typeof MonthNotaSchema>;
