import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { XMLParser } from 'fast-xml-parser';

/**
 * A strict Correios reverse-logistics web service (docs/decisions/0040): SOAP 1.1 over HTTP Basic, the
 * `solicitarPostagemReversa` request as the implementation guide describes it (codAdministrativo,
 * codigo_servico, cartao, destinatario, coletas_solicitadas with tipo, id_cliente, remetente, obj_col),
 * answering `resultado_solicitacao` (numero_coleta, prazo dd/mm/aaaa) or the guide's error fields: a SOAP
 * fault (HTTP 500) for a malformed envelope, `cod_erro`/`msg_erro` for the call, `codigo_erro`/
 * `descricao_erro` for one request, HTTP 401 for a wrong user or password.
 */
export interface FakeReversa {
  url: string;
  requests: Array<Record<string, unknown>>;
  close(): Promise<void>;
}

const parser = new XMLParser({ removeNSPrefix: true, parseTagValue: false, ignoreAttributes: true });

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

const envelope = (inner: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>${inner}</soap:Body></soap:Envelope>`;
const answer = (inner: string) =>
  envelope(
    `<ns2:solicitarPostagemReversaResponse xmlns:ns2="http://service.logisticareversa.correios.com.br/"><solicitarPostagemReversa>${inner}</solicitarPostagemReversa></ns2:solicitarPostagemReversaResponse>`,
  );

export async function startFakeReversa(opts: {
  user: string;
  password: string;
  administrativeCode: string;
  serviceCode: string;
  postingCard: string;
  /** The day every authorisation is valid until (dd/mm/aaaa). */
  validUntil: string;
}): Promise<FakeReversa> {
  const requests: Obj[] = [];
  const used = new Set<string>();
  let next = 314_159_000;
  const server: Server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const send = (status: number, xml: string) => {
      res.writeHead(status, { 'content-type': 'text/xml; charset=utf-8' });
      res.end(xml);
    };
    const expected = `Basic ${Buffer.from(`${opts.user}:${opts.password}`).toString('base64')}`;
    if (req.headers.authorization !== expected) return send(401, '');
    if (req.method !== 'POST' || !String(req.headers['content-type']).startsWith('text/xml'))
      return send(
        500,
        envelope(
          '<soap:Fault><faultcode>soap:Client</faultcode><faultstring>Requisição inválida</faultstring></soap:Fault>',
        ),
      );
    let call: Obj;
    try {
      call = obj(obj(obj(obj(parser.parse(body, true)).Envelope).Body).solicitarPostagemReversa);
    } catch {
      call = {};
    }
    if (!Object.keys(call).length)
      return send(
        500,
        envelope(
          '<soap:Fault><faultcode>soap:Client</faultcode><faultstring>Unmarshalling Error</faultstring></soap:Fault>',
        ),
      );
    requests.push(call);
    const callError = (code: string, msg: string) =>
      send(200, answer(`<cod_erro>${code}</cod_erro><msg_erro>${msg}</msg_erro>`));
    if (call.codAdministrativo !== opts.administrativeCode)
      return callError('-1', 'Código administrativo inválido');
    if (call.codigo_servico !== opts.serviceCode) return callError('-2', 'Serviço não contratado');
    if (call.cartao !== opts.postingCard) return callError('-3', 'Cartão de postagem inválido');
    const recipient = obj(call.destinatario);
    if (!/^\d{8}$/.test(String(recipient.cep ?? '')) || !recipient.nome)
      return callError('-4', 'Destinatário incompleto');
    const pickup = obj(call.coletas_solicitadas);
    const sender = obj(pickup.remetente);
    const id = String(pickup.id_cliente ?? '');
    const itemError = (code: string, msg: string) =>
      send(
        200,
        answer(
          `<cod_erro>0</cod_erro><resultado_solicitacao><tipo>${String(pickup.tipo ?? '')}</tipo><id_cliente>${id}</id_cliente><codigo_erro>${code}</codigo_erro><descricao_erro>${msg}</descricao_erro></resultado_solicitacao>`,
        ),
      );
    if (!['A', 'C', 'CA'].includes(String(pickup.tipo)))
      return itemError('110', 'Tipo de solicitação inválido');
    if (!id) return itemError('111', 'Identificação do cliente obrigatória');
    if (!sender.nome || !/^\d{8}$/.test(String(sender.cep ?? '')))
      return itemError('112', 'Remetente incompleto');
    if (!obj(pickup.obj_col).item) return itemError('113', 'Objeto obrigatório');
    if (used.has(id)) return itemError('120', 'Identificação do cliente já utilizada');
    used.add(id);
    next += 1;
    return send(
      200,
      answer(
        `<cod_erro>0</cod_erro><data_processamento>25/11/2026</data_processamento><resultado_solicitacao><tipo>A</tipo><id_cliente>${id}</id_cliente><numero_coleta>${next}</numero_coleta><numero_etiqueta></numero_etiqueta><status_objeto>01</status_objeto><prazo>${opts.validUntil}</prazo><codigo_erro>0</codigo_erro><descricao_erro></descricao_erro></resultado_solicitacao>`,
      ),
    );
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/logisticaReversaWS/logisticaReversaService/logisticaReversaWS`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
