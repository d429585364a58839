import { dateInTimeZone } from '@passada/core/calendar';
import { isValidCep, normalizeCep } from '@passada/core/cep';
import {
  INVALID_CEP_MESSAGE,
  type ShippingQuote,
  type ShippingQuoteRequest,
} from '@passada/core/contracts/shipping';
import { centsToCommaString } from '@passada/core/money';
import type { Db } from '../../db/client.ts';
import { badRequest, HttpError } from '../../plugins/errors.ts';
import { type ShippingProvider, ShippingProviderError } from '../../providers/shipping/index.ts';
import { findProductPackages } from '../catalog/catalog.service.ts';
import { combinePackages } from './shipping-package.ts';

/** The store is in Fortaleza; "today" for delivery dates is its calendar day. */
export const STORE_TIME_ZONE = 'America/Fortaleza';

export interface ShippingDeps {
  db: Db;
  provider: ShippingProvider;
  originCep: string;
  now: () => Date;
  log?: { warn(obj: object, msg: string): void };
}

/** The spec's quote for a CEP and, optionally, the cart's items (docs/architecture.md §3: the server weighs them). */
export async function quoteShipping(
  deps: ShippingDeps,
  request: ShippingQuoteRequest,
): Promise<ShippingQuote> {
  const raw = request.cepDestino ?? '';
  if (raw.length > 20 || !isValidCep(raw.trim())) {
    throw badRequest(INVALID_CEP_MESSAGE, 'invalid_cep', { cepDestino: INVALID_CEP_MESSAGE });
  }
  const destinationCep = normalizeCep(raw);

  const quantities = new Map<number, number>();
  for (const item of request.items ?? []) {
    quantities.set(item.product, (quantities.get(item.product) ?? 0) + item.quantity);
  }
  const packages = await findProductPackages(deps.db, [...quantities.keys()]);
  const missing = [...quantities.keys()].filter((id) => !packages.some((p) => p.id === id));
  if (missing.length) {
    const message = `Produto não encontrado no carrinho: ${missing.join(', ')}.`;
    throw badRequest(message, 'unknown_product', { items: message });
  }
  const pkg = combinePackages(packages.map((p) => ({ pkg: p, quantity: quantities.get(p.id)! })));

  try {
    const { pac, sedex } = await deps.provider.quote({
      originCep: deps.originCep,
      destinationCep,
      pkg,
      today: dateInTimeZone(deps.now(), STORE_TIME_ZONE),
    });
    return {
      precoFinalPAC: centsToCommaString(pac.priceCents),
      prazoEntregaPAC: pac.businessDays,
      dataMaximaPAC: pac.latestDate,
      precoFinalSEDEX: centsToCommaString(sedex.priceCents),
      prazoEntregaSEDEX: sedex.businessDays,
      dataMaximaSEDEX: sedex.latestDate,
    };
  } catch (error) {
    if (!(error instanceof ShippingProviderError)) throw error;
    deps.log?.warn({ provider: deps.provider.name, reason: error.message }, 'shipping quote failed');
    // The spec's message for a failed calculation (section 8).
    throw new HttpError(502, 'Erro ao calcular frete.', 'shipping_unavailable');
  }
}
