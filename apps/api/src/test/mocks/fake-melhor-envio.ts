/**
 * A strict stand-in for the Melhor Envio API v2 on 127.0.0.1, for tests only (docs/decisions/0044):
 * the cart (the house number required in `number`, apart from the street), checkout, generate, print,
 * order and tracking routes in the documented request and answer shapes, the cancellation (`POST /me/shipment/cancel`, docs/decisions/0048), its errors (401 for a
 * bad token, 422 with `errors` per field for invalid data, 422 with `error` for a checkout without
 * balance, of a label already paid, or the cancellation of one posted), and controls for a bad day.
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isNfeAccessKey } from '@passada/core/contracts/shipping-labels';
import { s10CheckDigit } from '@passada/core/s10';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {};

export interface FakeMeOrder {
  id: string;
  protocol: string;
  service_id: number;
  price: number;
  status: 'pending' | 'released' | 'posted' | 'delivered' | 'canceled';
  tracking: string | null;
  created_at: string;
  paid_at: string | null;
  generated_at: string | null;
  posted_at: string | null;
  delivered_at: string | null;
  canceled_at: string | null;
  /** What the cart received, for assertions. */
  body: Json;
}

export interface Seen {
  method: string;
  path: string;
  body: Json;
  userAgent: string | undefined;
}

const PRICES: Record<number, number> = { 1: 23.5, 2: 41.9 };
/** Required on both sides of the cart; the house number goes in `number`, apart from the street. */
const PARTY_FIELDS = ['name', 'phone', 'address', 'number', 'district', 'city', 'state_abbr', 'postal_code'];

export async function startFakeMelhorEnvio(opts: { token: string; balance?: number }) {
  const orders = new Map<string, FakeMeOrder>();
  const seen: Seen[] = [];
  let balance = opts.balance ?? 1000;
  let down = 0;
  let failAfterCheckout = 0;
  /** NF-e keys the tax authority does not know (the carrier refuses them). */
  const unknownKeys = new Set<string>();
  let serial = 0;
  const now = () => new Date().toISOString().replace('T', ' ').slice(0, 19);

  function send(res: ServerResponse, status: number, payload: unknown) {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(payload));
  }
  const invalid = (res: ServerResponse, errors: Record<string, string[]>) =>
    send(res, 422, { message: 'The given data was invalid.', errors });

  function validateCart(b: Json): Record<string, string[]> {
    const errors: Record<string, string[]> = {};
    if (b.service !== 1 && b.service !== 2) errors.service = ['O serviço selecionado é inválido.'];
    for (const side of ['from', 'to'] as const) {
      const p = obj(b[side]);
      for (const f of PARTY_FIELDS)
        if (typeof p[f] !== 'string' || !p[f])
          errors[`${side}.${f}`] = [`O campo ${side}.${f} é obrigatório.`];
      if (p.complement !== undefined && typeof p.complement !== 'string')
        errors[`${side}.complement`] = ['O campo complemento deve ser um texto.'];
      if (typeof p.postal_code === 'string' && !/^\d{8}$/.test(p.postal_code))
        errors[`${side}.postal_code`] = ['O CEP deve ter 8 dígitos.'];
    }
    if (!obj(b.from).company_document) errors['from.company_document'] = ['Envio comercial exige o CNPJ.'];
    const volumes = Array.isArray(b.volumes) ? b.volumes.map(obj) : [];
    if (volumes.length !== 1) errors.volumes = ['Os Correios aceitam um volume por etiqueta.'];
    for (const v of volumes)
      for (const f of ['height', 'width', 'length', 'weight'])
        if (typeof v[f] !== 'number' || (v[f] as number) <= 0) errors[`volumes.0.${f}`] = ['Valor inválido.'];
    const options = obj(b.options);
    if (typeof options.insurance_value !== 'number')
      errors['options.insurance_value'] = ['Informe o valor segurado.'];
    const key = obj(options.invoice).key;
    if (options.non_commercial !== true) {
      if (typeof key !== 'string' || !isNfeAccessKey(key) || unknownKeys.has(key))
        errors['options.invoice.key'] = ['A chave da nota fiscal é inválida.'];
    }
    return errors;
  }

  const server: Server = createServer(async (req: IncomingMessage, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const url = new URL(req.url ?? '/', 'http://fake');
    const body = raw ? obj(JSON.parse(raw)) : {};
    seen.push({ method: req.method ?? '', path: url.pathname, body, userAgent: req.headers['user-agent'] });
    if (down > 0) {
      down -= 1;
      res.writeHead(503, { 'content-type': 'text/html' });
      return res.end('<html><body>503 Service Unavailable</body></html>');
    }
    if (req.headers.authorization !== `Bearer ${opts.token}`)
      return send(res, 401, { message: 'Unauthenticated.' });
    if (req.headers.accept !== 'application/json' || !req.headers['user-agent'])
      return send(res, 400, { message: 'Cabeçalhos Accept e User-Agent são obrigatórios.' });
    const path = url.pathname.replace(/^\/api\/v2/, '');
    const ids = Array.isArray(body.orders)
      ? body.orders.filter((i): i is string => typeof i === 'string')
      : [];
    const unknown = ids.find((id) => !orders.has(id));

    if (req.method === 'POST' && path === '/me/cart') {
      const errors = validateCart(body);
      if (Object.keys(errors).length) return invalid(res, errors);
      const id = randomUUID();
      const order: FakeMeOrder = {
        id,
        protocol: `ORD-2026${String(++serial).padStart(8, '0')}`,
        service_id: body.service as number,
        price: PRICES[body.service as number]!,
        status: 'pending',
        tracking: null,
        created_at: now(),
        paid_at: null,
        generated_at: null,
        posted_at: null,
        delivered_at: null,
        canceled_at: null,
        body,
      };
      orders.set(id, order);
      const { body: _body, ...answer } = order;
      return send(res, 201, answer);
    }
    const m = /^\/me\/orders\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && m) {
      const order = orders.get(decodeURIComponent(m[1]!));
      if (!order) return send(res, 404, { message: 'No query results for model [App\\Order].' });
      const { body: _body, ...answer } = order;
      return send(res, 200, answer);
    }
    if (req.method === 'POST' && path === '/me/shipment/cancel') {
      // One label per call, `{ order: { id, reason_id, description } }`; `reason_id` is always 2.
      const o = obj(body.order);
      const errors: Record<string, string[]> = {};
      if (typeof o.id !== 'string' || !o.id) errors['order.id'] = ['O campo order.id é obrigatório.'];
      if (String(o.reason_id) !== '2') errors['order.reason_id'] = ['O motivo selecionado é inválido.'];
      if (typeof o.description !== 'string' || !o.description)
        errors['order.description'] = ['O campo order.description é obrigatório.'];
      if (Object.keys(errors).length) return invalid(res, errors);
      const order = orders.get(o.id as string);
      if (!order) return invalid(res, { 'order.id': [`O envio ${String(o.id)} não existe.`] });
      if (order.status === 'canceled') return send(res, 422, { error: 'Este envio já foi cancelado.' });
      if (order.status === 'posted' || order.status === 'delivered')
        return send(res, 422, { error: 'Este envio não pode ser cancelado: o objeto já foi postado.' });
      order.status = 'canceled';
      order.canceled_at = now();
      return send(res, 200, { [order.id]: { canceled: true } });
    }
    if (req.method === 'POST' && path.startsWith('/me/shipment/')) {
      if (!ids.length) return invalid(res, { orders: ['O campo orders é obrigatório.'] });
      if (unknown) return invalid(res, { orders: [`O envio ${unknown} não existe.`] });
      const chosen = ids.map((id) => orders.get(id)!);
      if (path === '/me/shipment/checkout') {
        const paid = chosen.find((o) => o.status !== 'pending');
        if (paid) return send(res, 422, { error: `O envio ${paid.protocol} já foi pago.` });
        const total = chosen.reduce((s, o) => s + o.price, 0);
        if (total > balance)
          return send(res, 422, { error: 'Você não tem saldo suficiente para esta compra.' });
        balance -= total;
        for (const o of chosen) {
          o.status = 'released';
          o.paid_at = now();
        }
        if (failAfterCheckout > 0) {
          failAfterCheckout -= 1;
          res.destroy();
          return;
        }
        return send(res, 200, {
          purchase: {
            id: randomUUID(),
            protocol: `PUR-2026${String(serial).padStart(8, '0')}`,
            total,
            status: 'paid',
            orders: chosen.map(({ body: _b, ...o }) => o),
          },
        });
      }
      if (path === '/me/shipment/generate') {
        const answer: Json = {};
        for (const o of chosen) {
          if (o.status !== 'released') {
            answer[o.id] = { status: false, message: 'Envio não liberado para geração.' };
            continue;
          }
          const s = String(10_000_000 + serial * 7 + [...o.id].length).slice(-8);
          o.tracking ??= `QB${s}${s10CheckDigit(s)}BR`;
          o.generated_at = now();
          answer[o.id] = { status: true, message: 'Envio gerado com sucesso' };
        }
        return send(res, 200, answer);
      }
      if (path === '/me/shipment/print') {
        if (body.mode !== 'private' && body.mode !== 'public')
          return invalid(res, { mode: ['Modo inválido.'] });
        return send(res, 200, { url: `https://melhorenvio.com.br/imprimir/${ids.join(',')}` });
      }
      if (path === '/me/shipment/tracking') {
        return send(
          res,
          200,
          Object.fromEntries(
            chosen.map((o) => [
              o.id,
              {
                id: o.id,
                protocol: o.protocol,
                status: o.status,
                tracking: o.tracking,
                melhorenvio_tracking: null,
                created_at: o.created_at,
                paid_at: o.paid_at,
                generated_at: o.generated_at,
                posted_at: o.posted_at,
                delivered_at: o.delivered_at,
                canceled_at: o.canceled_at,
                expired_at: null,
              },
            ]),
          ),
        );
      }
    }
    return send(res, 404, { message: 'Not Found' });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/api/v2`,
    seen,
    orders,
    /** The next `n` calls answer 503 (an HTML page, as a load balancer does). */
    goDown(n = 1) {
      down = n;
    },
    /** The next `n` checkouts pay, then the connection drops before the answer. */
    dropAfterCheckout(n = 1) {
      failAfterCheckout = n;
    },
    setBalance(reais: number) {
      balance = reais;
    },
    refuseKey(key: string) {
      unknownKeys.add(key);
    },
    /** The carrier's scan: posted or delivered (at the given Brasília time, "aaaa-mm-dd hh:mm:ss"). */
    move(id: string, status: 'posted' | 'delivered', at: string) {
      const o = orders.get(id)!;
      o.status = status;
      if (status === 'posted') o.posted_at = at;
      else o.delivered_at = at;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type FakeMelhorEnvio = Awaited<ReturnType<typeof startFakeMelhorEnvio>>;
