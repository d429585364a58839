import { addDays, type IsoDate } from '@passada/core/calendar';
import { COMPANY } from '@passada/core/company';
import { XMLParser } from 'fast-xml-parser';
import {
  type ReturnAuthorization,
  type ReturnAuthorizationInput,
  ShippingProviderError,
} from './shipping.provider.ts';

/** The web service's XML namespace (the implementation guide's WSDL). */
export const REVERSA_NAMESPACE = 'http://service.logisticareversa.correios.com.br/';

/** Days an e-ticket stays valid when the answer carries no `prazo` of its own. */
const DEFAULT_VALID_DAYS = 30;

export interface CorreiosReversaOptions {
  /** The service's address (production or homologation, from the contract's implementation guide). */
  url: string;
  user: string;
  password: string;
  /** `codAdministrativo` of the contract. */
  administrativeCode: string;
  /** `codigo_servico`: the contract's reverse service (e-ticket) code. */
  serviceCode: string;
  /** `cartao`: the posting card. */
  postingCard: string;
  timeoutMs?: number;
}

/** The shop, receiving the parcels (`destinatario`): parsed once from the company's registered address. */
export const SHOP_RECIPIENT = {
  nome: COMPANY.legalName,
  logradouro: 'Av. Beira Mar',
  numero: '3000',
  complemento: 'loja 12',
  bairro: 'Meireles',
  cidade: 'Fortaleza',
  uf: 'CE',
  cep: '60165121',
  ddd: '85',
  telefone: '32345678',
  email: COMPANY.email,
};

const escapeXml = (v: string) =>
  v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const tag = (name: string, value: string | number | undefined | null) =>
  value === undefined || value === null || value === ''
    ? ''
    : `<${name}>${escapeXml(String(value))}</${name}>`;

const person = (p: Record<string, string | undefined>) =>
  Object.entries(p)
    .map(([k, v]) => tag(k, v))
    .join('');

/**
 * `solicitarPostagemReversa` for one request (docs/decisions/0040): a postage authorisation (`tipo` A, the
 * e-ticket the buyer gives at any branch), our request id as `id_cliente`, the buyer as `remetente` and the
 * shop as `destinatario`.
 */
export function reversaRequestXml(opts: CorreiosReversaOptions, input: ReturnAuthorizationInput): string {
  const s = input.sender;
  const a = s.address;
  const phone = (s.phone ?? '').replace(/\D/g, '');
  const remetente = person({
    nome: s.name.slice(0, 60),
    logradouro: a?.street.slice(0, 72),
    numero: a?.number.slice(0, 8),
    complemento: a?.complement?.slice(0, 30),
    bairro: a?.neighborhood.slice(0, 50),
    cidade: a?.city.slice(0, 50),
    uf: a?.state,
    cep: s.cep.replace(/\D/g, ''),
    ddd: phone.length >= 10 ? phone.slice(0, 2) : undefined,
    telefone: phone.length >= 10 ? phone.slice(2) : undefined,
    email: s.email,
  });
  const body = [
    tag('codAdministrativo', opts.administrativeCode),
    tag('codigo_servico', opts.serviceCode),
    tag('cartao', opts.postingCard),
    `<destinatario>${person(SHOP_RECIPIENT)}</destinatario>`,
    '<coletas_solicitadas>',
    tag('tipo', 'A'),
    tag('id_cliente', input.returnId),
    tag('descricao', `Devolução do pedido nº ${input.orderId}`),
    `<remetente>${remetente}</remetente>`,
    `<obj_col>${tag('item', 1)}${tag('id', input.returnId)}</obj_col>`,
    '</coletas_solicitadas>',
  ].join('');
  return `<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:ns1="${REVERSA_NAMESPACE}"><soapenv:Header/><soapenv:Body><ns1:solicitarPostagemReversa>${body}</ns1:solicitarPostagemReversa></soapenv:Body></soapenv:Envelope>`;
}

/** "dd/mm/aaaa" → "aaaa-mm-dd"; null when it is not such a date. */
function brDate(v: unknown): IsoDate | null {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(String(v ?? '').trim());
  return m ? (`${m[3]}-${m[2]}-${m[1]}` as IsoDate) : null;
}

const parser = new XMLParser({ removeNSPrefix: true, parseTagValue: false, ignoreAttributes: true });

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const first = (v: unknown): Obj => obj(Array.isArray(v) ? v[0] : v);

/**
 * Reads the service's answer: a SOAP fault (authentication, malformed request), an error of the whole call
 * (`cod_erro` other than 0 with `msg_erro`), an error of the one request (`codigo_erro` with
 * `descricao_erro`), or the authorisation (`numero_coleta`, valid until `prazo`).
 */
export function parseReversaAnswer(xml: string, today: IsoDate): ReturnAuthorization {
  let doc: Obj;
  try {
    doc = obj(parser.parse(xml));
  } catch {
    throw new ShippingProviderError('Correios (logística reversa) respondeu algo que não é XML.');
  }
  const body = obj(obj(doc.Envelope).Body);
  if (body.Fault) {
    const fault = obj(body.Fault);
    throw new ShippingProviderError(
      `Correios (logística reversa) recusou: ${String(fault.faultstring ?? 'falha')}`,
    );
  }
  const answer = obj(obj(body.solicitarPostagemReversaResponse).solicitarPostagemReversa);
  const callError = String(answer.cod_erro ?? '0').trim();
  if (callError !== '' && callError !== '0' && callError !== '00')
    throw new ShippingProviderError(
      `Correios (logística reversa) recusou (${callError}): ${String(answer.msg_erro ?? '')}`,
    );
  const result = first(answer.resultado_solicitacao);
  const itemError = String(result.codigo_erro ?? '0').trim();
  if (itemError !== '' && itemError !== '0' && itemError !== '00')
    throw new ShippingProviderError(
      `Correios (logística reversa) recusou o pedido (${itemError}): ${String(result.descricao_erro ?? '')}`,
    );
  const code = String(result.numero_coleta ?? '').trim();
  if (!/^\d{3,15}$/.test(code))
    throw new ShippingProviderError('Correios (logística reversa) não informou o número da autorização.');
  return {
    code,
    validUntil: brDate(result.prazo) ?? addDays(today, DEFAULT_VALID_DAYS),
    instructions:
      'Embale os itens e leve a qualquer agência dos Correios informando o número da autorização de postagem (e-ticket). Você não paga nada pelo envio.',
  };
}

/** The reverse-logistics web service (SOAP, HTTP Basic with the contract's user and password). */
export function createCorreiosReversa(opts: CorreiosReversaOptions) {
  const timeoutMs = opts.timeoutMs ?? 15_000;
  return {
    async authorizeReturn(input: ReturnAuthorizationInput): Promise<ReturnAuthorization> {
      let res: Response;
      try {
        res = await fetch(opts.url, {
          method: 'POST',
          headers: {
            'content-type': 'text/xml; charset=utf-8',
            soapaction: '""',
            authorization: `Basic ${Buffer.from(`${opts.user}:${opts.password}`).toString('base64')}`,
          },
          body: reversaRequestXml(opts, input),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        throw new ShippingProviderError(
          `Correios (logística reversa) indisponível: ${(error as Error).message}`,
        );
      }
      const text = await res.text();
      if (res.status === 401 || res.status === 403)
        throw new ShippingProviderError(
          'Correios (logística reversa) recusou o usuário e a senha do contrato.',
        );
      // A SOAP fault comes with HTTP 500 and is read like any other answer.
      if (!res.ok && res.status !== 500)
        throw new ShippingProviderError(`Correios (logística reversa) respondeu HTTP ${res.status}.`);
      return parseReversaAnswer(text, input.today);
    },
  };
}
