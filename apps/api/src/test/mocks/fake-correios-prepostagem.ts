/**
 * A strict stand-in for the Correios contract API on 127.0.0.1, for tests only (docs/decisions/0049):
 * the token from the posting card (`POST /token/v1/autentica/cartaopostagem`, HTTP Basic), the
 * pré-postagem (`POST /prepostagem/v1/prepostagens`, with the declared value in `listaServicoAdicional`),
 * its cancellation (`DELETE /prepostagem/v1/prepostagens/{id}`, refused once the object was posted),
 * the asynchronous label PDF (`POST
 * …/rotulo/assincrono/pdf` → `idRecibo`, `GET …/rotulo/download/assincrono/{idRecibo}` → `dados` in
 * base64) and the SRO tracking (`GET /srorastro/v1/objetos`), in the documented shapes; errors as the
 * API gives them (`{ msgs: [...] }` with 400, 401 without a valid token, 503 when down) and controls for
 * a bad day.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { isNfeAccessKey } from '@passada/core/contracts/shipping-labels';
import { s10CheckDigit } from '@passada/core/s10';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {};

export interface FakePrePostagem {
  id: string;
  codigoObjeto: string;
  body: Json;
  cancelada: boolean;
}

export interface FakeSroEvent {
  codigo: string;
  tipo: string;
  dtHrCriado: string;
  descricao: string;
}

export interface Seen {
  method: string;
  path: string;
  body: Json;
}

/** A one-page PDF, what the Correios label download carries (base64) in `dados`. */
function labelPdf(codes: string[]): Buffer {
  const text = `Rotulo ${codes.join(' ')}`;
  const stream = `BT /F1 12 Tf 20 400 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 283 425] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

const PARTY_REQUIRED = ['logradouro', 'numero', 'bairro', 'cidade', 'uf'];

export async function startFakeCorreiosPrePostagem(opts: {
  user: string;
  accessCode: string;
  postingCard: string;
  /** The product codes of the contract. */
  services: string[];
  /** The "valor declarado" additional service of each product code (019 SEDEX, 064 PAC by default). */
  declaredValue?: Record<string, string>;
}) {
  const declaredValue = opts.declaredValue ?? { '03220': '019', '03298': '064' };
  const prepostagens = new Map<string, FakePrePostagem>();
  const receipts = new Map<string, { ids: string[]; pendingAsks: number }>();
  const events = new Map<string, FakeSroEvent[]>();
  const tokens = new Set<string>();
  const seen: Seen[] = [];
  let down = 0;
  let renderAsks = 0;
  let serial = 0;

  function send(res: ServerResponse, status: number, payload: unknown) {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(payload));
  }
  const refuse = (res: ServerResponse, ...msgs: string[]) => send(res, 400, { msgs });

  function validParty(p: Json, who: string): string[] {
    const e = obj(p.endereco);
    const errs: string[] = [];
    if (typeof p.nome !== 'string' || !p.nome) errs.push(`${who}: nome é obrigatório.`);
    if (!/^\d{8}$/.test(String(e.cep ?? ''))) errs.push(`${who}: CEP inválido.`);
    for (const f of PARTY_REQUIRED)
      if (typeof e[f] !== 'string' || !e[f]) errs.push(`${who}: ${f} é obrigatório.`);
    if (e.uf !== undefined && !/^[A-Z]{2}$/.test(String(e.uf))) errs.push(`${who}: UF inválida.`);
    return errs;
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const url = new URL(req.url ?? '/', 'http://fake');
    let body: Json = {};
    if (raw) {
      try {
        body = obj(JSON.parse(raw));
      } catch {
        return refuse(res, 'JSON inválido.');
      }
    }
    seen.push({ method: req.method ?? '', path: url.pathname + url.search, body });
    if (down > 0) {
      down--;
      res.writeHead(503, { 'content-type': 'text/html' });
      return res.end('<html><body>Service Unavailable</body></html>');
    }
    if (req.headers.accept !== 'application/json') return refuse(res, 'Accept deve ser application/json.');

    if (req.method === 'POST' && url.pathname === '/token/v1/autentica/cartaopostagem') {
      const expected = `Basic ${Buffer.from(`${opts.user}:${opts.accessCode}`).toString('base64')}`;
      if (req.headers.authorization !== expected)
        return send(res, 401, { msgs: ['Usuário ou código de acesso inválido.'] });
      if (body.numero !== opts.postingCard)
        return send(res, 401, { msgs: ['Cartão de postagem não pertence ao usuário.'] });
      const token = `tok-${tokens.size + 1}-${Date.now()}`;
      tokens.add(token);
      return send(res, 201, {
        ambiente: 'HOMOLOGACAO',
        id: opts.user,
        perfil: 'PJ',
        cartaoPostagem: { numero: opts.postingCard, contrato: '9912345678', dr: 20 },
        emissao: '2026-11-25T10:00:00',
        expiraEm: '2099-12-31T23:59:59',
        token,
      });
    }

    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!bearer || !tokens.has(bearer)) return send(res, 401, { msgs: ['Token inválido ou expirado.'] });

    if (req.method === 'POST' && url.pathname === '/prepostagem/v1/prepostagens') {
      if (req.headers['content-type'] !== 'application/json')
        return refuse(res, 'Content-Type deve ser application/json.');
      const errs = [
        ...validParty(obj(body.remetente), 'Remetente'),
        ...validParty(obj(body.destinatario), 'Destinatário'),
      ];
      if (body.idCorreios !== opts.user) errs.push('idCorreios não confere com o token.');
      if (body.numeroCartaoPostagem !== opts.postingCard) errs.push('Cartão de postagem inválido.');
      if (!opts.services.includes(String(body.codigoServico)))
        errs.push(`Serviço ${String(body.codigoServico)} não consta do contrato.`);
      if (!/^\d{1,6}$/.test(String(body.pesoInformado ?? ''))) errs.push('pesoInformado inválido.');
      if (!['1', '2', '3'].includes(String(body.codigoFormatoObjetoInformado)))
        errs.push('codigoFormatoObjetoInformado inválido.');
      for (const f of ['alturaInformada', 'larguraInformada', 'comprimentoInformado'])
        if (!/^\d{1,3}$/.test(String(body[f] ?? ''))) errs.push(`${f} inválido.`);
      if (String(body.cienteObjetoNaoProibido) !== '1')
        errs.push('É preciso declarar ciência de que o objeto não é proibido.');
      if (body.listaServicoAdicional !== undefined) {
        const extras = Array.isArray(body.listaServicoAdicional) ? body.listaServicoAdicional.map(obj) : [];
        if (!extras.length) errs.push('listaServicoAdicional inválida.');
        for (const extra of extras) {
          const code = String(extra.codigoServicoAdicional ?? '');
          if (!Object.values(declaredValue).includes(code))
            errs.push(`Serviço adicional ${code} não consta do contrato.`);
          else if (
            opts.services.includes(String(body.codigoServico)) &&
            declaredValue[String(body.codigoServico)] !== code
          )
            errs.push(`Serviço adicional ${code} não se aplica ao serviço ${String(body.codigoServico)}.`);
          else if (
            !/^\d{1,7}\.\d{2}$/.test(String(extra.valorDeclarado ?? '')) ||
            !(Number(extra.valorDeclarado) > 0)
          )
            errs.push('valorDeclarado inválido: informe o valor em reais, com duas casas decimais.');
        }
      }
      const key = body.chaveNFe;
      if (key === undefined && !Array.isArray(body.itensDeclaracaoConteudo))
        errs.push('Informe a chave da NF-e ou a declaração de conteúdo.');
      if (key !== undefined && !isNfeAccessKey(String(key))) errs.push('Chave da NF-e inválida.');
      if (errs.length) return refuse(res, ...errs);
      serial++;
      const prefix = String(body.codigoServico) === '03220' ? 'AB' : 'QC';
      const number = String(70_000_000 + serial);
      const codigoObjeto = `${prefix}${number}${s10CheckDigit(number)}BR`;
      const id = `PRr${String(serial).padStart(6, '0')}A`;
      prepostagens.set(id, { id, codigoObjeto, body, cancelada: false });
      return send(res, 200, {
        id,
        codigoObjeto,
        idCorreios: opts.user,
        codigoServico: body.codigoServico,
        statusAtual: 1,
        descStatusAtual: 'Pré-postado',
        dataHora: '2026-11-25T10:00:00',
      });
    }

    const one = /^\/prepostagem\/v1\/prepostagens\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'DELETE' && one) {
      const p = prepostagens.get(decodeURIComponent(one[1]!));
      if (!p) return send(res, 404, { msgs: ['Pré-postagem não encontrada.'] });
      if (p.cancelada) return refuse(res, `Pré-postagem ${p.id} já foi cancelada.`);
      if (events.get(p.codigoObjeto)?.length)
        return refuse(res, `Objeto ${p.codigoObjeto} já postado: a pré-postagem não pode ser cancelada.`);
      p.cancelada = true;
      return send(res, 200, {
        id: p.id,
        codigoObjeto: p.codigoObjeto,
        statusAtual: 2,
        descStatusAtual: 'Cancelado',
      });
    }

    if (req.method === 'POST' && url.pathname === '/prepostagem/v1/prepostagens/rotulo/assincrono/pdf') {
      const ids = Array.isArray(body.idsPrePostagem) ? body.idsPrePostagem.map(String) : [];
      if (!ids.length) return refuse(res, 'Informe idsPrePostagem ou codigosObjeto.');
      const unknown = ids.filter((i) => !prepostagens.has(i) || prepostagens.get(i)!.cancelada);
      if (unknown.length)
        return refuse(res, `Pré-postagem não encontrada ou cancelada: ${unknown.join(', ')}.`);
      if (!['P', 'R'].includes(String(body.tipoRotulo))) return refuse(res, 'tipoRotulo inválido.');
      if (!['ET', 'EV'].includes(String(body.formatoRotulo))) return refuse(res, 'formatoRotulo inválido.');
      const idRecibo = `rec-${receipts.size + 1}`;
      receipts.set(idRecibo, { ids, pendingAsks: renderAsks });
      return send(res, 200, { idRecibo });
    }

    const download = /^\/prepostagem\/v1\/prepostagens\/rotulo\/download\/assincrono\/([^/]+)$/.exec(
      url.pathname,
    );
    if (req.method === 'GET' && download) {
      const receipt = receipts.get(decodeURIComponent(download[1]!));
      if (!receipt) return send(res, 404, { msgs: ['Recibo não encontrado.'] });
      if (receipt.pendingAsks > 0) {
        receipt.pendingAsks--;
        return send(res, 404, { msgs: ['Rótulo em processamento. Tente novamente.'] });
      }
      const codes = receipt.ids.map((i) => prepostagens.get(i)!.codigoObjeto);
      return send(res, 200, { nome: 'rotulo.pdf', dados: labelPdf(codes).toString('base64') });
    }

    if (req.method === 'GET' && url.pathname === '/srorastro/v1/objetos') {
      const codes = url.searchParams.getAll('codigosObjetos');
      if (!codes.length) return refuse(res, 'Informe codigosObjetos.');
      if (!['T', 'U', 'P'].includes(url.searchParams.get('resultado') ?? ''))
        return refuse(res, 'resultado deve ser T, U ou P.');
      return send(res, 200, {
        versao: '1.0.0',
        quantidade: codes.length,
        objetos: codes.map((codObjeto) => {
          const list = events.get(codObjeto);
          return list?.length
            ? { codObjeto, eventos: [...list].reverse() }
            : { codObjeto, mensagem: 'SRO-020: Objeto não encontrado na base de dados dos Correios.' };
        }),
        tipoResultado: 'Todos os eventos',
      });
    }
    return send(res, 404, { msgs: ['Recurso não encontrado.'] });
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => send(res, 500, { msgs: ['Erro interno.'] }));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    prepostagens,
    /** The next `n` calls answer 503. */
    goDown: (n: number) => {
      down = n;
    },
    /** Each label asked for from now on is still being made for the first `n` downloads. */
    renderSlowly: (n: number) => {
      renderAsks = n;
    },
    /** Every token handed out so far stops working (as an expired one does). */
    expireTokens: () => tokens.clear(),
    /** A carrier scan of the object (events are answered newest first). */
    scan: (codigo: string, event: FakeSroEvent) => {
      events.set(codigo, [...(events.get(codigo) ?? []), event]);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type FakeCorreiosPrePostagem = Awaited<ReturnType<typeof startFakeCorreiosPrePostagem>>;

/**
 * Run on its own (`node --import tsx apps/api/src/test/mocks/fake-correios-prepostagem.ts`) for an
 * end-to-end test whose shop runs in another process: the contract is read from `FAKE_CORREIOS_USER`,
 * `FAKE_CORREIOS_ACCESS_CODE` and `FAKE_CORREIOS_POSTING_CARD` (the default product codes, PAC 03298 and
 * SEDEX 03220), one JSON line `{"url": …}` is written to stdout once it listens, and SIGTERM stops it.
 */
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const fake = await startFakeCorreiosPrePostagem({
    user: process.env.FAKE_CORREIOS_USER ?? 'passada',
    accessCode: process.env.FAKE_CORREIOS_ACCESS_CODE ?? 'codigo-de-acesso',
    postingCard: process.env.FAKE_CORREIOS_POSTING_CARD ?? '0067599079',
    services: ['03298', '03220'],
  });
  process.stdout.write(`${JSON.stringify({ url: fake.url })}\n`);
  process.once('SIGTERM', () => void fake.close().then(() => process.exit(0)));
}
