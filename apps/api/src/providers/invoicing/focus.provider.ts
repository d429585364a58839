import { formatRate } from '@passada/core/fiscal/ibs-cbs';
import { CRT_OF_REGIME } from '@passada/core/fiscal/reform-rules';
import type {
  CancelAnswer,
  FiscalAddress,
  FiscalAnswer,
  InvoicingProvider,
  NfeEventInput,
  NfeInput,
  NfseInput,
} from './invoicing.provider.ts';
import { InvoicingRefused, InvoicingUnavailable } from './invoicing.provider.ts';

const reais = (cents: number) => (cents / 100).toFixed(2).replace('.', ',');

/** What staff type into SEFAZ's event form when the provider cannot send an event. */
export function eventByHand(input: NfeEventInput): string {
  const items = input.items
    .map(
      (i) =>
        `item ${i.item}: ${i.quantity} ${i.unit}, IBS R$ ${reais(i.ibsCents)}, CBS R$ ${reais(i.cbsCents)}, crédito da compra IBS R$ ${reais(i.purchaseIbsCents)} e CBS R$ ${reais(i.purchaseCbsCents)}`,
    )
    .join('; ');
  return `A Focus NFe não oferece o evento ${input.type} (perda no transporte contratado pela loja); registre-o no portal da SEFAZ para a NF-e ${input.accessKey}: ${items}.`;
}

/**
 * Focus NFe's REST API v2 (https://focusnfe.com.br/doc/): HTTP Basic with the account's token as the
 * user name, one reference (`ref`) per document. NF-e and NFS-e are processed asynchronously: the POST
 * answers 202 `processando_autorizacao`, the GET of the reference tells `autorizado`,
 * `erro_autorizacao` (with `status_sefaz` and `mensagem_sefaz`, or `erros` for the NFS-e), `cancelado`
 * or `denegado`; a DELETE with a `justificativa` cancels. A reference already taken is refused with
 * `already_processed`, which we answer by reading the reference.
 */

export const FOCUS_URLS = {
  producao: 'https://api.focusnfe.com.br',
  homologacao: 'https://homologacao.focusnfe.com.br',
} as const;

export interface FocusOptions {
  baseUrl: string;
  token: string;
  timeoutMs: number;
}

const decimal = (cents: number) => (cents / 100).toFixed(2);
const onlyKey = (k: unknown) => (typeof k === 'string' ? k.replace(/^NFe/, '') : null);

interface FocusResponse {
  status: number;
  body: Record<string, unknown>;
}

function addressFields(a: FiscalAddress, suffix: string) {
  return {
    [`logradouro_${suffix}`]: a.street,
    [`numero_${suffix}`]: a.number,
    ...(a.complement ? { [`complemento_${suffix}`]: a.complement } : {}),
    [`bairro_${suffix}`]: a.district,
    [`municipio_${suffix}`]: a.city,
    [`codigo_municipio_${suffix}`]: a.cityCode,
    [`uf_${suffix}`]: a.uf,
    [`cep_${suffix}`]: a.cep,
  };
}

/** The NF-e as Focus NFe's JSON names it (docs, "Campos obrigatórios de uma NFe"). */
export function focusNfeBody(input: NfeInput): Record<string, unknown> {
  const products = input.items.reduce((s, i) => s + i.totalCents, 0);
  const destUf = input.recipient.address?.uf ?? input.emitter.address.uf;
  return {
    natureza_operacao: input.operation,
    data_emissao: input.issuedAt.toISOString(),
    // A devolução and a nota de crédito are entries (tpNF 0; NT 2025.002-RTC rule B25-110 for the latter).
    tipo_documento: input.purpose === 1 ? 1 : 0,
    finalidade_emissao: input.purpose,
    ...(input.creditType ? { tipo_nota_credito: input.creditType } : {}),
    ...(input.operationIndicator ? { codigo_indicador_operacao: input.operationIndicator } : {}),
    local_destino: destUf === input.emitter.address.uf ? 1 : 2,
    consumidor_final: 1,
    presenca_comprador: 2,
    cnpj_emitente: input.emitter.cnpj,
    inscricao_estadual_emitente: input.emitter.ie,
    nome_emitente: input.emitter.name,
    regime_tributario_emitente: CRT_OF_REGIME[input.emitter.regime],
    ...addressFields(input.emitter.address, 'emitente'),
    nome_destinatario: input.recipient.name,
    cpf_destinatario: input.recipient.cpf,
    indicador_inscricao_estadual_destinatario: 9,
    ...(input.recipient.email ? { email_destinatario: input.recipient.email } : {}),
    ...(input.recipient.address ? addressFields(input.recipient.address, 'destinatario') : {}),
    modalidade_frete: input.shippingCents > 0 ? 0 : 9,
    valor_frete: decimal(input.shippingCents),
    valor_desconto: decimal(input.discountCents),
    valor_produtos: decimal(products),
    valor_total: decimal(input.totalCents),
    ...(input.referencedKey ? { notas_referenciadas: [{ chave_nfe: input.referencedKey }] } : {}),
    // IBSCBSTot (NT 2025.002-RTC): the sums of the items' groups, when the nota carries them.
    ...(input.ibsCbsTotals
      ? {
          valor_total_base_calculo_ibs_cbs: decimal(input.ibsCbsTotals.baseCents),
          valor_total_ibs_uf: decimal(input.ibsCbsTotals.ibsUfCents),
          valor_total_ibs_mun: decimal(input.ibsCbsTotals.ibsMunCents),
          valor_total_ibs: decimal(input.ibsCbsTotals.ibsCents),
          valor_total_cbs: decimal(input.ibsCbsTotals.cbsCents),
        }
      : {}),
    items: input.items.map((it, i) => ({
      numero_item: i + 1,
      codigo_produto: it.code,
      descricao: it.description,
      cfop: it.cfop,
      codigo_ncm: it.ncm,
      unidade_comercial: 'UN',
      quantidade_comercial: it.quantity,
      valor_unitario_comercial: decimal(it.unitCents),
      unidade_tributavel: 'UN',
      quantidade_tributavel: it.quantity,
      valor_unitario_tributavel: decimal(it.unitCents),
      valor_bruto: decimal(it.totalCents),
      // A nota de crédito carries only IBS/CBS (NT 2025.002-RTC rule B25-80, rejection 1001).
      ...(input.purpose === 5
        ? {}
        : {
            icms_origem: it.origin,
            icms_situacao_tributaria: it.icmsSituation,
            pis_situacao_tributaria: it.pisSituation,
            cofins_situacao_tributaria: it.cofinsSituation,
          }),
      ...(it.shippingCents ? { valor_frete: decimal(it.shippingCents) } : {}),
      ...(it.discountCents ? { valor_desconto: decimal(it.discountCents) } : {}),
      // The item's IBSCBS group (NT 2025.002-RTC v1.30): CST, cClassTrib, base, rates and values.
      ...(it.ibsCbs
        ? {
            ibs_cbs_situacao_tributaria: it.ibsCbs.situation,
            ibs_cbs_classificacao_tributaria: it.ibsCbs.classification,
            ibs_cbs_base_calculo: decimal(it.ibsCbs.baseCents),
            ibs_uf_aliquota: formatRate(it.ibsCbs.ibsUfRate),
            ibs_uf_valor: decimal(it.ibsCbs.ibsUfCents),
            ibs_mun_aliquota: formatRate(it.ibsCbs.ibsMunRate),
            ibs_mun_valor: decimal(it.ibsCbs.ibsMunCents),
            ibs_valor: decimal(it.ibsCbs.ibsCents),
            cbs_aliquota: formatRate(it.ibsCbs.cbsRate),
            cbs_valor: decimal(it.ibsCbs.cbsCents),
          }
        : {}),
    })),
  };
}

/**
 * The Simples Nacional option of the DPS (`opSimpNac`) as Focus's `codigo_opcao_simples_nacional`
 * (city guides of the national layout): 1 not an optant (regime normal), 2 MEI, 3 ME/EPP (Simples, also
 * over its sub-limit).
 */
const SIMPLES_OPTION = { regime_normal: 1, mei: 2, simples_nacional: 3, simples_excesso: 3 } as const;

/** The NFS-e as Focus NFe's JSON names it (docs, NFSe "Campos"). */
export function focusNfseBody(input: NfseInput): Record<string, unknown> {
  const g = input.ibsCbs;
  return {
    data_emissao: input.issuedAt.toISOString(),
    // The competência (the DPS's dCompet), which decides the reform's group and its rates.
    data_competencia: input.competence,
    codigo_opcao_simples_nacional: SIMPLES_OPTION[input.emitter.regime],
    // The DPS's cIndOp with its IBSCBS group (Focus's city guides: `$.codigo_indicador_operacao`).
    ...(g && input.operationIndicator ? { codigo_indicador_operacao: input.operationIndicator } : {}),
    prestador: {
      cnpj: input.emitter.cnpj,
      inscricao_municipal: input.emitter.im,
      codigo_municipio: input.emitter.address.cityCode,
    },
    // Without a taker (one NFS-e of an event's month) `tomador` is left out: the city guides mark the
    // taker's CPF optional where a consolidated nota is accepted (docs/decisions/0049).
    ...(input.taker
      ? {
          tomador: {
            // Focus's `tomador` takes the CPF or, for a company, the CNPJ (its NFS-e city guides).
            ...(input.taker.cnpj ? { cnpj: input.taker.cnpj } : { cpf: input.taker.cpf }),
            razao_social: input.taker.name,
            ...(input.taker.email ? { email: input.taker.email } : {}),
            ...(input.taker.address
              ? {
                  endereco: {
                    logradouro: input.taker.address.street,
                    numero: input.taker.address.number,
                    ...(input.taker.address.complement
                      ? { complemento: input.taker.address.complement }
                      : {}),
                    bairro: input.taker.address.district,
                    codigo_municipio: input.taker.address.cityCode,
                    uf: input.taker.address.uf,
                    cep: input.taker.address.cep,
                  },
                }
              : {}),
          },
        }
      : {}),
    servico: {
      discriminacao: input.description,
      item_lista_servico: input.serviceCode,
      // NFS-e Padrão Nacional (docs/decisions/0059): national service code, NBS, place of incidence.
      codigo_tributacao_nacional_iss: input.nationalCode,
      ...(input.nbs ? { codigo_nbs: input.nbs } : {}),
      codigo_municipio_incidencia: input.incidenceCityCode,
      ...(input.cnae ? { codigo_cnae: input.cnae } : {}),
      ...(input.municipalCode ? { codigo_tributario_municipio: input.municipalCode } : {}),
      iss_retido: false,
      valor_servicos: decimal(input.amountCents),
      // The DPS's IBSCBS group (NFS-e NT 004; Focus's names, docs/decisions/0059, later): CST and
      // cClassTrib, the base (the service's value), each rate (four decimals, as the NF-e's) and value.
      ...(g
        ? {
            ibs_cbs_situacao_tributaria: g.situation,
            ibs_cbs_classificacao_tributaria: g.classification,
            ibs_cbs_base_calculo: decimal(g.baseCents),
            ibs_uf_aliquota: formatRate(g.ibsUfRate),
            ibs_uf_valor: decimal(g.ibsUfCents),
            ibs_mun_aliquota: formatRate(g.ibsMunRate),
            ibs_mun_valor: decimal(g.ibsMunCents),
            cbs_aliquota: formatRate(g.cbsRate),
            cbs_valor: decimal(g.cbsCents),
          }
        : {}),
    },
  };
}

export function createFocusProvider(opts: FocusOptions): InvoicingProvider {
  const base = opts.baseUrl.replace(/\/$/, '');
  const authorization = `Basic ${Buffer.from(`${opts.token}:`).toString('base64')}`;

  async function call(method: string, path: string, body?: unknown): Promise<FocusResponse> {
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, {
        method,
        headers: {
          authorization,
          accept: 'application/json',
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: body !== undefined ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(opts.timeoutMs),
      });
    } catch (err) {
      const timeout = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      throw new InvoicingUnavailable(
        timeout ? 'O emissor de notas não respondeu a tempo.' : 'O emissor de notas está fora do ar.',
      );
    }
    const text = await res.text().catch(() => '');
    let parsed: Record<string, unknown> = {};
    try {
      parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      parsed = {};
    }
    if (res.status >= 500 || res.status === 429)
      throw new InvoicingUnavailable(`O emissor de notas respondeu ${res.status}.`);
    return { status: res.status, body: parsed };
  }

  const refused = (r: FocusResponse) =>
    new InvoicingRefused(
      String(r.body.mensagem ?? `O emissor de notas recusou o pedido (${r.status}).`),
      r.status,
      String(r.body.codigo ?? 'desconhecido'),
    );

  function answerOf(body: Record<string, unknown>, kind: 'nfe' | 'nfse'): FiscalAnswer {
    const status = String(body.status ?? '');
    if (status === 'autorizado') {
      const pdfUrl = String((kind === 'nfe' ? body.caminho_danfe : body.url_danfse) ?? '');
      return {
        state: 'autorizada',
        accessKey: kind === 'nfe' ? onlyKey(body.chave_nfe) : null,
        number: String(body.numero ?? ''),
        series: body.serie != null ? String(body.serie) : null,
        protocol: body.protocolo != null ? String(body.protocolo) : null,
        verificationCode: body.codigo_verificacao != null ? String(body.codigo_verificacao) : null,
        pdf: { url: pdfUrl },
        xml: { url: String(body.caminho_xml_nota_fiscal ?? '') },
      };
    }
    if (status === 'cancelado') return { state: 'cancelada' };
    if (status === 'erro_autorizacao' || status === 'denegado') {
      const first = Array.isArray(body.erros)
        ? (body.erros[0] as Record<string, unknown> | undefined)
        : undefined;
      return {
        state: 'rejeitada',
        code: String(body.status_sefaz ?? first?.codigo ?? status),
        message: String(body.mensagem_sefaz ?? first?.mensagem ?? 'Nota recusada.'),
      };
    }
    return { state: 'processando' };
  }

  async function consult(kind: 'nfe' | 'nfse', ref: string): Promise<FiscalAnswer | null> {
    const r = await call('GET', `/v2/${kind}/${encodeURIComponent(ref)}?completo=0`);
    if (r.status === 404) return null;
    if (r.status !== 200) throw refused(r);
    return answerOf(r.body, kind);
  }

  async function issue(kind: 'nfe' | 'nfse', ref: string, body: Record<string, unknown>) {
    const r = await call('POST', `/v2/${kind}?ref=${encodeURIComponent(ref)}`, body);
    if (r.status === 201 || r.status === 202) return answerOf(r.body, kind);
    // The reference was taken by an earlier call (its answer lost): that document is ours.
    if (r.status === 422 && r.body.codigo === 'already_processed') {
      const known = await consult(kind, ref);
      if (known) return known;
    }
    throw refused(r);
  }

  async function cancel(kind: 'nfe' | 'nfse', ref: string, justification: string): Promise<CancelAnswer> {
    const r = await call('DELETE', `/v2/${kind}/${encodeURIComponent(ref)}`, {
      justificativa: justification,
    });
    if (r.status === 200 && r.body.status === 'cancelado') {
      const xml = r.body.caminho_xml_cancelamento;
      return { state: 'cancelada', xml: typeof xml === 'string' ? { url: xml } : null };
    }
    if (r.status === 200 || r.status === 422) {
      const first = Array.isArray(r.body.erros)
        ? (r.body.erros[0] as Record<string, unknown> | undefined)
        : undefined;
      return {
        state: 'recusada',
        code: String(r.body.status_sefaz ?? first?.codigo ?? r.body.codigo ?? r.status),
        message: String(
          r.body.mensagem_sefaz ?? first?.mensagem ?? r.body.mensagem ?? 'Cancelamento recusado.',
        ),
      };
    }
    throw refused(r);
  }

  return {
    name: 'focusnfe',
    consultNfe: (ref) => consult('nfe', ref),
    issueNfe: (input) => issue('nfe', input.ref, focusNfeBody(input)),
    cancelNfe: (ref, justification) => cancel('nfe', ref, justification),
    consultNfse: (ref) => consult('nfse', ref),
    issueNfse: (input) => issue('nfse', input.ref, focusNfseBody(input)),
    cancelNfse: (ref, justification) => cancel('nfse', ref, justification),
    // No page of Focus's API read for this (https://focusnfe.com.br/doc/, its NF-e reference and its reform
    // guide) documents a route for the reform's NF-e events (docs/decisions/0059, later): nothing is sent.
    // Staff register the event with SEFAZ themselves, from the values the refusal lists.
    async consultNfeEvent() {
      return null;
    },
    async registerNfeEvent(input) {
      throw new InvoicingRefused(eventByHand(input), 501, 'evento_sem_rota');
    },
    async download(url) {
      const target = /^https?:\/\//.test(url) ? url : `${base}${url}`;
      let res: Response;
      try {
        res = await fetch(target, {
          headers: { authorization },
          signal: AbortSignal.timeout(opts.timeoutMs),
        });
      } catch {
        throw new InvoicingUnavailable('O emissor de notas não entregou o arquivo.');
      }
      if (!res.ok) throw new InvoicingUnavailable(`O arquivo da nota respondeu ${res.status}.`);
      return Buffer.from(await res.arrayBuffer());
    },
  };
}
