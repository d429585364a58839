import { isS10Code } from '@passada/core/s10';
import { brasilia, createCorreiosToken } from './correios-token.ts';
import {
  type LabelParty,
  type LabelProvider,
  LabelProviderError,
  type StoredLabel,
  splitStreet,
  type TrackingReading,
} from './label.provider.ts';

export interface CorreiosLabelsOptions {
  /** https://api.correios.com.br (production) or https://apihom.correios.com.br (homologation). */
  baseUrl: string;
  /** The contract's user (`idCorreios`) and the access code generated for the API in the CWS portal. */
  user: string;
  accessCode: string;
  /** The posting card (cartão de postagem) the pré-postagens are invoiced to. */
  postingCard: string;
  /** The contract's product codes (they differ between contracts; 03298 PAC and 03220 SEDEX are common). */
  services: { PAC: string; SEDEX: string };
  timeoutMs?: number;
  /** How long to wait between asks for a label PDF still being made, and how many times to ask. */
  labelPollMs?: number;
  labelPollTries?: number;
  now?: () => Date;
}

/** SRO event codes (`codigo`) of a delivery, read with `tipo` 01 (docs/decisions/0049). */
const DELIVERED = new Set(['BDE', 'BDI', 'BDR']);

/**
 * The additional service "valor declarado" of each product (docs/decisions/0049, "Later"): 019 with
 * SEDEX, 064 with PAC, sent in `listaServicoAdicional` with the value in reais ("259.80").
 */
export const DECLARED_VALUE_SERVICE = { SEDEX: '019', PAC: '064' } as const;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The party as the pré-postagem wants it: the phone split into DDD and number, mobile or landline. */
function party(p: LabelParty) {
  const phone = p.phone.replace(/\D/g, '').replace(/^55(?=\d{10,11}$)/, '');
  const ddd = phone.length >= 10 ? phone.slice(0, 2) : undefined;
  const rest = phone.length >= 10 ? phone.slice(2) : undefined;
  const mobile = rest?.length === 9;
  return {
    nome: p.name.slice(0, 50),
    ...(p.document ? { cpfCnpj: p.document } : {}),
    ...(ddd && rest
      ? mobile
        ? { dddCelular: ddd, celular: rest }
        : { dddTelefone: ddd, telefone: rest }
      : {}),
    ...(p.email ? { email: p.email } : {}),
    endereco: {
      cep: p.cep.replace(/\D/g, ''),
      ...splitStreet(p),
      bairro: p.neighborhood,
      cidade: p.city,
      uf: p.state,
    },
  };
}

/** "2026-11-24T10:00:00" (Brasília time, as the SRO answers) or with an offset → an instant. */
interface SroEvent {
  codigo?: unknown;
  tipo?: unknown;
  dtHrCriado?: unknown;
}

/** Where an object stands from its SRO events (any order): delivered, out for delivery, or posted. */
export function readSroEvents(events: SroEvent[]): TrackingReading {
  const dated = events
    .map((e) => ({ codigo: String(e.codigo ?? ''), tipo: String(e.tipo ?? ''), at: brasilia(e.dtHrCriado) }))
    .sort((a, b) => (b.at?.getTime() ?? 0) - (a.at?.getTime() ?? 0));
  const delivered = dated.find((e) => DELIVERED.has(e.codigo) && e.tipo === '01');
  if (delivered) return { state: 'entregue', at: delivered.at };
  const latest = dated[0];
  if (!latest) return { state: 'aguardando_postagem', at: null };
  if (latest.codigo === 'OEC' && latest.tipo === '01') return { state: 'saiu_para_entrega', at: latest.at };
  // Every event of an object the Correios know (posting, forwarding, a failed attempt) comes after it
  // was posted; the posting itself dates the state.
  const posted = dated.find((e) => e.codigo === 'PO');
  return { state: 'postado', at: (posted ?? dated.at(-1))!.at };
}

/**
 * The Correios "API Pré-Postagem" for contract customers (docs/decisions/0049): a token from the posting
 * card, one pré-postagem per order (`POST /prepostagem/v1/prepostagens`, with the NF-e key in
 * `chaveNFe` and the declared value as an additional service) answering its id and the object code,
 * cancelled with its order before posting (`DELETE /prepostagem/v1/prepostagens/{id}`), the label PDF ("rótulo") made asynchronously
 * (`POST …/rotulo/assincrono/pdf`, then `GET …/rotulo/download/assincrono/{idRecibo}`), and tracking by
 * the SRO (`GET /srorastro/v1/objetos`). Nothing is paid when a pré-postagem is made: the contract is
 * invoiced for what is posted.
 */
export function createCorreiosLabelProvider(opts: CorreiosLabelsOptions): LabelProvider {
  const baseUrl = opts.baseUrl.replace(/\/+$/, '');
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const now = opts.now ?? (() => new Date());
  const pollMs = opts.labelPollMs ?? 1500;
  const pollTries = opts.labelPollTries ?? 5;

  async function send(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    headers: Record<string, string>,
    body?: unknown,
  ): Promise<{ status: number; answer: unknown }> {
    let res: Response;
    try {
      res = await fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          accept: 'application/json',
          ...headers,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch {
      throw new LabelProviderError('indisponivel', 'Correios fora do ar; tente de novo em instantes.');
    }
    const answer: unknown = await res.json().catch(() => null);
    return { status: res.status, answer };
  }

  const messages = (answer: unknown): string => {
    const msgs = (answer as { msgs?: unknown } | null)?.msgs;
    return Array.isArray(msgs) ? msgs.filter((m) => typeof m === 'string').join('; ') : '';
  };

  function fail(status: number, answer: unknown, what: string): never {
    if (status === 401 || status === 403) {
      contractToken.drop();
      throw new LabelProviderError(
        'nao_autorizado',
        'Correios recusou as credenciais do contrato (usuário, código de acesso ou cartão de postagem).',
      );
    }
    if (status >= 500 || status === 429)
      throw new LabelProviderError('indisponivel', 'Correios fora do ar; tente de novo em instantes.');
    throw new LabelProviderError(
      'invalido',
      `Correios recusou ${what}: ${messages(answer) || `HTTP ${status}`}`,
    );
  }

  const contractToken = createCorreiosToken({
    credentials: opts,
    now,
    request: async (headers, body) => {
      const { status, answer } = await send('POST', '/token/v1/autentica/cartaopostagem', headers, body);
      if (status !== 200 && status !== 201) fail(status, answer, 'o acesso');
      return answer;
    },
    missing: () => new LabelProviderError('indisponivel', 'Correios respondeu o acesso sem o token.'),
  });

  /** A call with the contract's token; a token refused mid-way (expired early) is renewed once. */
  async function call(method: 'GET' | 'POST' | 'DELETE', path: string, what: string, body?: unknown) {
    for (let attempt = 0; ; attempt++) {
      const { status, answer } = await send(
        method,
        path,
        { authorization: `Bearer ${await contractToken.get()}` },
        body,
      );
      if (status >= 200 && status < 300) return answer;
      if (status === 401 && attempt === 0) {
        contractToken.drop();
        continue;
      }
      fail(status, answer, what);
    }
  }

  return {
    name: 'correios',

    async create(request) {
      if (!request.nfeKey)
        throw new LabelProviderError(
          'invalido',
          'Os Correios exigem a chave da NF-e autorizada na pré-postagem de uma venda.',
        );
      const answer = (await call('POST', '/prepostagem/v1/prepostagens', 'a pré-postagem', {
        idCorreios: opts.user,
        remetente: party(request.sender),
        destinatario: party(request.recipient),
        codigoServico: opts.services[request.service],
        numeroCartaoPostagem: opts.postingCard,
        pesoInformado: String(Math.max(1, Math.round(request.pkg.weightGrams))),
        // 2: box (pacote); sizes in whole centimetres.
        codigoFormatoObjetoInformado: '2',
        alturaInformada: String(Math.ceil(request.pkg.heightCm)),
        larguraInformada: String(Math.ceil(request.pkg.widthCm)),
        comprimentoInformado: String(Math.ceil(request.pkg.lengthCm)),
        cienteObjetoNaoProibido: 1,
        chaveNFe: request.nfeKey,
        // What the products are worth, insured by the Correios' own additional service.
        ...(request.declaredValueCents > 0
          ? {
              listaServicoAdicional: [
                {
                  codigoServicoAdicional: DECLARED_VALUE_SERVICE[request.service],
                  valorDeclarado: (request.declaredValueCents / 100).toFixed(2),
                },
              ],
            }
          : {}),
        observacao: `Pedido nº ${request.orderId}`,
      })) as { id?: unknown; codigoObjeto?: unknown } | null;
      if (typeof answer?.id !== 'string' || typeof answer.codigoObjeto !== 'string')
        throw new LabelProviderError(
          'indisponivel',
          'Correios respondeu a pré-postagem sem o id ou o código do objeto.',
        );
      // The object code comes with the pré-postagem; the reference keeps both.
      return { ref: `${answer.id}:${answer.codigoObjeto}` };
    },

    async purchase(ref) {
      // Nothing to pay: the contract is invoiced for what is posted. The code came with the pré-postagem.
      const code = ref.split(':')[1] ?? '';
      if (!isS10Code(code))
        throw new LabelProviderError('invalido', `Pré-postagem ${ref} sem código de objeto válido.`);
      return { trackingCode: code, priceCents: 0 };
    },

    async print(labels: StoredLabel[]) {
      const ids = labels.map((l) => l.providerRef.split(':')[0]!);
      const receipt = (await call('POST', '/prepostagem/v1/prepostagens/rotulo/assincrono/pdf', 'o rótulo', {
        idsPrePostagem: ids,
        tipoRotulo: 'P',
        formatoRotulo: 'ET',
        imprimeRemetente: 'S',
        layoutImpressao: 'PADRAO',
      })) as { idRecibo?: unknown } | null;
      if (typeof receipt?.idRecibo !== 'string')
        throw new LabelProviderError('indisponivel', 'Correios não devolveu o recibo do rótulo.');
      for (let i = 0; i < pollTries; i++) {
        const { status, answer } = await send(
          'GET',
          `/prepostagem/v1/prepostagens/rotulo/download/assincrono/${encodeURIComponent(receipt.idRecibo)}`,
          { authorization: `Bearer ${await contractToken.get()}` },
        );
        const dados = (answer as { dados?: unknown } | null)?.dados;
        if (status === 200 && typeof dados === 'string' && dados) {
          const pdf = Buffer.from(dados, 'base64');
          if (pdf.subarray(0, 5).toString('latin1') !== '%PDF-')
            throw new LabelProviderError('indisponivel', 'Correios devolveu um rótulo que não é PDF.');
          return { pdf };
        }
        // Still being made (the PDF of registered objects is asynchronous): ask again shortly.
        if (status !== 200 && status !== 404 && status !== 422) fail(status, answer, 'o rótulo');
        await sleep(pollMs);
      }
      throw new LabelProviderError(
        'indisponivel',
        'Os Correios ainda estão gerando o rótulo; tente imprimir de novo em instantes.',
      );
    },

    async track(labels: StoredLabel[]) {
      const readings = new Map<string, TrackingReading>();
      if (!labels.length) return readings;
      const query = new URLSearchParams(
        labels.map((l): [string, string] => ['codigosObjetos', l.trackingCode]),
      );
      query.set('resultado', 'T');
      const answer = (await call('GET', `/srorastro/v1/objetos?${query}`, 'o rastreamento')) as {
        objetos?: Array<{ codObjeto?: unknown; eventos?: unknown; mensagem?: unknown }>;
      } | null;
      const byCode = new Map((answer?.objetos ?? []).map((o) => [String(o.codObjeto ?? ''), o]));
      for (const label of labels) {
        const o = byCode.get(label.trackingCode);
        if (!o) continue;
        // An object not posted yet is answered with a message ("SRO-020: Objeto não encontrado…").
        const events = Array.isArray(o.eventos) ? (o.eventos as SroEvent[]) : [];
        readings.set(label.providerRef, readSroEvents(events));
      }
      return readings;
    },

    async cancel(label: StoredLabel) {
      // `DELETE /prepostagem/v1/prepostagens/{id}`: a pré-postagem not posted yet is cancelled (nothing
      // was invoiced); one the Correios already received is refused with the reason in `msgs`.
      const id = label.providerRef.split(':')[0]!;
      try {
        await call('DELETE', `/prepostagem/v1/prepostagens/${encodeURIComponent(id)}`, 'o cancelamento');
      } catch (error) {
        if (!(error instanceof LabelProviderError) || error.code !== 'invalido') throw error;
        // Cancelled already (a retry after a lost answer): done.
        if (/j[aá] (foi |est[aá] )?cancelad/i.test(error.reason)) return;
        throw new LabelProviderError('recusado', error.reason);
      }
    },
  };
}
