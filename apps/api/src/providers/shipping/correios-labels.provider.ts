import { isS10Code } from '@passada/core/s10';
import { brasilia, createCorreiosToken } from './correios-token.ts';
import {
  type LabelParty,
  type LabelProvider,
  LabelProviderError,
  type StoredLabel,
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** "Av. Beira Mar, 3000, loja 12" → street, number and complement; "S/N" when there is no number. */
export function splitStreet(p: Pick<LabelParty, 'street' | 'number' | 'complement'>): {
  logradouro: string;
  numero: string;
  complemento?: string;
} {
  if (p.number)
    return { logradouro: p.street, numero: p.number, ...(p.complement ? { complemento: p.complement } : {}) };
  const m = /^(.*?),\s*(\d+[A-Za-z]?|S\/?N)\b,?\s*(.*)$/i.exec(p.street.trim());
  if (!m) return { logradouro: p.street.trim(), numero: 'S/N' };
  const complemento = (m[3] ?? '').trim() || p.complement;
  return {
    logradouro: m[1]!.trim(),
    numero: m[2]!.toUpperCase(),
    ...(complemento ? { complemento } : {}),
  };
}

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
 * `chaveNFe`) answering its id and the object code, the label PDF ("rótulo") made asynchronously
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
    method: 'GET' | 'POST',
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
  async function call(method: 'GET' | 'POST', path: string, what: string, body?: unknown) {
    for (let attempt = 0; ; attempt++) {
      const { status, answer } = await send(
        method,
        path,
        { authorization: `Bearer ${await contractToken.get()}` },
        body,
      );
      if (status === 200 || status === 201) return answer;
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
  };
}
