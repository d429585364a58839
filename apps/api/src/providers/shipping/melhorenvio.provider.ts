import { centsToReais, reaisToCents } from '@passada/core/money';
import {
  type LabelProvider,
  LabelProviderError,
  type LabelRequest,
  type StoredLabel,
  splitStreet,
  type TrackingReading,
} from './label.provider.ts';

/** Melhor Envio's service ids for the Correios (the quote's `id`). */
export const MELHOR_ENVIO_SERVICES = { PAC: 1, SEDEX: 2 } as const;

export interface MelhorEnvioOptions {
  /** https://melhorenvio.com.br/api/v2 or https://sandbox.melhorenvio.com.br/api/v2 */
  baseUrl: string;
  /** The OAuth2 access token of the shop's Melhor Envio account. */
  token: string;
  /** The documentation asks every call to name the application and a technical contact e-mail. */
  userAgent: string;
  timeoutMs?: number;
}

/** A Melhor Envio label as `GET /me/orders/{id}` and `POST /me/shipment/tracking` describe it. */
interface MeOrder {
  id?: unknown;
  status?: unknown;
  tracking?: unknown;
  price?: unknown;
  posted_at?: unknown;
  delivered_at?: unknown;
}

/**
 * One side of the cart (https://docs.melhorenvio.com.br/reference/inserir-fretes-no-carrinho): the
 * street in `address`, the house number in `number` (required; "S/N" when there is none) and the
 * apartment or block in `complement`.
 */
function party(p: LabelRequest['sender'], company: boolean) {
  const { logradouro, numero, complemento } = splitStreet(p);
  return {
    name: p.name,
    phone: p.phone.replace(/\D/g, ''),
    ...(p.email ? { email: p.email } : {}),
    ...(p.document ? (company ? { company_document: p.document } : { document: p.document }) : {}),
    address: logradouro,
    number: numero,
    ...(complemento ? { complement: complemento } : {}),
    district: p.neighborhood,
    city: p.city,
    state_abbr: p.state,
    country_id: 'BR',
    postal_code: p.cep,
  };
}

/**
 * The Melhor Envio API (docs/decisions/0044): a label is put in the account's cart (`POST /me/cart`,
 * with the NF-e key in `options.invoice.key`), paid from the account's balance
 * (`POST /me/shipment/checkout`), generated (`POST /me/shipment/generate`), printed from the link
 * `POST /me/shipment/print` answers, tracked with `POST /me/shipment/tracking`, and cancelled with
 * its order by `POST /me/shipment/cancel` (docs/decisions/0048).
 */
export function createMelhorEnvioProvider(opts: MelhorEnvioOptions): LabelProvider {
  const baseUrl = opts.baseUrl.replace(/\/+$/, '');
  const timeoutMs = opts.timeoutMs ?? 15_000;

  async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
    let res: Response;
    try {
      res = await fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${opts.token}`,
          accept: 'application/json',
          'user-agent': opts.userAgent,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch {
      throw new LabelProviderError('indisponivel', 'Melhor Envio fora do ar; tente de novo em instantes.');
    }
    const answer: unknown = await res.json().catch(() => null);
    if (res.ok) return answer;
    if (res.status === 401 || res.status === 403)
      throw new LabelProviderError('nao_autorizado', 'Melhor Envio recusou o token de acesso da loja.');
    if (res.status >= 500 || res.status === 429)
      throw new LabelProviderError('indisponivel', 'Melhor Envio fora do ar; tente de novo em instantes.');
    const a = (answer ?? {}) as { message?: unknown; error?: unknown; errors?: unknown };
    const fieldErrors =
      a.errors && typeof a.errors === 'object'
        ? Object.values(a.errors as Record<string, unknown>)
            .flat()
            .filter((m): m is string => typeof m === 'string')
        : [];
    const message = [typeof a.error === 'string' ? a.error : null, ...fieldErrors].filter(Boolean).join('; ');
    const text = message || (typeof a.message === 'string' ? a.message : `HTTP ${res.status}`);
    if (/saldo/i.test(text))
      throw new LabelProviderError('saldo_insuficiente', `Saldo insuficiente no Melhor Envio: ${text}`);
    throw new LabelProviderError('invalido', `Melhor Envio recusou a etiqueta: ${text}`);
  }

  const readOrder = async (ref: string) =>
    (await call('GET', `/me/orders/${encodeURIComponent(ref)}`)) as MeOrder | null;

  return {
    name: 'melhorenvio',

    async create(request) {
      if (!request.nfeKey)
        throw new LabelProviderError(
          'invalido',
          'O Melhor Envio exige a chave da NF-e autorizada para envios comerciais.',
        );
      const body = {
        service: MELHOR_ENVIO_SERVICES[request.service],
        from: party(request.sender, true),
        to: party(request.recipient, false),
        products: request.products.map((p) => ({
          name: p.name,
          quantity: p.quantity,
          unitary_value: centsToReais(p.unitCents),
        })),
        volumes: [
          {
            height: request.pkg.heightCm,
            width: request.pkg.widthCm,
            length: request.pkg.lengthCm,
            weight: request.pkg.weightGrams / 1000,
          },
        ],
        options: {
          insurance_value: centsToReais(request.declaredValueCents),
          receipt: false,
          own_hand: false,
          reverse: false,
          non_commercial: false,
          invoice: { key: request.nfeKey },
          platform: 'Passada',
          tags: [{ tag: `pedido-${request.orderId}`, url: null }],
        },
      };
      const answer = (await call('POST', '/me/cart', body)) as { id?: unknown } | null;
      if (typeof answer?.id !== 'string')
        throw new LabelProviderError(
          'indisponivel',
          'Melhor Envio respondeu o carrinho sem o id da etiqueta.',
        );
      return { ref: answer.id };
    },

    async purchase(ref) {
      // Read first: a label already paid (a retry after a crash, or a second click) is not paid again.
      let order = await readOrder(ref);
      if (order?.status === 'pending') {
        await call('POST', '/me/shipment/checkout', { orders: [ref] });
        order = await readOrder(ref);
      }
      if (order?.status === 'released' && typeof order.tracking !== 'string') {
        await call('POST', '/me/shipment/generate', { orders: [ref] });
        order = await readOrder(ref);
      }
      if (order?.status === 'canceled' || order?.status === 'expired')
        throw new LabelProviderError('invalido', `Etiqueta ${String(order.status)} no Melhor Envio.`);
      if (typeof order?.tracking !== 'string' || !order.tracking)
        throw new LabelProviderError(
          'indisponivel',
          'Etiqueta paga; o Melhor Envio ainda não informou o código de rastreio. Tente de novo em instantes.',
        );
      const price = typeof order.price === 'number' ? reaisToCents(order.price) : 0;
      return { trackingCode: order.tracking, priceCents: price };
    },

    async print(labels) {
      const answer = (await call('POST', '/me/shipment/print', {
        mode: 'private',
        orders: labels.map((l) => l.providerRef),
      })) as { url?: unknown } | null;
      if (typeof answer?.url !== 'string')
        throw new LabelProviderError('indisponivel', 'Melhor Envio não devolveu o link de impressão.');
      return { url: answer.url };
    },

    async track(labels: StoredLabel[]) {
      const readings = new Map<string, TrackingReading>();
      if (!labels.length) return readings;
      const answer = (await call('POST', '/me/shipment/tracking', {
        orders: labels.map((l) => l.providerRef),
      })) as Record<string, MeOrder> | null;
      for (const label of labels) {
        const o = answer?.[label.providerRef];
        if (!o) continue;
        // "aaaa-mm-dd hh:mm:ss", Brasília time.
        const at = (v: unknown) => {
          if (typeof v !== 'string' || !v) return null;
          const d = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(v) ? v : `${v.replace(' ', 'T')}-03:00`);
          return Number.isNaN(d.getTime()) ? null : d;
        };
        if (o.status === 'delivered')
          readings.set(label.providerRef, { state: 'entregue', at: at(o.delivered_at) });
        else if (o.status === 'posted')
          readings.set(label.providerRef, { state: 'postado', at: at(o.posted_at) });
        else readings.set(label.providerRef, { state: 'aguardando_postagem', at: null });
      }
      return readings;
    },

    async cancel(label) {
      // Read first: a label cancelled already (a retry after a lost answer) is not refused as such.
      if ((await readOrder(label.providerRef))?.status === 'canceled') return;
      // https://docs.melhorenvio.com.br/reference/cancelamento-de-etiquetas: `reason_id` is always 2.
      const answer = (await call('POST', '/me/shipment/cancel', {
        order: { id: label.providerRef, reason_id: '2', description: `Pedido ${label.orderId} cancelado` },
      }).catch((error: unknown) => {
        // A label posted (or whose collection was booked) is refused with 422 and the reason.
        if (error instanceof LabelProviderError && error.code === 'invalido')
          throw new LabelProviderError(
            'recusado',
            error.reason.replace('Melhor Envio recusou a etiqueta:', 'Melhor Envio recusou o cancelamento:'),
          );
        throw error;
      })) as Record<string, { canceled?: unknown }> | null;
      if (answer?.[label.providerRef]?.canceled !== true)
        throw new LabelProviderError('recusado', 'Melhor Envio não cancelou a etiqueta.');
    },
  };
}
