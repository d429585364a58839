import { dateInTimeZone, STORE_TIME_ZONE } from '@passada/core/calendar';
import { isValidCep, normalizeCep } from '@passada/core/cep';
import {
  INVALID_CEP_MESSAGE,
  type ShippingQuote,
  type ShippingQuoteRequest,
} from '@passada/core/contracts/shipping';
import { centsToCommaString } from '@passada/core/money';
import type { Env } from '../../config/env.ts';
import type { Db, Tx } from '../../db/client.ts';
import { badRequest, HttpError } from '../../plugins/errors.ts';
import { type ShippingProvider, ShippingProviderError } from '../../providers/shipping/shipping.provider.ts';
import type { CatalogService, ProductPackage } from '../catalog/catalog.service.ts';
import { combinePackages } from './shipping-package.ts';

type Logger = { warn(obj: object, msg: string): void };

export interface ShippingServiceDeps {
  provider: ShippingProvider;
  env: Pick<Env, 'SHIPPING_ORIGIN_CEP'>;
  now: () => Date;
  catalog: Pick<CatalogService, 'findProductPackages'>;
  log: Logger;
}

/** Shipping quotes: the cart weighed from the catalogue, priced by the configured carrier. */
export function createShippingService(deps: ShippingServiceDeps) {
  /**
   * The spec's quote for a CEP and, optionally, the cart's items (docs/architecture.md §3: the server
   * weighs them). `conn` lets orders quote inside their transaction; `log` the request's own logger.
   */
  async function quote(
    request: ShippingQuoteRequest,
    opts: { conn?: Db | Tx; log?: Logger; packages?: ProductPackage[] } = {},
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
    // A caller that has just read the products (an order being priced) passes their packages.
    const packages =
      opts.packages ?? (await deps.catalog.findProductPackages([...quantities.keys()], opts.conn));
    const missing = [...quantities.keys()].filter((id) => !packages.some((p) => p.id === id));
    if (missing.length) {
      const message = `Produto não encontrado no carrinho: ${missing.join(', ')}.`;
      throw badRequest(message, 'unknown_product', { items: message });
    }
    const pkg = combinePackages(packages.map((p) => ({ pkg: p, quantity: quantities.get(p.id)! })));

    try {
      const { pac, sedex } = await deps.provider.quote({
        originCep: deps.env.SHIPPING_ORIGIN_CEP,
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
      (opts.log ?? deps.log).warn(
        { provider: deps.provider.name, reason: error.message },
        'shipping quote failed',
      );
      // The spec's message for a failed calculation (section 8).
      throw new HttpError(502, 'Erro ao calcular frete.', 'shipping_unavailable');
    }
  }

  return { quote };
}

export type ShippingService = ReturnType<typeof createShippingService>;
