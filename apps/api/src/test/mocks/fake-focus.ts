import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { nfseRuleFor } from '@passada/core/fiscal/reform-rules';
import { buildAccessKey } from '../../providers/invoicing/access-key.ts';

/**
 * A strict local Focus NFe (API v2, https://focusnfe.com.br/doc/): HTTP Basic with the token as user,
 * `POST /v2/nfe?ref=` and `/v2/nfse?ref=` answering 202 `processando_autorizacao`, `GET /v2/{nfe,nfse}/REF`
 * answering `autorizado` (key, number, file paths), `erro_autorizacao` with `status_sefaz` and
 * `mensagem_sefaz` (NFS-e: `erros`), `DELETE` with a `justificativa` of 15 to 255 characters, 422
 * `already_processed` for a reference already taken, 422 `erro_validacao_schema` for a missing or
 * malformed field, 404 `nao_encontrado`. Tests switch it down (503), make it hang, reject the next nota,
 * or hold a POST (the document is created, the answer never leaves) to kill the caller mid-call.
 *
 * It rejects as SEFAZ and the cities do since the tax reform (docs/decisions/0059): an NF-e without the
 * IBSCBS group where the emitter's CRT and the date of issue require it (1115: CRT 3 from 05/01/2026,
 * CRT 1, 2 and 4 from 2027), a rate other than the year's (1026/1027 IBS of the state, 1036 of the city,
 * 1037 CBS), an NFS-e without the national service code or without a field its city's rule requires,
 * and an NFS-e's IBSCBS group with another rate, or missing from 2027 (`nfseIbsCbsRejection`).
 * Its own table of dates and rates, written from the technical notes, not the shop's.
 */

export interface FakeFocusDoc {
  kind: 'nfe' | 'nfse';
  ref: string;
  body: Record<string, unknown>;
  status: 'processando_autorizacao' | 'autorizado' | 'erro_autorizacao' | 'cancelado';
  key?: string;
  number: number;
  rejection?: { code: string; message: string };
  /** How many GETs answer `processando_autorizacao` before the verdict. */
  processingReads: number;
}

export interface FakeFocus {
  url: string;
  token: string;
  docs: Map<string, FakeFocusDoc>;
  /** Every POST that created a document (a reference once; a resend after rejection again). */
  issued: Array<{ kind: string; ref: string }>;
  requests: Array<{ method: string; path: string }>;
  /** `down`: 503 to everything; `hang`: never answers (the caller's timeout fires). */
  mode: 'ok' | 'down' | 'hang';
  /** The next nota sent is refused by SEFAZ (or the city) with this code and message. */
  rejectNext: { code: string; message: string } | null;
  /** POSTs are recorded, then held unanswered until `release()`; `held` resolves when one is. */
  holdPosts: boolean;
  held: Promise<void>;
  release(): void;
  /** Validation failures (422 erro_validacao_schema) answered so far, for the assertions. */
  invalid: string[];
  close(): Promise<void>;
}

const CNPJ_EMIT = /^[0-9A-Z]{12}\d{2}$/;

function read(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.on('data', (c: Buffer) => {
      data += c.toString('utf8');
    });
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const money = (v: unknown) => typeof v === 'string' && /^\d+\.\d{2}$/.test(v);

/** What the documented required fields of an NF-e miss, if anything. */
function nfeProblems(b: Record<string, unknown>): string[] {
  const p: string[] = [];
  for (const f of ['natureza_operacao', 'data_emissao', 'nome_destinatario'])
    if (typeof b[f] !== 'string' || !(b[f] as string).length) p.push(`${f} obrigatório`);
  if (![0, 1].includes(b.tipo_documento as number)) p.push('tipo_documento inválido');
  if (![1, 2, 3, 4, 5].includes(b.finalidade_emissao as number)) p.push('finalidade_emissao inválida');
  const credit = b.finalidade_emissao === 5;
  if (![1, 2, 3].includes(b.local_destino as number)) p.push('local_destino inválido');
  // CRT: 1 Simples, 2 Simples over the sub-limit, 3 regime normal, 4 MEI (NT 2024.001).
  if (![1, 2, 3, 4].includes(b.regime_tributario_emitente as number))
    p.push('regime_tributario_emitente inválido');
  if (typeof b.cnpj_emitente !== 'string' || !CNPJ_EMIT.test(b.cnpj_emitente))
    p.push('cnpj_emitente inválido');
  if (typeof b.cpf_destinatario !== 'string' || !/^\d{11}$/.test(b.cpf_destinatario))
    p.push('cpf_destinatario inválido');
  for (const f of ['valor_frete', 'valor_desconto', 'valor_produtos', 'valor_total'])
    if (!money(b[f])) p.push(`${f} deve ser decimal com 2 casas`);
  if (b.finalidade_emissao === 4) {
    const refs = b.notas_referenciadas as Array<{ chave_nfe?: string }> | undefined;
    if (!refs?.length || !/^\d{6}[0-9A-Z]{12}\d{26}$/.test(refs[0]?.chave_nfe ?? ''))
      p.push('notas_referenciadas obrigatória na devolução');
  }
  const items = b.items as Array<Record<string, unknown>> | undefined;
  if (!Array.isArray(items) || !items.length) p.push('items obrigatório');
  let sum = 0;
  for (const [i, it] of (items ?? []).entries()) {
    if (it.numero_item !== i + 1) p.push(`items[${i}].numero_item`);
    if (typeof it.cfop !== 'string' || !/^\d{4}$/.test(it.cfop)) p.push(`items[${i}].cfop`);
    if (typeof it.codigo_ncm !== 'string' || !/^\d{8}$/.test(it.codigo_ncm)) p.push(`items[${i}].codigo_ncm`);
    // A nota de crédito's items carry no ICMS, PIS or COFINS (SEFAZ answers that with 1001, below).
    for (const f of [
      'codigo_produto',
      'descricao',
      'unidade_comercial',
      ...(credit
        ? []
        : ['icms_situacao_tributaria', 'pis_situacao_tributaria', 'cofins_situacao_tributaria']),
    ])
      if (typeof it[f] !== 'string' || !(it[f] as string).length) p.push(`items[${i}].${f}`);
    if (!credit && typeof it.icms_origem !== 'number') p.push(`items[${i}].icms_origem`);
    if (credit && it.ibs_cbs_situacao_tributaria === undefined)
      p.push(`items[${i}]: a nota de crédito leva o grupo IBSCBS em cada item`);
    if (typeof it.quantidade_comercial !== 'number' || it.quantidade_comercial <= 0)
      p.push(`items[${i}].quantidade_comercial`);
    if (!money(it.valor_unitario_comercial) || !money(it.valor_bruto)) p.push(`items[${i}].valores`);
    else sum += Math.round(Number(it.valor_bruto) * 100);
  }
  if (money(b.valor_produtos) && Math.round(Number(b.valor_produtos) * 100) !== sum)
    p.push('valor_produtos difere da soma dos itens');
  if (
    p.length === 0 &&
    Math.round(Number(b.valor_total) * 100) !==
      sum + Math.round(Number(b.valor_frete) * 100) - Math.round(Number(b.valor_desconto) * 100)
  )
    p.push('valor_total difere de produtos + frete - desconto');
  return p;
}

/**
 * The authorised XML as SEFAZ keeps it, from the fields sent: for an NF-e, `nfeProc` with each item's
 * `det` (nItem, quantity and unit, and the `IBSCBS` group where it was sent) and the protocol's key; for an
 * NFS-e, a stub with the key.
 */
function authorisedXml(d: FakeFocusDoc): string {
  if (d.kind !== 'nfe') return `<nfeProc><chNFe>${d.key ?? ''}</chNFe></nfeProc>`;
  const items = (Array.isArray(d.body.items) ? d.body.items : []) as Array<Record<string, unknown>>;
  const det = items
    .map((it, n) => {
      const group =
        it.ibs_cbs_situacao_tributaria === undefined
          ? ''
          : `<IBSCBS><CST>${it.ibs_cbs_situacao_tributaria}</CST><cClassTrib>${it.ibs_cbs_classificacao_tributaria}</cClassTrib><gIBSCBS><vBC>${it.ibs_cbs_base_calculo}</vBC><gIBSUF><pIBSUF>${it.ibs_uf_aliquota}</pIBSUF><vIBSUF>${it.ibs_uf_valor}</vIBSUF></gIBSUF><gIBSMun><pIBSMun>${it.ibs_mun_aliquota}</pIBSMun><vIBSMun>${it.ibs_mun_valor}</vIBSMun></gIBSMun><vIBS>${it.ibs_valor}</vIBS><gCBS><pCBS>${it.cbs_aliquota}</pCBS><vCBS>${it.cbs_valor}</vCBS></gCBS></gIBSCBS></IBSCBS>`;
      return `<det nItem="${it.numero_item ?? n + 1}"><prod><cProd>${it.codigo_produto ?? ''}</cProd><qCom>${it.quantidade_comercial}</qCom><uCom>${it.unidade_comercial}</uCom></prod><imposto>${group}</imposto></det>`;
    })
    .join('');
  return `<nfeProc xmlns="http://www.portalfiscal.inf.br/nfe" versao="4.00"><NFe><infNFe Id="NFe${d.key ?? ''}" versao="4.00">${det}</infNFe></NFe><protNFe versao="4.00"><infProt><chNFe>${d.key ?? ''}</chNFe><cStat>100</cStat></infProt></protNFe></nfeProc>`;
}

/** CRT → first day (Brasília) the NF-e must carry IBSCBS (NT 2025.002-RTC v1.20; LC 214/2025 art. 348). */
const GROUP_FROM: Record<number, string> = {
  1: '2027-01-01',
  2: '2027-01-01',
  3: '2026-01-05',
  4: '2027-01-01',
};
/** The rates SEFAZ accepts per year of issue and the rejection of each wrong one. */
const YEAR_RATES: Record<string, Array<[field: string, rate: string, code: string, message: string]>> = {
  '2026': [
    [
      'ibs_uf_aliquota',
      '0.1000',
      '1026',
      'Rejeição: Alíquota do IBS da UF deve ser igual a 0,1% para documento emitido em 2026',
    ],
    [
      'ibs_mun_aliquota',
      '0.0000',
      '1036',
      'Rejeição: Alíquota do IBS do Município deve ser igual a 0 para documento emitido em 2026',
    ],
    [
      'cbs_aliquota',
      '0.9000',
      '1037',
      'Rejeição: Alíquota da CBS deve ser igual a 0,9% para documento emitido em 2026',
    ],
  ],
  '2027': [
    [
      'ibs_uf_aliquota',
      '0.0500',
      '1027',
      'Rejeição: Alíquota do IBS da UF deve ser igual a 0,05% para documento emitido em 2027 e 2028',
    ],
  ],
};
const cents = (v: unknown) => Math.round(Number(v) * 100);

/**
 * SEFAZ's rules for a nota de crédito (finNFe 5), NT 2025.002-RTC v1.31 §7: the type given (B25.2-20,
 * 1164) and known; for 01, 03 and 04 exactly one referenced NF-e (B25-30 254, B25-40 255), which must be a
 * model 55 (B25-100, 1003) of the same emitter (B25-50, 269); an entry (B25-110, 1161); IBS/CBS only, no
 * ICMS, PIS or COFINS (B25-80, 1001, except the return of type 03).
 */
function creditNoteRejection(b: Record<string, unknown>): { code: string; message: string } | null {
  if (b.finalidade_emissao !== 5) {
    if (b.tipo_nota_credito !== undefined)
      return { code: '1163', message: 'Rejeição: Tipo de nota de crédito informado indevidamente' };
    return null;
  }
  const type = b.tipo_nota_credito;
  if (type === undefined) return { code: '1164', message: 'Rejeição: Não informado tipo de nota de crédito' };
  if (!['01', '02', '03', '04', '05', '06'].includes(String(type)))
    return { code: '225', message: 'Rejeição: Falha no Schema XML (tpNFCredito)' };
  const refs = (b.notas_referenciadas as Array<{ chave_nfe?: string }> | undefined) ?? [];
  if (['01', '03', '04'].includes(String(type))) {
    if (!refs.length) return { code: '254', message: 'Rejeição: NF-e não possui NF referenciada' };
    if (refs.length > 1) return { code: '255', message: 'Rejeição: NF-e possui mais de uma NF referenciada' };
    const key = refs[0]!.chave_nfe ?? '';
    if (key.slice(20, 22) !== '55')
      return {
        code: '1003',
        message: 'Rejeição: NF-e de crédito faz referência a documento fiscal diferente de NF-e modelo 55',
      };
    if (key.slice(6, 20) !== b.cnpj_emitente)
      return {
        code: '269',
        message: 'Rejeição: CNPJ/CPF Emitente da NF-e difere do CNPJ/CPF da NF Referenciada',
      };
  }
  if (b.tipo_documento !== 0)
    return { code: '1161', message: 'Rejeição: Tipo de Operação incompatível com NF-e de Crédito' };
  const items = b.items as Array<Record<string, unknown>>;
  if (type !== '03' && items.some((it) => Object.keys(it).some((k) => /^(icms|pis|cofins)_/.test(k))))
    return {
      code: '1001',
      message: 'Rejeição: NF-e com finalidade de débito ou crédito somente para IBS/CBS',
    };
  return null;
}

/** SEFAZ's verdict on the IBS/CBS of an NF-e that passed the schema: a rejection, or null. */
function nfeSefazRejection(b: Record<string, unknown>): { code: string; message: string } | null {
  const credit = creditNoteRejection(b) ?? nfeIndOpRejection(b);
  if (credit) return credit;
  // The date of issue in Brasília (UTC−3), as SEFAZ reads dhEmi; a nota de crédito reduces the tax of the
  // sale it references, at that sale's rates (the year from the referenced key's AAMM).
  const refKey = (b.notas_referenciadas as Array<{ chave_nfe?: string }> | undefined)?.[0]?.chave_nfe;
  const day =
    b.finalidade_emissao === 5 && refKey
      ? `20${refKey.slice(2, 4)}-${refKey.slice(4, 6)}-01`
      : new Date(new Date(String(b.data_emissao)).getTime() - 3 * 3_600_000).toISOString().slice(0, 10);
  const crt = Number(b.regime_tributario_emitente);
  const items = b.items as Array<Record<string, unknown>>;
  for (const [i, it] of items.entries()) {
    if (it.ibs_cbs_situacao_tributaria === undefined) {
      if (day >= (GROUP_FROM[crt] ?? '9999'))
        return { code: '1115', message: `Rejeição: IBS/CBS não informado [nItem: ${i + 1}]` };
      continue;
    }
    for (const [field, rate, code, message] of YEAR_RATES[day.slice(0, 4)] ?? [])
      if (it[field] !== rate) return { code, message: `${message} [nItem: ${i + 1}]` };
  }
  return null;
}

/** The IBS/CBS values must be base × rate within 0.01 (NT 2025.001 v1.11a) and the totals their sums. */
function ibsCbsProblems(b: Record<string, unknown>): string[] {
  const p: string[] = [];
  const items = (b.items as Array<Record<string, unknown>>).filter(
    (it) => it.ibs_cbs_situacao_tributaria !== undefined,
  );
  if (!items.length) return p;
  const sum = { base: 0, uf: 0, mun: 0, ibs: 0, cbs: 0 };
  for (const it of items) {
    if (!/^\d{3}$/.test(String(it.ibs_cbs_situacao_tributaria))) p.push('ibs_cbs_situacao_tributaria');
    if (!/^\d{6}$/.test(String(it.ibs_cbs_classificacao_tributaria)))
      p.push('ibs_cbs_classificacao_tributaria');
    const base = cents(it.ibs_cbs_base_calculo);
    const expectedBase = cents(it.valor_bruto) + cents(it.valor_frete ?? 0) - cents(it.valor_desconto ?? 0);
    if (base !== expectedBase) p.push('ibs_cbs_base_calculo difere de valor bruto + frete - desconto');
    for (const [rate, value] of [
      ['ibs_uf_aliquota', 'ibs_uf_valor'],
      ['ibs_mun_aliquota', 'ibs_mun_valor'],
      ['cbs_aliquota', 'cbs_valor'],
    ] as const) {
      if (!/^\d{1,3}\.\d{4}$/.test(String(it[rate]))) p.push(`${rate} deve ter 4 casas`);
      if (Math.abs(cents(it[value]) - (base * Number(it[rate])) / 100) > 1)
        p.push(`${value} difere do calculado`);
    }
    if (cents(it.ibs_valor) !== cents(it.ibs_uf_valor) + cents(it.ibs_mun_valor)) p.push('ibs_valor');
    sum.base += base;
    sum.uf += cents(it.ibs_uf_valor);
    sum.mun += cents(it.ibs_mun_valor);
    sum.ibs += cents(it.ibs_valor);
    sum.cbs += cents(it.cbs_valor);
  }
  for (const [field, v] of [
    ['valor_total_base_calculo_ibs_cbs', sum.base],
    ['valor_total_ibs_uf', sum.uf],
    ['valor_total_ibs_mun', sum.mun],
    ['valor_total_ibs', sum.ibs],
    ['valor_total_cbs', sum.cbs],
  ] as const)
    if (!money(b[field]) || cents(b[field]) !== v) p.push(`${field} difere da soma dos itens`);
  return p;
}

/**
 * The NFS-e's `IBSCBS` group (NFS-e Padrão Nacional, NT 004; docs/decisions/0059, later). NT 004 v2.0
 * (10/12/2025) switched off the rules that make the group mandatory in the DPS and the NFS-e, for a date
 * of "implementação futura": this fake accepts a DPS without the group in 2026 and refuses it from 2027,
 * when every regime owes it (LC 214/2025, art. 348), while a group that is sent is checked now: the
 * year's rates (refused by the national system) and each value against base × rate within 0.01 (a
 * schema error, as for the NF-e). The codes are this fake's own: the national rule numbers could not be
 * read. The regime comes from the DPS's Simples option (`codigo_opcao_simples_nacional`), the year from
 * its competência (`data_competencia`), or the day of issue in Brasília when none is sent.
 */
const NFSE_GROUP_ENFORCED_FROM = '2027-01-01';
/** `opSimpNac` → the NF-e's CRT for the dates above: 1 not an optant (3), 2 MEI (4), 3 ME/EPP (1). */
const CRT_OF_SIMPLES_OPTION: Record<number, number> = { 1: 3, 2: 4, 3: 1 };
const NFSE_YEAR_RATES: Record<string, Array<[field: string, rate: number, code: string, message: string]>> = {
  '2026': [
    ['ibs_uf_aliquota', 0.1, 'RTC-pIBSUF', 'Alíquota do IBS da UF deve ser 0,10% em 2026'],
    ['ibs_mun_aliquota', 0, 'RTC-pIBSMun', 'Alíquota do IBS do município deve ser 0 em 2026'],
    ['cbs_aliquota', 0.9, 'RTC-pCBS', 'Alíquota da CBS deve ser 0,90% em 2026'],
  ],
  '2027': [
    ['ibs_uf_aliquota', 0.05, 'RTC-pIBSUF', 'Alíquota do IBS da UF deve ser 0,05% em 2027 e 2028'],
    ['ibs_mun_aliquota', 0.05, 'RTC-pIBSMun', 'Alíquota do IBS do município deve ser 0,05% em 2027 e 2028'],
  ],
};

/**
 * The codes of Anexo VII "IndOp_IBSCBS" v1.03.00 of the NFS-e Padrão Nacional (NT 009 v1.01): `01xxxx`
 * are goods (LC 214/2025, art. 11, I), the others services and other operations. The NF-e's `cIndOp` is a
 * goods code (010104/010105 only for an auction or goods without documents, NT 2025.002-RTC B25d); the
 * DPS's, sent with its IBSCBS group, is not.
 */
const IND_OP_CODES = new Set(
  (
    '010101 010102 010103 010104 010105 010106 010201 010202 020101 020102 020201 020202 020301 020401 ' +
    '030101 030102 040101 050101 050102 050201 060101 070101 070102 080101 090101 090102 100101 100102 ' +
    '100201 100301 100302 100401 100501 100502 100601 110101 110201 120101 130101 130201'
  ).split(' '),
);

/** The NF-e's `cIndOp` (codigo_indicador_operacao), when sent: a goods code, and not an auction's on a sale. */
function nfeIndOpRejection(b: Record<string, unknown>): { code: string; message: string } | null {
  const code = b.codigo_indicador_operacao;
  if (code === undefined) return null;
  if (
    !IND_OP_CODES.has(String(code)) ||
    !String(code).startsWith('01') ||
    ['010104', '010105'].includes(String(code))
  )
    return {
      code: 'RTC-cIndOp',
      message: `Código indicador da operação ${String(code)} incompatível com a NF-e`,
    };
  return null;
}

/** The date of issue in Brasília (UTC−3), as the national system reads dhEmi. */
const brasiliaDay = (iso: unknown) =>
  new Date(new Date(String(iso)).getTime() - 3 * 3_600_000).toISOString().slice(0, 10);

/** The schema's checks of the NFS-e's IBSCBS group, when sent. */
function nfseIbsCbsProblems(b: Record<string, unknown>): string[] {
  const serv = b.servico as Record<string, unknown>;
  if (serv.ibs_cbs_situacao_tributaria === undefined) return [];
  const p: string[] = [];
  if (!/^\d{3}$/.test(String(serv.ibs_cbs_situacao_tributaria))) p.push('ibs_cbs_situacao_tributaria');
  if (!/^\d{6}$/.test(String(serv.ibs_cbs_classificacao_tributaria)))
    p.push('ibs_cbs_classificacao_tributaria');
  if (!money(serv.ibs_cbs_base_calculo)) p.push('ibs_cbs_base_calculo deve ser decimal com 2 casas');
  const base = cents(serv.ibs_cbs_base_calculo);
  if (base !== cents(serv.valor_servicos)) p.push('ibs_cbs_base_calculo difere do valor dos serviços');
  for (const [rate, value] of [
    ['ibs_uf_aliquota', 'ibs_uf_valor'],
    ['ibs_mun_aliquota', 'ibs_mun_valor'],
    ['cbs_aliquota', 'cbs_valor'],
  ] as const) {
    if (!/^\d{1,3}\.\d{2,4}$/.test(String(serv[rate]))) p.push(`${rate} deve ser decimal`);
    if (!money(serv[value])) p.push(`${value} deve ser decimal com 2 casas`);
    else if (Math.abs(cents(serv[value]) - (base * Number(serv[rate])) / 100) > 1)
      p.push(`${value} difere do calculado`);
  }
  return p;
}

/** The national system's verdict on the NFS-e's IBSCBS group: a rejection, or null. */
function nfseIbsCbsRejection(b: Record<string, unknown>): { code: string; message: string } | null {
  const serv = b.servico as Record<string, unknown>;
  // The service is taxed by its competência (dCompet), the day of issue when none is sent.
  const day = typeof b.data_competencia === 'string' ? b.data_competencia : brasiliaDay(b.data_emissao);
  if (serv.ibs_cbs_situacao_tributaria === undefined) {
    const crt = CRT_OF_SIMPLES_OPTION[Number(b.codigo_opcao_simples_nacional)] ?? 0;
    if (day >= NFSE_GROUP_ENFORCED_FROM && day >= (GROUP_FROM[crt] ?? '9999'))
      return { code: 'RTC-IBSCBS', message: 'Grupo IBSCBS não informado na DPS' };
    return null;
  }
  // The group carries the operation indicator of Anexo VII (a service's, not a goods code).
  const indOp = String(b.codigo_indicador_operacao ?? '');
  if (!IND_OP_CODES.has(indOp) || indOp.startsWith('01'))
    return { code: 'RTC-cIndOp', message: 'Código indicador da operação (cIndOp) ausente ou inválido' };
  for (const [field, rate, code, message] of NFSE_YEAR_RATES[day.slice(0, 4)] ?? [])
    if (Number(serv[field]) !== rate) return { code, message };
  return null;
}

/** The city's verdict on an NFS-e: the national code always, and what its rule requires. */
function nfseCityRejection(b: Record<string, unknown>): { code: string; message: string } | null {
  const serv = b.servico as Record<string, unknown>;
  const tom = b.tomador as Record<string, unknown> | undefined;
  const city = String((b.prestador as Record<string, unknown>).codigo_municipio);
  if (!/^\d{6}$/.test(String(serv.codigo_tributacao_nacional_iss ?? '')))
    return { code: 'E0310', message: 'Código de tributação nacional (cTribNac) não informado ou inválido' };
  if (!/^\d{7}$/.test(String(serv.codigo_municipio_incidencia ?? '')))
    return { code: 'E0312', message: 'Local de incidência (cLocIncid) não informado' };
  const rule = nfseRuleFor(city);
  if (rule.nbs && !/^\d{9}$/.test(String(serv.codigo_nbs ?? '')))
    return { code: 'E0316', message: 'Código NBS obrigatório neste município' };
  if (rule.cnae && !serv.codigo_cnae)
    return { code: 'E0160', message: 'Código CNAE obrigatório neste município' };
  if (rule.municipalCode && !serv.codigo_tributario_municipio)
    return { code: 'E0314', message: 'Código de tributação do município obrigatório' };
  if (rule.takerAddress && tom) {
    const e = tom.endereco as Record<string, unknown> | undefined;
    if (
      !e?.logradouro ||
      !e.numero ||
      !/^\d{7}$/.test(String(e.codigo_municipio ?? '')) ||
      !/^\d{8}$/.test(String(e.cep ?? ''))
    )
      return { code: 'E0240', message: 'Endereço do tomador obrigatório neste município' };
  }
  return nfseIbsCbsRejection(b);
}

function nfseProblems(b: Record<string, unknown>): string[] {
  const p: string[] = [];
  const prest = b.prestador as Record<string, unknown> | undefined;
  const tom = b.tomador as Record<string, unknown> | undefined;
  const serv = b.servico as Record<string, unknown> | undefined;
  if (typeof b.data_emissao !== 'string') p.push('data_emissao obrigatório');
  if (![1, 2, 3].includes(b.codigo_opcao_simples_nacional as number))
    p.push('codigo_opcao_simples_nacional inválido');
  // The competência is a date no later than the day of issue.
  if (
    b.data_competencia !== undefined &&
    (typeof b.data_competencia !== 'string' ||
      !/^\d{4}-\d{2}-\d{2}$/.test(b.data_competencia) ||
      b.data_competencia > brasiliaDay(b.data_emissao))
  )
    p.push('data_competencia inválida ou posterior à emissão');
  if (!prest || typeof prest.cnpj !== 'string' || !CNPJ_EMIT.test(prest.cnpj)) p.push('prestador.cnpj');
  if (!prest || typeof prest.inscricao_municipal !== 'string' || !prest.inscricao_municipal)
    p.push('prestador.inscricao_municipal');
  if (!prest || typeof prest.codigo_municipio !== 'string' || !/^\d{7}$/.test(prest.codigo_municipio))
    p.push('prestador.codigo_municipio');
  // The taker may be left out (tomador não identificado, where the city allows it); when sent it is whole.
  // A person by CPF or a company by CNPJ (14 characters, letters allowed from 2026), never both.
  const person = typeof tom?.cpf === 'string' && /^\d{11}$/.test(tom.cpf);
  const company = typeof tom?.cnpj === 'string' && /^[0-9A-Z]{12}\d{2}$/.test(tom.cnpj);
  if (tom && person === company) p.push('tomador.cpf ou tomador.cnpj');
  if (tom && typeof tom.razao_social !== 'string') p.push('tomador.razao_social');
  if (b.tomador !== undefined && !tom) p.push('tomador');
  if (!serv || typeof serv.discriminacao !== 'string' || !serv.discriminacao) p.push('servico.discriminacao');
  if (!serv || typeof serv.item_lista_servico !== 'string') p.push('servico.item_lista_servico');
  if (!serv || !money(serv.valor_servicos)) p.push('servico.valor_servicos');
  return p;
}

export async function startFakeFocus(opts: { token?: string } = {}): Promise<FakeFocus> {
  const token = opts.token ?? 'token-focus-de-teste';
  let releaseHeld: () => void = () => {};
  let announceHeld: () => void = () => {};
  const pending: ServerResponse[] = [];
  let number = 0;

  const fake: FakeFocus = {
    url: '',
    token,
    docs: new Map(),
    issued: [],
    requests: [],
    mode: 'ok',
    rejectNext: null,
    holdPosts: false,
    held: new Promise<void>((r) => {
      announceHeld = r;
    }),
    release: () => releaseHeld(),
    invalid: [],
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of pending) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const held = new Promise<void>((r) => {
    releaseHeld = r;
  });

  const answerOf = (d: FakeFocusDoc) => {
    if (d.status === 'processando_autorizacao' && d.processingReads > 0) {
      d.processingReads--;
      return { ref: d.ref, status: 'processando_autorizacao' };
    }
    if (d.status === 'processando_autorizacao') {
      if (d.rejection) d.status = 'erro_autorizacao';
      else {
        d.status = 'autorizado';
        d.key =
          d.kind === 'nfe'
            ? buildAccessKey({
                uf: String(d.body.uf_emitente ?? 'CE'),
                issuedAt: new Date(String(d.body.data_emissao)),
                cnpj: String(d.body.cnpj_emitente),
                series: 1,
                number: d.number,
                code: 10_000_000 + d.number,
              })
            : undefined;
      }
    }
    if (d.status === 'erro_autorizacao')
      return d.kind === 'nfe'
        ? {
            ref: d.ref,
            status: 'erro_autorizacao',
            status_sefaz: d.rejection!.code,
            mensagem_sefaz: d.rejection!.message,
          }
        : {
            ref: d.ref,
            status: 'erro_autorizacao',
            erros: [{ codigo: d.rejection!.code, mensagem: d.rejection!.message, correcao: null }],
          };
    if (d.status === 'cancelado') return { ref: d.ref, status: 'cancelado', status_sefaz: '135' };
    return d.kind === 'nfe'
      ? {
          cnpj_emitente: d.body.cnpj_emitente,
          ref: d.ref,
          status: 'autorizado',
          status_sefaz: '100',
          mensagem_sefaz: 'Autorizado o uso da NF-e',
          chave_nfe: `NFe${d.key}`,
          numero: String(d.number),
          serie: '1',
          protocolo: `1${String(d.number).padStart(14, '0')}`,
          caminho_xml_nota_fiscal: `/arquivos_development/xml/${d.ref}.xml`,
          caminho_danfe: `/arquivos_development/danfe/${d.ref}.pdf`,
        }
      : {
          ref: d.ref,
          status: 'autorizado',
          numero: String(d.number),
          codigo_verificacao: `V${d.number}`,
          url_danfse: `${fake.url}/nfse_pdf/${d.ref}.pdf`,
          caminho_xml_nota_fiscal: `/arquivos_development/xml/${d.ref}.xml`,
        };
  };

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    fake.requests.push({ method: req.method ?? '', path: url.pathname });
    if (fake.mode === 'hang') {
      pending.push(res);
      return;
    }
    if (fake.mode === 'down')
      return send(res, 503, { codigo: 'erro_interno', mensagem: 'Serviço indisponível' });
    const auth = req.headers.authorization ?? '';
    if (auth !== `Basic ${Buffer.from(`${token}:`).toString('base64')}`)
      return send(res, 403, { codigo: 'permissao_negada', mensagem: 'Token inválido' });

    // Files (DANFE, XML) of an authorised document.
    const file = /^\/(?:arquivos_development\/(?:xml|danfe)|nfse_pdf)\/(.+)\.(pdf|xml)$/.exec(url.pathname);
    if (req.method === 'GET' && file) {
      const d = fake.docs.get(file[1]!);
      if (d?.status !== 'autorizado') return send(res, 404, { codigo: 'nao_encontrado' });
      res.writeHead(200, { 'content-type': file[2] === 'pdf' ? 'application/pdf' : 'application/xml' });
      return res.end(file[2] === 'pdf' ? `%PDF-1.4 fake ${d.ref}` : authorisedXml(d));
    }

    const route = /^\/v2\/(nfe|nfse)(?:\/([^/]+))?$/.exec(url.pathname);
    if (!route) return send(res, 404, { codigo: 'nao_encontrado', mensagem: 'Rota não encontrada' });
    const kind = route[1] as 'nfe' | 'nfse';
    const raw = await read(req);

    if (req.method === 'POST' && !route[2]) {
      const ref = url.searchParams.get('ref');
      if (!ref)
        return send(res, 400, { codigo: 'requisicao_invalida', mensagem: 'Parâmetro ref não informado' });
      if (req.headers['content-type'] !== 'application/json')
        return send(res, 415, { codigo: 'requisicao_invalida', mensagem: 'Envie JSON' });
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        return send(res, 400, { codigo: 'requisicao_invalida', mensagem: 'JSON inválido' });
      }
      const existing = fake.docs.get(ref);
      if (existing && existing.status !== 'erro_autorizacao')
        return send(res, 422, {
          codigo: 'already_processed',
          mensagem: 'Nota fiscal já processada com esta referência',
        });
      let problems = kind === 'nfe' ? nfeProblems(body) : nfseProblems(body);
      if (!problems.length) problems = kind === 'nfe' ? ibsCbsProblems(body) : nfseIbsCbsProblems(body);
      if (problems.length) {
        fake.invalid.push(...problems);
        return send(res, 422, { codigo: 'erro_validacao_schema', mensagem: problems.join('; ') });
      }
      number += 1;
      const rejection =
        fake.rejectNext ?? (kind === 'nfe' ? nfeSefazRejection(body) : nfseCityRejection(body)) ?? undefined;
      fake.rejectNext = null;
      fake.docs.set(ref, {
        kind,
        ref,
        body,
        status: 'processando_autorizacao',
        number,
        processingReads: 1,
        ...(rejection ? { rejection } : {}),
      });
      fake.issued.push({ kind, ref });
      if (fake.holdPosts) {
        pending.push(res);
        announceHeld();
        await held;
        if (res.destroyed) return;
      }
      return send(res, 202, { cnpj_emitente: body.cnpj_emitente, ref, status: 'processando_autorizacao' });
    }

    const ref = route[2] ? decodeURIComponent(route[2]) : '';
    const d = fake.docs.get(ref);
    if (!d || d.kind !== kind)
      return send(res, 404, { codigo: 'nao_encontrado', mensagem: 'Nota fiscal não encontrada' });
    if (req.method === 'GET') return send(res, 200, answerOf(d));
    if (req.method === 'DELETE') {
      const j = (raw ? JSON.parse(raw) : {}) as { justificativa?: string };
      const len = j.justificativa?.length ?? 0;
      if (len < 15 || len > 255)
        return send(res, 422, {
          codigo: 'requisicao_invalida',
          mensagem: 'Justificativa deve ter de 15 a 255 caracteres',
        });
      if (d.status !== 'autorizado')
        return send(res, 422, {
          codigo: 'nfe_nao_autorizada',
          mensagem: 'Nota fiscal não autorizada não pode ser cancelada',
        });
      d.status = 'cancelado';
      return send(res, 200, {
        status: 'cancelado',
        status_sefaz: '135',
        mensagem_sefaz: 'Evento registrado e vinculado a NF-e',
        caminho_xml_cancelamento: `/arquivos_development/${ref}-can.xml`,
      });
    }
    return send(res, 405, { codigo: 'metodo_nao_permitido' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
