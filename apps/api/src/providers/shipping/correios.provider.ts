import { commaStringToCents } from '@passada/core/money';
import { type CorreiosReversaOptions, createCorreiosReversa } from './correios-reversa.ts';
import { createCorreiosToken } from './correios-token.ts';
import {
  type ServiceQuote,
  type ShippingPackage,
  type ShippingProvider,
  ShippingProviderError,
  type ShippingQuoteInput,
} from './shipping.provider.ts';

/** Correios product codes for contract customers. */
export const CORREIOS_PAC = '03298';
export const CORREIOS_SEDEX = '03220';

/** The smallest box the Correios accept (cm); smaller packages are quoted as this box. */
const MIN_BOX = { lengthCm: 16, widthCm: 11, heightCm: 2 };

export interface CorreiosOptions {
  baseUrl: string;
  user: string;
  accessCode: string;
  postingCard: string;
  timeoutMs?: number;
  /** The clock, for token expiry. */
  now?: () => Date;
  /** The reverse-logistics contract (docs/decisions/0040); without it staff issue return codes by hand. */
  reversa?: CorreiosReversaOptions;
}

/**
 * The Correios REST API (contract customers): a token from the posting card, then price and delivery
 * time per service. Errors from any call become a ShippingProviderError (the API answers 502).
 */
export function createCorreiosProvider(opts: CorreiosOptions): ShippingProvider {
  const baseUrl = opts.baseUrl.replace(/\/+$/, '');
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const now = opts.now ?? (() => new Date());
  const reversa = opts.reversa ? createCorreiosReversa(opts.reversa) : null;

  async function call(path: string, init: RequestInit): Promise<unknown> {
    let res: Response;
    try {
      res = await fetch(`${baseUrl}${path}`, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw new ShippingProviderError(`Correios indisponível (${path}): ${(error as Error).message}`);
    }
    const body: unknown = await res.json().catch(() => null);
    if (!res.ok) {
      const msgs = (body as { msgs?: unknown } | null)?.msgs;
      const reason = Array.isArray(msgs) ? msgs.join('; ') : `HTTP ${res.status}`;
      const error = new ShippingProviderError(`Correios recusou ${path.split('?')[0]}: ${reason}`);
      if (res.status === 401) contractToken.drop();
      throw error;
    }
    return body;
  }

  // PAC and SEDEX are quoted in parallel; they share one token request.
  const contractToken = createCorreiosToken({
    credentials: opts,
    now,
    request: (headers, body) =>
      call('/token/v1/autentica/cartaopostagem', {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
      }),
    missing: () => new ShippingProviderError('Correios: resposta de token sem token'),
  });

  async function quoteService(
    code: string,
    input: ShippingQuoteInput,
    pkg: ShippingPackage,
  ): Promise<ServiceQuote> {
    const headers = { authorization: `Bearer ${await contractToken.get()}`, accept: 'application/json' };
    const price = new URLSearchParams({
      cepOrigem: input.originCep,
      cepDestino: input.destinationCep,
      psObjeto: String(pkg.weightGrams),
      tpObjeto: '2',
      comprimento: String(pkg.lengthCm),
      largura: String(pkg.widthCm),
      altura: String(pkg.heightCm),
    });
    const time = new URLSearchParams({ cepOrigem: input.originCep, cepDestino: input.destinationCep });
    const [priceBody, timeBody] = (await Promise.all([
      call(`/preco/v1/nacional/${code}?${price}`, { headers }),
      call(`/prazo/v1/nacional/${code}?${time}`, { headers }),
    ])) as [{ pcFinal?: unknown } | null, { prazoEntrega?: unknown; dataMaxima?: unknown } | null];
    const pcFinal = priceBody?.pcFinal;
    const days = timeBody?.prazoEntrega;
    const latest = timeBody?.dataMaxima;
    if (typeof pcFinal !== 'string' || typeof days !== 'number' || typeof latest !== 'string') {
      throw new ShippingProviderError(`Correios: resposta inesperada para o serviço ${code}`);
    }
    let priceCents: number;
    try {
      priceCents = commaStringToCents(pcFinal);
    } catch {
      throw new ShippingProviderError(`Correios: preço ilegível para o serviço ${code}`);
    }
    const latestDate = latest.slice(0, 10);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(latestDate)) {
      throw new ShippingProviderError(`Correios: data máxima ilegível para o serviço ${code}`);
    }
    return { priceCents, businessDays: days, latestDate };
  }

  return {
    name: 'correios',
    async quote(input) {
      const pkg: ShippingPackage = {
        weightGrams: Math.max(1, Math.round(input.pkg.weightGrams)),
        lengthCm: Math.max(MIN_BOX.lengthCm, Math.ceil(input.pkg.lengthCm)),
        widthCm: Math.max(MIN_BOX.widthCm, Math.ceil(input.pkg.widthCm)),
        heightCm: Math.max(MIN_BOX.heightCm, Math.ceil(input.pkg.heightCm)),
      };
      const [pac, sedex] = await Promise.all([
        quoteService(CORREIOS_PAC, input, pkg),
        quoteService(CORREIOS_SEDEX, input, pkg),
      ]);
      return { pac, sedex };
    },
    async authorizeReturn(input) {
      // The Correios reverse-logistics service (e-ticket) is a separate contract and web service
      // (docs/decisions/0040): used when its contract is set; otherwise staff send the code they issue in
      // the Correios portal, and the request waits as `solicitada`.
      if (reversa) return reversa.authorizeReturn(input);
      throw new ShippingProviderError(
        'Logística reversa dos Correios não integrada: emita o código no portal.',
      );
    },
  };
}
